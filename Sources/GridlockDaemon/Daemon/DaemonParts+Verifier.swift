import GridlockConfiguration
import GridlockCore
import GridlockInput
import LinuxSys

extension Daemon {
    /// Whether this run needs the panel drawn and read in its own process: a display, a
    /// touchscreen or a beeper of its own, or a benchmark of the drawing. Then gridlockd
    /// hands over to `gridlockd-single`, which links the libraries for them; otherwise it
    /// is the verifier alone and links none.
    public static func needsItsOwnPanel(_ config: GridlockConfig, role: Role) -> Bool {
        if role.isBenchmark || config.display.backend != .off || config.touch.backend != .off { return true }
        if case .path = config.feedback.beeper { return true }
        return false
    }
}

extension DaemonParts {
    /// gridlockd as the verifier alone (`[display]` and `[touch]` `backend=none`): the
    /// loop, the state, the session socket and the supervisor; nothing shown, no touch, no
    /// beeper. Faces draw and read the finger, each in its own process.
    public init(verifierFor config: GridlockConfig, options: Daemon.Options) throws(DaemonError) {
        let loop = try Self.loop()
        let counting = options.role.countsAttempts
        // Before anything else is opened: a second gridlockd on this state stops here.
        let state = try Self.state(at: counting ? config.lockout.stateFile : nil, for: config, by: "gridlockd")
        let group = PartGroup()
        let listener = try group.step { () throws(DaemonError) in
            config.session.enabled && options.role.guardsADoor ? try Self.sessionListener(for: config.session) : nil
        }
        if let listener { group.add(socket: listener) }
        if config.feedback.beeper == .auto, DaemonParts.beeperChoice(for: config) == .off {
            Journal.log(.info, "beeper: none here: as the verifier alone ([display] and [touch] backend=none) gridlockd leaves the sounds to the panel's face; [feedback] beeper=PATH opens one here")
        }
        self.init(
            loop: loop, screen: { config, _, _ in UnseenScreen(size: config.display.logicalFrame, rotation: config.display.rotation) },
            touch: NoTouchSource(), supervisor: ActionSupervisor(loop: loop, mode: config.action.mode), state: state,
            notifier: SystemdNotifier.fromEnvironment(), watchdogInterval: SystemdNotifier.watchdogIntervalFromEnvironment(),
            adoptsOrphans: counting && Self.becomeSubreaper(), sessionListener: listener, group: group)
    }

    /// The beeper a daemon's own process opens: none with `auto` when it has no display and
    /// no touchscreen (the panel's face holds the panel and plays its sounds). A path named
    /// is opened all the same (a buzzer wired to the door's side, root's by choice), which
    /// takes `gridlockd-single` (`Daemon.needsItsOwnPanel`).
    public static func beeperChoice(for config: GridlockConfig) -> BeeperChoice {
        guard config.feedback.beeper == .auto, config.display.backend == .off, config.touch.backend == .off else {
            return config.feedback.beeper
        }
        return .off
    }
}
