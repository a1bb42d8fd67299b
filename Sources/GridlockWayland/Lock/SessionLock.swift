import CWaylandClient
import CWaylandProtocols

/// What the session lock tells its owner, in order, on the loop.
public enum SessionLockEvent {
    /// The compositor shows only the lock surfaces now: the session is locked.
    case locked
    /// The compositor ended (or refused: another locker holds the session) the lock; the
    /// lock object and its surfaces are gone.
    case finished
    /// A surface was configured (new, resized or rescaled): draw it whole.
    case surfaceConfigured(LockSurface)
    /// A surface can draw again (its previous frame is done, a buffer is free).
    case surfaceReadyToDraw(LockSurface)
    /// Its output went away, and the surface with it.
    case surfaceRemoved(SurfaceID)
    case input(SurfaceInput)
}

/// ext-session-lock-v1 over one connection: `lock()`, a lock surface on every wl_output
/// (also outputs plugged in later), each surface's configure acknowledged, input from every
/// seat, and `unlockAndDestroy()`.
public final class SessionLock {
    public enum State: Hashable, Sendable {
        case unlocked
        /// Requested; `locked` has not come yet.
        case locking
        case locked
        /// The compositor sent `finished`.
        case finished
    }

    public private(set) var state = State.unlocked
    private let connection: WaylandConnection
    private let compositor: WaylandProxy
    private let shm: WaylandProxy
    private let manager: WaylandProxy
    private var lockObject: WaylandProxy?
    private var outputs: [UInt32: WaylandOutput] = [:]
    private var seats: [UInt32: Seat] = [:]
    private var book = OutputSurfaceBook()
    private var lockSurfaces: [SurfaceID: LockSurface] = [:]
    private let events: (SessionLockEvent) -> Void

    /// Binds what locking needs, failing with `missingProtocols` when the compositor lacks it.
    public init(connection: WaylandConnection, events: @escaping (SessionLockEvent) -> Void) throws(WaylandError) {
        try connection.require(RequiredGlobals.lockFace)
        let globals = connection.globals
        func bind(_ requirement: RequiredGlobals.Requirement, _ interface: UnsafePointer<wl_interface>) throws(WaylandError) -> WaylandProxy {
            guard let global = globals.first(requirement.interface), let bound = connection.bind(global, interface, requirement) else {
                throw .missingProtocols([requirement.interface])
            }
            return WaylandProxy(bound, connection: connection)
        }
        let required = RequiredGlobals.lockFace
        compositor = try bind(required[0], gridlock_wl_compositor_interface())
        shm = try bind(required[1], gridlock_wl_shm_interface())
        manager = try bind(required[2], gridlock_ext_session_lock_manager_v1_interface())
        self.connection = connection
        self.events = events
        connection.observeGlobals { [weak self] change in self?.globalChanged(change) }
    }

    deinit {
        for surface in lockSurfaces.values { surface.destroy() }
        lockObject?.send(SessionLockRequest.destroy.rawValue, destroying: true)
        manager.send(SessionLockManagerRequest.destroy.rawValue, destroying: true)
        compositor.destroy { wl_compositor_destroy($0) }
        shm.destroy { wl_shm_destroy($0) }
    }

    /// Every lock surface, in creation order.
    public var surfaces: [LockSurface] { lockSurfaces.values.sorted { $0.id.rawValue < $1.id.rawValue } }

    public func surface(_ id: SurfaceID) -> LockSurface? { lockSurfaces[id] }

    /// Asks the compositor to lock; `locked` or `finished` follows, and a configure for
    /// each output's surface, which must be drawn before the compositor says `locked`.
    public func lock() throws(WaylandError) {
        guard state == .unlocked || state == .finished else { return }
        guard let made = manager.send(
            SessionLockManagerRequest.lock.rawValue, [wl_argument(o: nil)], creating: gridlock_ext_session_lock_v1_interface()
        ) else {
            throw .disconnected(errno: .current)
        }
        let lock = WaylandProxy(made, connection: connection)
        lock.onEvent = { [unowned self] opcode, _ in
            switch SessionLockEventCode(rawValue: opcode) {
            case .locked:
                state = .locked
                events(.locked)
            case .finished:
                end(as: .finished)
                events(.finished)
            case nil: break
            }
        }
        lockObject = lock
        state = .locking
        try apply(book.lockRequested())
    }

