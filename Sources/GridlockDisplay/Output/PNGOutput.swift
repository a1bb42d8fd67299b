import GridlockCore
import GridlockRendering

/// `[display] backend=png`: every presented frame becomes `frame-NNNNN.png` in a folder,
/// so the whole pipeline runs, and can be checked, with no display at all. Frames are
/// written upright (logical); `rotation` still turns the touch input, as on a panel.
public final class PNGOutput: DisplayOutput {
    public let size: Size
    public let rotation: Rotation
    public let directory: String
    public private(set) var written: [String] = []

    /// The folder must exist (the caller creates it, so this type does no file-system policy).
    public init(size: Size, directory: String, rotation: Rotation = .none) {
        self.size = size
        self.rotation = rotation
        self.directory = directory
    }

    /// `DIR/frame-00001.png` for the first frame (index 0).
    public static func framePath(in directory: String, index: Int) -> String {
        let number = String(index + 1)
        return "\(directory)/frame-\(String(repeating: "0", count: max(0, 5 - number.count)))\(number).png"
    }

    public func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError) {
        let path = Self.framePath(in: directory, index: written.count)
        do {
            try PNGFile.write(buffer, to: path)
        } catch {
            throw .cannotWrite(path: path, reason: "\(error)")
        }
        written.append(path)
    }
}
