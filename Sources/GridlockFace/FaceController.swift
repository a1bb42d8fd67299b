import GridlockCore
import LinuxSys

/// What a face draws on and unlocks: the compositor's lock surfaces, one per output. It
/// draws `FaceController.scene(on:)` on each, in its own layout, at its next frame.
public protocol LockSurfaces: AnyObject {
    /// The picture changed; every surface draws it when the compositor next lets it.
    func sceneChanged()
    /// Ask the compositor to unlock the session (ext-session-lock-v1 `unlock_and_destroy`).
    func unlockSession()
}

/// The thin shell around `FaceMachine`: feeds it touch from the lock surfaces and replies
/// from gridlockd, and carries out its effects (send, redraw, unlock, the timer) on the
/// face's one loop. Nothing here decides about a pattern.
public final class FaceController {
    public private(set) var machine: FaceMachine
    private unowned let loop: EventLoop
    private let timer: EventLoop.Deadline
    private var grid: FaceGrid
    public weak var surfaces: LockSurfaces?
    /// Set by the owner once the client exists (the client's handlers hold the controller).
    public var session: SessionClient?
    /// Called with each report (the journal, a test).
    public var onReport: (FaceReport) -> Void = { _ in }
    /// Lets the panel's devices go (false) or takes them back (true): `FaceSettings.holdsPanel`.
    public var holdPanel: (Bool) -> Void = { _ in }
    /// Reads touches through the touchscreen's calibration (true) or raw (false, calibrating).
    public var calibrateTouch: (Bool) -> Void = { _ in }

    public init(loop: EventLoop, settings: FaceSettings, grid: FaceGrid) {
        self.loop = loop
        self.grid = grid
        machine = FaceMachine(settings: settings)
        timer = loop.deadline("face display")
        timer.onFire { [unowned self] now in handle(.timerFired, at: now) }
    }

    /// A reloaded face file's settings and grid: the next look and layout use them; the
    /// stroke under way, if any, goes on.
    public func reconfigure(settings: FaceSettings, grid: FaceGrid) {
        self.grid = grid
        machine.reconfigure(settings)
    }

    /// Where the grid sits on a surface whose logical frame is `frame`, in gridlockd's shape.
    public func layout(for frame: Rect) -> GridLayout? {
        try? GridLayout(
            shape: machine.shape, frame: frame, sizeFraction: grid.sizeFraction, hitRadiusFraction: grid.hitRadiusFraction)
    }

    public func scene(on layout: GridLayout) -> Scene { machine.scene(on: layout, now: loop.time) }

    /// A touch or pointer step on the surface whose grid is `layout`.
    public func touch(_ event: TouchEvent, on layout: GridLayout) { handle(.touch(event, layout: layout), at: loop.time) }

    public func reply(_ reply: SessionReply) { handle(.reply(reply), at: loop.time) }

    public func serviceLost() { handle(.serviceLost, at: loop.time) }

    /// A connection to gridlockd was made: the machine asks for its status.
    public func connected() { handle(.connected, at: loop.time) }

    /// The session was locked again (idle, `--now`, a signal).
    public func relocked() { handle(.relocked, at: loop.time) }

    private func handle(_ event: FaceMachine.Event, at now: Instant) {
        let effects = machine.handle(event, at: now)
        for effect in effects {
            switch effect {
            case .redraw: surfaces?.sceneChanged()
            case .send(let request): session?.send(request)
            case .unlockSession: surfaces?.unlockSession()
            case .armTimer(let instant): timer.due = instant
            case .disarmTimer: timer.due = nil
            case .report(let report): onReport(report)
            case .holdPanel(let held): holdPanel(held)
            case .calibrateTouch(let calibrated): calibrateTouch(calibrated)
            }
        }
    }
}

/// The grid's place on a surface, from the face's theme file (`[grid]`); its rows and
/// columns are always gridlockd's.
public struct FaceGrid: Hashable, Sendable {
    public var sizeFraction: Double
    public var hitRadiusFraction: Double

    public init(sizeFraction: Double = 0.8, hitRadiusFraction: Double = 0.6) {
        self.sizeFraction = sizeFraction
        self.hitRadiusFraction = hitRadiusFraction
    }
}
