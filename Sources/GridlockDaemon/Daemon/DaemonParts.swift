import GridlockConfiguration
import GridlockCore
import GridlockInput
import LinuxSys

/// What a `Daemon` is made of. The program that links a display builds them
/// (`GridlockDaemonPanel`: `DaemonParts(config:options:)` as the config says, for
/// gridlockd, `gridlock enroll` and the benchmark; `DaemonParts.recording` for a replay);
/// a test builds them from fakes. Either way `group` holds them in the order they
/// started, and the daemon adds its own: a failed start and the stop both end them there.
public struct DaemonParts {
    /// What the lock is shown on, made once the configuration is known (its theme, its
    /// size): the daemon's first step, stopped with the rest if it fails.
    public typealias ScreenMaker = (_ config: GridlockConfig, _ role: Daemon.Role, _ clock: @escaping () -> Instant) throws(DaemonError) -> any LockPresenter

    public var loop: EventLoop
    public var screen: ScreenMaker
    public var touch: TouchSource
    public var supervisor: ActionSupervisor
    /// The failures and pattern uses to start with, and the file that keeps them.
    public var state: StateFile
    public var clock: () -> Instant
    /// Local time and whether it is synchronised, for patterns with a schedule.
    public var wallClock: () -> WallTime
    public var notifier: SystemdNotifier?
    public var watchdogInterval: Duration?
    /// The lock's sounds, made from `[feedback]`'s; nil: silent.
    public var sounds: (FeedbackSounds) -> (any LockSounds)?
    /// Where drawn patterns are checked; nil: a thread of their own (`BackgroundVerifier`).
    public var verifier: PatternVerifying?
    /// This process is the child subreaper of what its programs start: the daemon stops
    /// and reaps the orphans it is handed (`StrayProcesses`). Never in a test process,
    /// whose other children are not the daemon's.
    public var adoptsOrphans: Bool
    /// `[session] socket=`, bound and listening; nil: no lock face in the session.
    public var sessionListener: SeqPacketListener?
    /// Every part that started, to be stopped in reverse (`PartGroup`).
    public let group: PartGroup

    /// `group` holds what was made before (a display, the touch source, the socket), in
    /// the order it started.
    public init(
        loop: EventLoop, screen: @escaping ScreenMaker, touch: TouchSource, supervisor: ActionSupervisor,
        state: StateFile = StateFile(path: nil), clock: (() -> Instant)? = nil,
        wallClock: @escaping () -> WallTime = SystemWallClock.now,
        notifier: SystemdNotifier? = nil, watchdogInterval: Duration? = nil,
        sounds: @escaping (FeedbackSounds) -> (any LockSounds)? = { _ in nil },
        verifier: PatternVerifying? = nil,
        adoptsOrphans: Bool = false, sessionListener: SeqPacketListener? = nil, group: PartGroup
    ) {
        self.loop = loop
        self.screen = screen
        self.touch = touch
        self.supervisor = supervisor
        self.state = state
        // The loop's clock, unless a test scripts another: one time for every part.
        self.clock = clock ?? { [loop] in loop.time }
        self.wallClock = wallClock
        self.notifier = notifier
        self.watchdogInterval = watchdogInterval
        self.sounds = sounds
        self.verifier = verifier
        self.adoptsOrphans = adoptsOrphans
        self.sessionListener = sessionListener
        self.group = group
    }

    /// What every builder of a daemon's own run shares once its touch, screen and sounds are
    /// made: the supervisor, systemd's notifier and watchdog, and the orphans of hooks and
    /// actions adopted when the run counts attempts (gridlockd).
    package init(
        running config: GridlockConfig, options: Daemon.Options, loop: EventLoop, state: StateFile, screen: @escaping ScreenMaker,
        touch: TouchSource, sounds: @escaping (FeedbackSounds) -> (any LockSounds)? = { _ in nil },
        sessionListener: SeqPacketListener?, group: PartGroup
    ) {
        self.init(
            loop: loop, screen: screen, touch: touch, supervisor: ActionSupervisor(loop: loop, mode: config.action.mode), state: state,
            notifier: SystemdNotifier.fromEnvironment(), watchdogInterval: SystemdNotifier.watchdogIntervalFromEnvironment(),
            sounds: sounds, adoptsOrphans: options.role.countsAttempts && Self.becomeSubreaper(),
            sessionListener: sessionListener, group: group)
    }

