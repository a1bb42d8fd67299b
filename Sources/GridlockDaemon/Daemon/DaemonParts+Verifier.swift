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
        // Before anything else is opened: a second gridlockd on this state stops here.
        let state = try Self.state(at: options.role.countsAttempts ? config.lockout.stateFile : nil, for: config, by: "gridlockd")
        let group = PartGroup()
        let listener = try Self.sessionListener(for: config, options: options, in: group)
        if config.feedback.beeper == .auto {
            Journal.log(.info, "beeper: none here: as the verifier alone ([display] and [touch] backend=none) gridlockd leaves the sounds to the panel's face; [feedback] beeper=PATH opens one here")
        }
        self.init(
            running: config, options: options, loop: loop, state: state,
            screen: { config, _, _ in UnseenScreen(size: config.display.logicalFrame, rotation: config.display.rotation) },
            touch: NoTouchSource(), sessionListener: listener, group: group)
    }
}
