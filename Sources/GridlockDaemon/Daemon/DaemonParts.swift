import GridlockConfiguration
import GridlockCore
import GridlockDevices
import GridlockDisplay
import GridlockInput
import GridlockEvdev
import LinuxSys
import Synchronization

/// What a `Daemon` is made of. `DaemonParts(config:options:)` builds them as the config
/// says (gridlockd, `gridlock enroll`, the benchmark), `DaemonParts(recording:)` for a
/// replay; a test builds them from fakes. Either way `group` holds them in the order they
/// started, and the daemon adds its own: a failed start and the stop both end them there.
public struct DaemonParts {
    public var loop: EventLoop
    public var output: DisplayOutput
    public var touch: TouchSource
    public var supervisor: ActionSupervisor
    /// The failures and pattern uses to start with, and the file that keeps them.
    public var state: StateFile
    public var clock: () -> Instant
    /// Local time and whether it is synchronised, for patterns with a schedule.
    public var wallClock: () -> WallTime
    public var notifier: SystemdNotifier?
    public var watchdogInterval: Duration?
    /// `[feedback] beeper=`; nil: silent.
    public var beeper: BeeperSource?
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

    public init(
        loop: EventLoop, output: DisplayOutput, touch: TouchSource, supervisor: ActionSupervisor,
        state: StateFile = StateFile(path: nil), clock: (() -> Instant)? = nil,
        wallClock: @escaping () -> WallTime = SystemWallClock.now,
        notifier: SystemdNotifier? = nil, watchdogInterval: Duration? = nil, beeper: BeeperSource? = nil,
        verifier: PatternVerifying? = nil,
        adoptsOrphans: Bool = false, sessionListener: SeqPacketListener? = nil, group: PartGroup? = nil
    ) {
        self.loop = loop
        self.output = output
        self.touch = touch
        self.supervisor = supervisor
        self.state = state
        // The loop's clock, unless a test scripts another: one time for every part.
        self.clock = clock ?? { [loop] in loop.time }
        self.wallClock = wallClock
        self.notifier = notifier
        self.watchdogInterval = watchdogInterval
        self.beeper = beeper
        self.verifier = verifier
        self.adoptsOrphans = adoptsOrphans
        self.sessionListener = sessionListener
        if let group {
            self.group = group
        } else {
            // Parts made elsewhere (a test's fakes) are stopped as the builder's would be.
            self.group = PartGroup()
            self.group.add(display: output)
            self.group.add(touch: touch)
            if let sessionListener { self.group.add(socket: sessionListener) }
        }
    }

    /// The devices, loop and supervisor `config` asks for. The loop comes first: it
    /// blocks the daemon's signals before any other thread exists.
    public init(config: GridlockConfig, options: Daemon.Options) throws(DaemonError) {
        let loop = try Self.loop()
        let counting = options.role.countsAttempts
        // Before any device is opened: a second gridlockd on this state stops here.
        let state = try Self.state(at: counting ? config.lockout.stateFile : nil, for: config, by: "gridlockd")
        let group = PartGroup()
        let output = try DaemonParts.output(for: config, headless: options.role.isBenchmark, clock: { [loop] in loop.now() })
        group.add(display: output)
        let touch = try group.step { () throws(DaemonError) in
            try DaemonParts.touchSource(
                for: config, frame: output.size, rotation: output.rotation, start: loop.now(),
                eventsFrom: options.role == .benchStroke ? .standardInput : nil)
        }
        group.add(touch: touch)
        let listener = try group.step { () throws(DaemonError) in
            config.session.enabled && options.role.guardsADoor && !options.role.playsARecording
                ? try Self.sessionListener(for: config.session) : nil
        }
        if let listener { group.add(socket: listener) }
        self.init(
            loop: loop, output: output, touch: touch,
            supervisor: ActionSupervisor(loop: loop, mode: config.action.mode),
            state: state,
            notifier: SystemdNotifier.fromEnvironment(),
            watchdogInterval: SystemdNotifier.watchdogIntervalFromEnvironment(),
            beeper: options.role.isBenchmark ? nil : PanelDevices.beeper(for: Self.beeperChoice(for: config), now: loop.now()),
            adoptsOrphans: counting && Self.becomeSubreaper(), sessionListener: listener, group: group)
    }

