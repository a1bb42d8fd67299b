import GridlockCore

/// Picks the one stroke a pattern is drawn with out of everything the seats report: the
/// first finger down (others are ignored until it lifts, as on the panel), or the pointer
/// with its left button held. Its steps come out as the core's `TouchEvent`s on the surface
/// it started on, in that surface's buffer pixels.
public struct PrimaryStroke: Hashable, Sendable {
    private enum Owner: Hashable, Sendable {
        case touch(Int32)
        case pointer
    }

    private var owner: Owner?
    private var surface: SurfaceID?

    public init() {}

    /// The stroke's step for `input`, and the surface it is on; nil when it is not part of it.
    public mutating func step(for input: SurfaceInput) -> (SurfaceID, TouchEvent)? {
        switch input {
        case let .touchDown(id, touch, at, _):
            guard owner == nil else { return nil }
            owner = .touch(touch)
            surface = id
            return (id, .down(at))
        case let .touchMotion(id, touch, at, _):
            guard owner == .touch(touch), surface == id else { return nil }
            return (id, .move(at))
        case let .touchUp(id, touch, _):
            guard owner == .touch(touch), surface == id else { return nil }
            return end(.up)
        case .touchCancel:
            guard case .touch = owner else { return nil }
            return end(.cancel(.inputTakenOver))
        case .pointerEnter:
            return nil
        case let .pointerLeave(id):
            guard owner == .pointer, surface == id else { return nil }
            return end(.cancel(.inputTakenOver))
        case let .pointerMotion(id, at, _):
            guard owner == .pointer, surface == id else { return nil }
            return (id, .move(at))
        case let .pointerButton(id, pressed, at, _):
            if pressed {
                guard owner == nil else { return nil }
                owner = .pointer
                surface = id
                return (id, .down(at))
            }
            guard owner == .pointer, surface == id else { return nil }
            return end(.up)
        case .touchFrame, .pointerFrame:
            return nil
        }
    }

    /// The surface went away (its output was unplugged): a stroke on it ends, discarded.
    public mutating func surfaceRemoved(_ id: SurfaceID) -> TouchEvent? {
        guard surface == id, owner != nil else { return nil }
        owner = nil
        surface = nil
        return .cancel(.displayLost)
    }

    private mutating func end(_ event: TouchEvent) -> (SurfaceID, TouchEvent)? {
        guard let surface else { return nil }
        owner = nil
        self.surface = nil
        return (surface, event)
    }
}