    /// Unlocks (once locked) or withdraws the request (before `locked`), and destroys the
    /// surfaces. The compositor shows the session again.
    public func unlockAndDestroy() {
        switch state {
        case .locked: lockObject?.send(SessionLockRequest.unlockAndDestroy.rawValue, destroying: true)
        case .locking: lockObject?.send(SessionLockRequest.destroy.rawValue, destroying: true)
        case .unlocked, .finished: return
        }
        lockObject = nil
        end(as: .unlocked)
    }

    /// Watches the first seat for `timeoutMilliseconds` without input; nil when the compositor
    /// has no ext_idle_notifier_v1 (or no seat): relocking after idleness is then not offered.
    public func watchIdle(timeoutMilliseconds: UInt32, _ changed: @escaping (IdleWatch.Change) -> Void) -> IdleWatch? {
        guard let notifier = connection.globals.first(RequiredGlobals.idleNotifier),
              let seat = seats.keys.sorted().first.flatMap({ seats[$0] }) else { return nil }
        return IdleWatch(notifier: notifier, seat: seat.seat, timeoutMilliseconds: timeoutMilliseconds, connection: connection, changed: changed)
    }

    private func end(as ended: State) {
        let actions = book.lockEnded()
        for case .destroy(let id) in actions { removeSurface(id, announce: false) }
        if ended == .finished {
            lockObject?.send(SessionLockRequest.destroy.rawValue, destroying: true)
            lockObject = nil
        }
        state = ended
    }

    private func globalChanged(_ change: WaylandConnection.GlobalChange) {
        switch change {
        case .added(let global) where global.interface == RequiredGlobals.output.interface:
            guard global.version >= RequiredGlobals.output.minimumVersion,
                  let bound = connection.bind(global, gridlock_wl_output_interface(), RequiredGlobals.output) else { return }
            outputs[global.name] = WaylandOutput(global: global, proxy: bound, connection: connection) { [unowned self] output in
                outputDone(output)
            }
        case .added(let global) where global.interface == RequiredGlobals.seat.interface:
            guard let bound = connection.bind(global, gridlock_wl_seat_interface(), RequiredGlobals.seat) else { return }
            seats[global.name] = Seat(global: global, proxy: bound, connection: connection, surface: { [unowned self] pointer in
                lockSurfaces.values.first { $0.surface.isSame(as: pointer) }.map { ($0.id, $0.scale) }
            }, deliver: { [unowned self] input in events(.input(input)) })
        case .removed(let global) where global.interface == RequiredGlobals.output.interface:
            for case .destroy(let id) in book.outputRemoved(global.name) { removeSurface(id, announce: true) }
            outputs[global.name] = nil
        case .removed(let global) where global.interface == RequiredGlobals.seat.interface:
            seats[global.name] = nil
        default:
            break
        }
    }

    private func outputDone(_ output: WaylandOutput) {
        if let id = book.surfaces[output.global.name], let surface = lockSurfaces[id] {
            surface.outputChanged()
            return
        }
        do {
            try apply(book.outputReady(output.global.name))
        } catch {
            // The connection broke; WaylandConnection reports it through the loop.
        }
    }

    private func apply(_ actions: [OutputSurfaceBook.Action]) throws(WaylandError) {
        for action in actions {
            switch action {
            case .create(let outputName, let id):
                guard let output = outputs[outputName], let lock = lockObject else { continue }
                lockSurfaces[id] = try LockSurface(
                    id: id, output: output, lock: lock, compositor: compositor, shm: shm, connection: connection
                ) { [unowned self] surface, change in
                    switch change {
                    case .configured: events(.surfaceConfigured(surface))
                    case .readyToDraw: events(.surfaceReadyToDraw(surface))
                    }
                }
            case .destroy(let id):
                removeSurface(id, announce: true)
            }
        }
    }

    private func removeSurface(_ id: SurfaceID, announce: Bool) {
        guard let surface = lockSurfaces.removeValue(forKey: id) else { return }
        for seat in seats.values { seat.forget(id) }
        surface.destroy()
        if announce { events(.surfaceRemoved(id)) }
    }
}