    /// The beeper gridlockd opens: none with `auto` when it is the verifier alone (no
    /// display, no touchscreen): the panel's face holds the panel and plays its sounds, and
    /// gridlockd opens no input device. A path named is opened all the same (a buzzer wired
    /// to the door's side, root's by choice).
    public static func beeperChoice(for config: GridlockConfig) -> BeeperChoice {
        guard config.feedback.beeper == .auto, config.display.backend == .off, config.touch.backend == .off else {
            return config.feedback.beeper
        }
        Journal.log(.info, "beeper: none here: as the verifier alone ([display] and [touch] backend=none) gridlockd leaves the sounds to the panel's face; [feedback] beeper=PATH opens one here")
        return .off
    }

    /// The one event loop, made first: it blocks the daemon's signals before any other
    /// thread exists.
    static func loop() throws(DaemonError) -> EventLoop {
        do {
            return try EventLoop(signals: Daemon.handledSignals)
        } catch {
            throw .system(error)
        }
    }

    /// The state file at `path` (nil: the count in memory only), locked for `holder` first:
    /// a second gridlockd, or a replay of the file a gridlockd keeps, stops here.
    static func state(at path: String?, for config: GridlockConfig, by holder: String) throws(DaemonError) -> StateFile {
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
    static func sessionListener(for session: SessionConfig) throws(DaemonError) -> SeqPacketListener {
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
    static func becomeSubreaper() -> Bool {
        do {
            try ChildProcesses.becomeSubreaper()
            return true
        } catch {
            Journal.log(.warning, "cannot adopt the orphans of hooks and actions: \(error); what one starts in a session of its own may outlive gridlockd")
            return false
        }
    }
}

/// The panel's devices, as `PanelDevices` makes them from the config.
extension DaemonParts {
    static func output(for config: GridlockConfig, headless: Bool, clock: @escaping () -> Instant) throws(DaemonError) -> DisplayOutput {
        do throws(PanelDeviceError) {
            return try PanelDevices.output(for: config.display, headless: headless, clock: clock)
        } catch {
            throw DaemonError(error)
        }
    }

    static func touchSource(
        for config: GridlockConfig, frame: Size, rotation: Rotation, start: Instant, eventsFrom: FileDescriptor? = nil
    ) throws(DaemonError) -> TouchSource {
        do throws(PanelDeviceError) {
            return try PanelDevices.touchSource(for: config.touch, frame: frame, rotation: rotation, start: start, eventsFrom: eventsFrom)
        } catch {
            throw DaemonError(error)
        }
    }

    public static let recordingLimit = RecordingFile.limit

    public static func loadRecording(_ path: String) throws(DaemonError) -> EvemuRecording {
        do throws(PanelDeviceError) {
            return try PanelDevices.loadRecording(path)
        } catch {
            throw DaemonError(error)
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

    init(_ error: PanelDeviceError) {
        switch error {
        case .display(let reason): self = .display(reason)
        case .touch(let reason): self = .touch(reason)
        case .system(let error): self = .system(error)
        }
    }

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

extension GridlockConfig {
    /// The display part of `gridlock devices`: cards, connectors, modes, panel orientation,
    /// and what this config's `[display]` would light (reads /dev/dri; needs no DRM master).
    public func displayDeviceReport() -> String {
        DisplayDeviceReport.text(request: PanelDevices.kmsRequest(for: display))
    }
}

extension PartGroup {
    /// Closing the socket removes its name.
    func add(socket listener: SeqPacketListener) { add("session socket") { listener.close() } }
}
