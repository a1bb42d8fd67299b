/// Which outputs have a lock surface, as pure state: while the session is being locked or
/// is locked, every output has one, made when the output is ready (also for one plugged
/// in later) and destroyed when it goes.
struct OutputSurfaceBook: Hashable, Sendable {
    enum Action: Hashable, Sendable {
        case create(output: UInt32, SurfaceID)
        case destroy(SurfaceID)
    }

    private(set) var outputs: Set<UInt32> = []
    private(set) var surfaces: [UInt32: SurfaceID] = [:]
    private(set) var isLocking = false
    private var nextSurface = 1

    /// An output's first `done` (its scale is known) came.
    mutating func outputReady(_ output: UInt32) -> [Action] {
        outputs.insert(output)
        return isLocking ? createMissing() : []
    }

    /// Its global was removed.
    mutating func outputRemoved(_ output: UInt32) -> [Action] {
        outputs.remove(output)
        guard let surface = surfaces.removeValue(forKey: output) else { return [] }
        return [.destroy(surface)]
    }

    mutating func lockRequested() -> [Action] {
        isLocking = true
        return createMissing()
    }

    /// Unlocked, or the compositor finished the lock: no surfaces remain.
    mutating func lockEnded() -> [Action] {
        isLocking = false
        let gone = surfaces.values.sorted { $0.rawValue < $1.rawValue }.map(Action.destroy)
        surfaces = [:]
        return gone
    }

    private mutating func createMissing() -> [Action] {
        outputs.sorted().filter { surfaces[$0] == nil }.map { output in
            let surface = SurfaceID(rawValue: nextSurface)
            nextSurface += 1
            surfaces[output] = surface
            return .create(output: output, surface)
        }
    }
}
