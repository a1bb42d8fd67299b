import GridlockCore

/// The bookkeeping of a double-buffered scan-out, as pure state.
///
/// Each scan-out buffer remembers where it differs from the newest shadow frame: the
/// union of all damage presented since that buffer was last brought up to date. Before a
/// buffer is shown again only that region is copied into it, so a finger moving across
/// one node touches a few kilobytes rather than the whole frame, and yet nothing drawn
/// while the buffer was on screen (or while a flip was pending) is ever lost.
///
/// The flip discipline lives here too: at most one flip is in flight; a frame presented
/// meanwhile only marks the state dirty, and when the flip completes the newest shadow
/// contents are shown in one go (frames coalesce, presenting never blocks).
public struct BufferDamage: Hashable, Sendable {
    public let frame: Rect
    public let count: Int
    /// Per buffer: the logical rectangles that are stale in it.
    public private(set) var stale: [Damage]
    /// The buffer on screen (or queued to be, while a flip is pending); nil before the first frame.
    public private(set) var front: Int?
    public private(set) var flipPending = false
    /// Damage arrived that no buffer shows yet.
    public private(set) var hasUnshownDamage = false

    /// Beyond this many rectangles a buffer's stale region becomes their bounding box:
    /// copying a little more is cheaper than walking a long list every frame.
    static let maximumRects = 16

    /// Every buffer starts wholly stale: a fresh dumb buffer holds nothing we drew.
    public init(frame: Rect, count: Int) {
        precondition(count >= 1)
        self.frame = frame
        self.count = count
        stale = Array(repeating: .full(frame), count: count)
    }

    /// The buffer the next frame goes into: the one not on screen (with one buffer, the only one).
    public var back: Int {
        guard let front else { return 0 }
        return count == 1 ? 0 : (front + 1) % count
    }

    /// New shadow damage: stale in every buffer.
    public mutating func add(_ damage: Damage) {
        let clipped = damage.clipped(to: frame)
        guard !clipped.isEmpty else { return }
        for index in stale.indices {
            stale[index].formUnion(clipped)
            if stale[index].rects.count > Self.maximumRects {
                stale[index] = Damage(rects: [stale[index].bounds])
            }
        }
        hasUnshownDamage = true
    }

    /// Everything is stale (the picture was lost, or someone else drew into our buffers' place).
    public mutating func invalidateAll() {
        stale = Array(repeating: .full(frame), count: count)
        hasUnshownDamage = true
    }

    /// Whether a frame should go out now: there is something to show and no flip in flight.
    public var canPresent: Bool { hasUnshownDamage && !flipPending }

    /// Takes the back buffer for the next frame: returns it and the rectangles to copy into
    /// it, and counts them as copied. The caller then copies, and calls `shown(_:flipping:)`.
    public mutating func beginFrame() -> (buffer: Int, rects: [Rect]) {
        precondition(!flipPending, "a frame was started while a flip is pending")
        let buffer = back
        let rects = stale[buffer].rects
        stale[buffer] = Damage()
        return (buffer, rects)
    }

    /// The buffer was put on screen: by a modeset or a DirtyFB, which take effect at once
    /// (`flipping` false), or by a page flip whose completion is still to come.
    public mutating func shown(_ buffer: Int, flipping: Bool) {
        front = buffer
        flipPending = flipping
        hasUnshownDamage = false
    }

    /// A frame could not be shown (the kernel refused the flip): what was copied into the
    /// buffer is still good, but the picture did not change, so try again with the next frame.
    public mutating func failed(_ buffer: Int) {
        hasUnshownDamage = true
    }

    /// The pending flip completed.
    public mutating func flipCompleted() {
        flipPending = false
    }
}

extension Rotation {
    /// Where a rectangle of the logical frame (of size `logical`) lands in the physical
    /// scan-out, i.e. the pixels `ShadowBuffer.copy(rects:...)` writes for it. For DirtyFB
    /// clip rectangles, which are in framebuffer (physical) coordinates.
    public func physicalRect(_ rect: Rect, logical: Size) -> Rect {
        let w = logical.width, h = logical.height
        switch self {
        case .none:
            return rect
        case .clockwise90:
            // Logical (x, y) -> physical (h - 1 - y, x) per pixel; for the half-open box [x0, x1) x [y0, y1):
            return Rect(x: h - rect.maxY, y: rect.minX, width: rect.height, height: rect.width)
        case .upsideDown:
            return Rect(x: w - rect.maxX, y: h - rect.maxY, width: rect.width, height: rect.height)
        case .clockwise270:
            // Logical (x, y) -> physical (y, w - 1 - x).
            return Rect(x: rect.minY, y: w - rect.maxX, width: rect.height, height: rect.width)
        }
    }
}
