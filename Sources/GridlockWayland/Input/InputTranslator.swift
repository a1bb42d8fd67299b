import GridlockCore

/// Turns wl_touch and wl_pointer events into `SurfaceInput`, as pure state: which surface
/// each touch went down on (later touch events do not say), which surface has the pointer
/// and where it is (a button event does not say), and each position times the scale.
struct InputTranslator {
    /// A surface the compositor named, as ours with its scale; nil for one that is not (any more).
    var surface: (_ compositorSurface: OpaquePointer) -> (id: SurfaceID, scale: Int)?

    private var touches: [Int32: (id: SurfaceID, scale: Int)] = [:]
    private var pointer: (id: SurfaceID, scale: Int, at: Point)?

    init(surface: @escaping (OpaquePointer) -> (id: SurfaceID, scale: Int)?) {
        self.surface = surface
    }

    static func scaled(_ x: Double, _ y: Double, _ scale: Int) -> Point {
        Point(x: x * Double(scale), y: y * Double(scale))
    }

    mutating func touchDown(on compositorSurface: OpaquePointer?, touch: Int32, x: Double, y: Double, time: UInt32) -> SurfaceInput? {
        guard let compositorSurface, let target = surface(compositorSurface) else { return nil }
        touches[touch] = target
        return .touchDown(target.id, touch: touch, at: Self.scaled(x, y, target.scale), timeMilliseconds: time)
    }

    func touchMotion(touch: Int32, x: Double, y: Double, time: UInt32) -> SurfaceInput? {
        guard let target = touches[touch] else { return nil }
        return .touchMotion(target.id, touch: touch, at: Self.scaled(x, y, target.scale), timeMilliseconds: time)
    }

    mutating func touchUp(touch: Int32, time: UInt32) -> SurfaceInput? {
        guard let target = touches.removeValue(forKey: touch) else { return nil }
        return .touchUp(target.id, touch: touch, timeMilliseconds: time)
    }

    mutating func touchCancel() -> SurfaceInput {
        let surfaces = Set(touches.values.map(\.id)).sorted { $0.rawValue < $1.rawValue }
        touches = [:]
        return .touchCancel(surfaces)
    }

    mutating func pointerEnter(_ compositorSurface: OpaquePointer?, x: Double, y: Double) -> SurfaceInput? {
        guard let compositorSurface, let target = surface(compositorSurface) else {
            pointer = nil
            return nil
        }
        let at = Self.scaled(x, y, target.scale)
        pointer = (target.id, target.scale, at)
        return .pointerEnter(target.id, at: at)
    }

    mutating func pointerLeave() -> SurfaceInput? {
        guard let left = pointer else { return nil }
        pointer = nil
        return .pointerLeave(left.id)
    }

    mutating func pointerMotion(x: Double, y: Double, time: UInt32) -> SurfaceInput? {
        guard let current = pointer else { return nil }
        let at = Self.scaled(x, y, current.scale)
        pointer = (current.id, current.scale, at)
        return .pointerMotion(current.id, at: at, timeMilliseconds: time)
    }

    /// Only the left button (BTN_LEFT) draws; the others are ignored.
    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) -> SurfaceInput? {
        guard button == PointerButton.left, let current = pointer else { return nil }
        return .pointerButton(current.id, pressed: pressed, at: current.at, timeMilliseconds: time)
    }

    /// A surface went away: its touches and the pointer's focus on it end silently.
    mutating func forget(_ id: SurfaceID) {
        touches = touches.filter { $0.value.id != id }
        if pointer?.id == id { pointer = nil }
    }
}
