import GridlockCore

/// Where finished frames go: the DRM/KMS panel, PNG files, or nowhere.
/// The renderer always draws the logical (upright) frame; an output that scans out
/// turned applies the rotation while copying the damaged rectangles.
public protocol DisplayOutput: AnyObject {
    /// The logical frame the renderer must draw.
    var size: Size { get }
    /// Shows `buffer`; only the pixels inside `damage` changed since the last call.
    func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError)
}

public enum DisplayError: Error, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    case device(path: String, operation: String, reason: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write frame \(path): \(reason)"
        case .device(let path, let operation, let reason): "\(path): \(operation): \(reason)"
        }
    }
}

/// Frames are rendered and dropped: previews, benchmarks, and replays without `--frames`.
public final class NullOutput: DisplayOutput {
    public let size: Size
    public private(set) var presented = 0

    public init(size: Size) { self.size = size }

    public func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError) { presented += 1 }
}