    /// The session socket, as the group's next part, when the run serves faces: gridlockd
    /// with `[session]`, never a replay, enrolment or benchmark.
    package static func sessionListener(
        for config: GridlockConfig, options: Daemon.Options, in group: PartGroup
    ) throws(DaemonError) -> SeqPacketListener? {
        let listener = try group.step { () throws(DaemonError) in
            config.session.enabled && options.role.guardsADoor && !options.role.playsARecording
                ? try Self.sessionListener(for: config.session) : nil
        }
        if let listener { group.add(socket: listener) }
        return listener
    }

    /// The one event loop, made first: it blocks the daemon's signals before any other
    /// thread exists.
    package static func loop() throws(DaemonError) -> EventLoop {
        do {
            return try EventLoop(signals: Daemon.handledSignals)
        } catch {
            throw .system(error)
        }
    }

    /// The state file at `path` (nil: the count in memory only), locked for `holder` first:
    /// a second gridlockd, or a replay of the file a gridlockd keeps, stops here.
    package static func state(at path: String?, for config: GridlockConfig, by holder: String) throws(DaemonError) -> StateFile {
        guard let path else { return StateFile(path: nil) }
        let lock: LockFile?
        do {
            lock = try StateLock.acquire(for: path, by: holder)
        } catch {
            throw .stateInUse(error)
        }
        return StateFile.open(path, schedule: config.lockout.schedule, patterns: config.patterns, holding: lock)
    }

    /// The session socket, its folder made if missing (0755: the socket's own mode decides).
    package static func sessionListener(for session: SessionConfig) throws(DaemonError) -> SeqPacketListener {
        let folder = String(session.socket[..<(session.socket.lastIndex(of: "/") ?? session.socket.startIndex)])
        do {
            if !folder.isEmpty { try Directory.create(folder) }
            return try SeqPacketListener(path: session.socket, mode: session.socketMode, group: session.allowGroup)
        } catch {
            throw .system(error)
        }
    }

    /// So that what a hook or an action starts in a session of its own (`setsid -f`) is
    /// handed to gridlockd when its parent ends, not to init, and can be stopped.
    package static func becomeSubreaper() -> Bool {
        do {
            try ChildProcesses.becomeSubreaper()
            return true
        } catch {
            Journal.log(.warning, "cannot adopt the orphans of hooks and actions: \(error); what one starts in a session of its own may outlive gridlockd")
            return false
        }
    }
}

/// Why the daemon could not start or had to stop.
public enum DaemonError: Error, CustomStringConvertible {
    case config(ConfigError)
    case display(String)
    case touch(String)
    case unsupported(String)
    case system(SystemCallError)
    case stateInUse(StateInUse)

    public var description: String {
        switch self {
        case .stateInUse(let error): "\(error)"
        case .config(let error): "\(error)"
        case .display(let reason): "display: \(reason)"
        case .touch(let reason): "touch: \(reason)"
        case .unsupported(let reason): reason
        case .system(let error): "\(error)"
        }
    }

    /// sysexits.h: 78 (EX_CONFIG) tells systemd's RestartPreventExitStatus= not to retry.
    public var exitStatus: Int32 {
        switch self {
        case .config, .unsupported: 78
        case .display, .touch, .system: 1
        case .stateInUse(let error): error.exitStatus
        }
    }
}

extension PartGroup {
    /// Closing the socket removes its name.
    package func add(socket listener: SeqPacketListener) { add("session socket") { listener.close() } }
}
