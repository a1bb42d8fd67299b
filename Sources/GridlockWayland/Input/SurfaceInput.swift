import GridlockCore

/// Which lock surface (one per output) something happened on; never reused within a process.
public struct SurfaceID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "surface \(rawValue)" }
}

/// A finger or the pointer on a lock surface. Positions are surface-local in buffer pixels
/// (the compositor's logical coordinates times the surface's scale), the pixels a renderer
/// draws; times are the compositor's milliseconds. Only the left button draws.
public enum SurfaceInput: Hashable, Sendable {
    case touchDown(SurfaceID, touch: Int32, at: Point, timeMilliseconds: UInt32)
    case touchMotion(SurfaceID, touch: Int32, at: Point, timeMilliseconds: UInt32)
    case touchUp(SurfaceID, touch: Int32, timeMilliseconds: UInt32)
    /// The end of one set of touch events that belong together.
    case touchFrame
    /// The compositor took the touches over (a gesture): every touch is gone, none finished,
    /// on the surfaces listed. What they drew is not a pattern.
    case touchCancel([SurfaceID])
    case pointerEnter(SurfaceID, at: Point)
    case pointerLeave(SurfaceID)
    case pointerMotion(SurfaceID, at: Point, timeMilliseconds: UInt32)
    case pointerButton(SurfaceID, pressed: Bool, at: Point, timeMilliseconds: UInt32)
    /// The end of one set of pointer events (wl_seat 5+; older seats send none).
    case pointerFrame
}
