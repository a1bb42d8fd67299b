import GridlockCore

/// One step of the primary finger in the device's own units, before any mapping to the
/// screen: what `TouchDecoder` emits and `CoordinateMapper` turns into a `TouchEvent`.
public enum RawTouch: Hashable, Sendable {
    case down(x: Int32, y: Int32)
    case move(x: Int32, y: Int32)
    case up
    case cancel(CancelReason)
}
