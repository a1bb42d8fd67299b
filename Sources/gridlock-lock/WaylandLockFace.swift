import GridlockCore
import GridlockFace
import GridlockWayland
import LinuxSys

/// `gridlock-lock`'s wiring: the compositor's session lock, a drawer per lock surface, the
/// face's controller and its session client, all on one loop.
///
/// The session is locked at start, and again when it has been idle for `relock-after=`,
/// on SIGUSR1 (`gridlock-lock --now`) or at every restart. It is unlocked only on the
/// controller's word, which only an `accepted` from gridlockd gives. Whatever ends this
/// process (a signal, the compositor going away, a crash) leaves a locked session locked:
/// ext-session-lock-v1 keeps it so until a lock client unlocks it.
final class WaylandLockFace: LockSurfaces {
    enum Ending: Error, Equatable {
        /// SIGTERM or SIGINT: a clean stop (the session stays as it is).
        case stopped
        /// The compositor ended the lock itself (another lock client holds the session).
        case lockRefused
        case compositorLost(String)
    }

    private let loop: EventLoop
    private let connection: WaylandConnection
    private var lock: SessionLock!
    private let controller: FaceController
    private let client: SessionClient
    private let theme: Theme
    private let relockAfter: Duration?
    private var drawers: [SurfaceID: SurfaceDrawer] = [:]
    private var stroke = PrimaryStroke()
    private var idle: IdleWatch?
    private var ending: Ending?
    private var lockedOnce = false
    private let started: Stopwatch
    private var firstFrameSaid = false

    /// Connects to the compositor on a loop that serves SIGTERM, SIGINT and SIGUSR1 from the
    /// first moment, within `WaylandConnection.handshakeLimit`; nil when SIGTERM or SIGINT
    /// came first (a clean stop, exit 0, whatever the socket did meanwhile).
    static func connect() throws -> (EventLoop, WaylandConnection)? {
        let loop = try EventLoop(signals: [.terminate, .interrupt, .user1])
        var stopped = false
        loop.signalHandler = { signal in if signal != .user1 { stopped = true } }
        guard let connection = try WaylandConnection.connect(on: loop, until: { stopped }) else { return nil }
        return (loop, connection)
    }

    /// `started`: when the process began, for the first frame's figure.
    init(
        loop: EventLoop, connection: WaylandConnection, settings: FaceSettings, grid: FaceGrid, theme: Theme, socket: String,
        relockAfter: Duration?, started: Stopwatch
    ) throws {
        self.started = started
        self.loop = loop
        self.connection = connection
        let controller = FaceController(loop: loop, settings: settings, grid: grid)
        self.controller = controller
        self.theme = theme
        self.relockAfter = relockAfter
        // gridlockd runs as root: a socket served by anyone else is not believed.
        client = SessionClient(
            path: socket, loop: loop, serverUsers: [0], connected: { controller.connected() }, replies: { controller.reply($0) },
            lost: { why in
                Journal.log(.warning, "nothing can be checked: \(why)")
                controller.serviceLost()
            })
        controller.session = client
        lock = try SessionLock(connection: connection) { [unowned self] in sessionEvent($0) }
        controller.surfaces = self
        controller.onReport = { Journal.log($0.priority, $0.description) }
        loop.signalHandler = { [unowned self] signal in
            switch signal {
            case .user1: relock(why: "SIGUSR1")
            default: end(.stopped)
            }
        }
    }

    /// Locks, then runs until a signal or the compositor ends it.
    func run() throws -> Ending {
        try connection.attach(to: loop) { [unowned self] error in end(.compositorLost(error.description)) }
        try lock.lock()
        client.connect()
        try loop.run(until: { ending != nil })
        client.close()
        return ending ?? .stopped
    }

    private func end(_ why: Ending) {
        if ending == nil { ending = why }
    }

    // MARK: - The compositor's lock

    private func sessionEvent(_ event: SessionLockEvent) {
        switch event {
        case .locked:
            Journal.log(.notice, lockedOnce ? "session locked again" : "session locked")
            if !lockedOnce {
                // The user unit is Type=notify: `systemctl --user start gridlock-lock` returns
                // once the session is locked, so an autostart line after it starts the kiosk
                // app behind the lock, never before it.
                try? SystemdNotifier.fromEnvironment().notify("READY=1")
            }
            lockedOnce = true
        case .finished:
            Journal.log(.error, "the compositor ended the lock: another lock client holds the session, or it refused this one")
            end(.lockRefused)
        case .surfaceConfigured(let surface):
            do {
                drawers[surface.id] = try SurfaceDrawer(surface: surface, theme: theme, controller: controller)
            } catch {
                Journal.log(.error, "cannot draw on \(surface.id) (\(surface.outputName ?? "an output")): \(error)")
                drawers[surface.id] = nil
            }
            draw(surface.id)
        case .surfaceReadyToDraw(let surface):
            draw(surface.id)
        case .surfaceRemoved(let id):
            if let cancel = stroke.surfaceRemoved(id), let layout = drawers[id]?.layout {
                controller.touch(cancel, on: layout)
            }
            drawers[id] = nil
        case .input(let input):
            guard let (id, step) = stroke.step(for: input), let layout = drawers[id]?.layout else { return }
            controller.touch(step, on: layout)
        }
    }

    private func draw(_ id: SurfaceID) {
        guard let drawer = drawers[id] else { return }
        do throws(WaylandError) {
            if try drawer.drawIfDirty(controller.scene(on: drawer.layout)), !firstFrameSaid {
                firstFrameSaid = true
                let ms = started.elapsedMilliseconds
                Journal.log(.info, "first lock frame committed \(Int(ms.rounded())) ms after start (\(drawer.surface.id), \(Int(drawer.layout.frame.width))x\(Int(drawer.layout.frame.height)) pixels)")
            }
        } catch {
            end(.compositorLost(error.description))
        }
    }

    // MARK: - LockSurfaces

    func sceneChanged() {
        for id in drawers.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            drawers[id]?.markDirty()
            draw(id)
        }
    }

    func unlockSession() {
        lock.unlockAndDestroy()
        drawers = [:]
        stroke = PrimaryStroke()
        Journal.log(.notice, "session unlocked")
        guard let relockAfter else { return }
        let milliseconds = UInt32(clamping: relockAfter.nanoseconds / 1_000_000)
        idle = lock.watchIdle(timeoutMilliseconds: milliseconds) { [unowned self] change in
            if change == .idled { relock(why: "idle for \(relockAfter.secondsRoundedUp) s") }
        }
        if idle == nil {
            Journal.log(.warning, "relock-after= is set, but the compositor offers no ext-idle-notify-v1: the session is locked again only by gridlock-lock --now or SIGUSR1")
        }
    }

    private func relock(why: String) {
        guard lock.state == .unlocked else { return }
        idle = nil
        Journal.log(.info, "locking the session: \(why)")
        do throws(WaylandError) {
            try lock.lock()
        } catch {
            return end(.compositorLost(error.description))
        }
        controller.relocked()
    }
}
