import GridlockCore

/// Turns raw axis values into points of the logical frame, in this order:
/// normalise to 0...1 across the axis range, apply the calibration matrix (libinput's
/// semantics), turn by the display rotation (`Rotation.logical(fromPhysical:)`, the same
/// call the picture uses), scale to the frame.
///
/// Normalising treats each device unit as a cell, like a pixel, and takes its centre:
/// `(v - min + 0.5) / (max - min + 1)`. libinput also divides by `max - min + 1`; the half
/// unit makes the mapping symmetric, so for every rotation the device's extreme values land
/// just inside the opposite frame edges instead of exactly on one edge and a unit short of
/// the other. Nothing is clamped: a miscalibrated touch lands outside the frame, and
/// `isInside` says so.
public struct CoordinateMapper: Hashable, Sendable {
    public let x: AbsInfo
    public let y: AbsInfo
    public let calibration: CalibrationMatrix
    public let rotation: Rotation
    /// The logical frame (`rotation.logicalSize(physical:)` of the scan-out).
    public let frame: Size

    public init(
        x: AbsInfo, y: AbsInfo, calibration: CalibrationMatrix = .identity, rotation: Rotation = .none, frame: Size
    ) throws(MapperError) {
        guard x.maximum > x.minimum else { throw .emptyAxisRange(axis: "x", x) }
        guard y.maximum > y.minimum else { throw .emptyAxisRange(axis: "y", y) }
        guard frame.width > 0, frame.height > 0, frame.width.isFinite, frame.height.isFinite else {
            throw .emptyFrame(frame)
        }
        self.x = x
        self.y = y
        self.calibration = calibration
        self.rotation = rotation
        self.frame = frame
    }

    public func point(x rawX: Int32, y rawY: Int32) -> Point {
        let physical = Point(x: Self.normalise(rawX, x), y: Self.normalise(rawY, y))
        let logical = rotation.logical(fromPhysical: calibration.apply(to: physical))
        return Point(x: logical.x * frame.width, y: logical.y * frame.height)
    }

    public func isInside(_ p: Point) -> Bool {
        Rect(origin: .zero, size: frame).contains(p)
    }

    public func touchEvent(_ raw: RawTouch) -> TouchEvent {
        switch raw {
        case .down(let x, let y): .down(point(x: x, y: y))
        case .move(let x, let y): .move(point(x: x, y: y))
        case .up: .up
        case .cancel(let reason): .cancel(reason)
        }
    }

    private static func normalise(_ value: Int32, _ axis: AbsInfo) -> Double {
        // In Double: the differences of two Int32 can overflow Int32.
        (Double(value) - Double(axis.minimum) + 0.5) / (Double(axis.maximum) - Double(axis.minimum) + 1)
    }
}

public enum MapperError: Error, Hashable, CustomStringConvertible {
    case emptyAxisRange(axis: String, AbsInfo)
    case emptyFrame(Size)

    public var description: String {
        switch self {
        case .emptyAxisRange(let axis, let info):
            "the device's \(axis) axis range \(info.minimum)...\(info.maximum) is empty: cannot map touches"
        case .emptyFrame(let size):
            "cannot map touches into a frame of \(size.width)x\(size.height)"
        }
    }
}
