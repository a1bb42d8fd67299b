import GridlockConfiguration
import GridlockCore
import GridlockDaemon
import GridlockDevices
import GridlockDisplay
import GridlockEvdev
import GridlockInput
import LinuxSys

/// The daemon's parts with the panel drawn and read by this process: its display, its
/// touchscreen and its beeper, as `PanelDevices` makes them from the config.
extension DaemonParts {
    /// The devices, loop and supervisor `config` asks for (the rest as every run has them,
    /// `init(running:...)`). The loop comes first: it
    /// blocks the daemon's signals before any other thread exists.
    public init(config: GridlockConfig, options: Daemon.Options) throws(DaemonError) {
        let loop = try Self.loop()
        // Before any device is opened: a second gridlockd on this state stops here.
        let state = try Self.state(at: options.role.countsAttempts ? config.lockout.stateFile : nil, for: config, by: "gridlockd")
        let group = PartGroup()
        let output = try DaemonParts.output(for: config, headless: options.role.isBenchmark, clock: { [loop] in loop.now() })
        group.add(display: output)
        let touch = try group.step { () throws(DaemonError) in
            try DaemonParts.touchSource(
                for: config, frame: output.size, rotation: output.rotation, start: loop.now(),
                eventsFrom: options.role == .benchStroke ? .standardInput : nil)
        }
        group.add(touch: touch)
        let listener = try Self.sessionListener(for: config, options: options, in: group)
        let beeper = options.role.isBenchmark ? nil : PanelDevices.beeper(for: Self.beeperChoice(for: config), now: loop.now())
        self.init(
            running: config, options: options, loop: loop, state: state, screen: LockScreen.maker(output: output), touch: touch,
            sounds: Self.sounds(on: beeper, loop: loop), sessionListener: listener, group: group)
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

    /// Parts made elsewhere (a test's fakes, a replay's files): the display's screen and
    /// the beeper's sounds made as the builder's are, and all stopped as the builder's
    /// would be.
    public init(
        loop: EventLoop, output: DisplayOutput, touch: TouchSource, supervisor: ActionSupervisor,
        state: StateFile = StateFile(path: nil), clock: (() -> Instant)? = nil,
        wallClock: @escaping () -> WallTime = SystemWallClock.now,
        notifier: SystemdNotifier? = nil, watchdogInterval: Duration? = nil, beeper: BeeperSource? = nil,
        verifier: PatternVerifying? = nil,
        adoptsOrphans: Bool = false, sessionListener: SeqPacketListener? = nil, group: PartGroup? = nil
    ) {
        let stopped = group ?? {
            let group = PartGroup()
            group.add(display: output)
            group.add(touch: touch)
            if let sessionListener { group.add(socket: sessionListener) }
            return group
        }()
        self.init(
            loop: loop, screen: LockScreen.maker(output: output), touch: touch, supervisor: supervisor, state: state, clock: clock,
            wallClock: wallClock, notifier: notifier, watchdogInterval: watchdogInterval, sounds: Self.sounds(on: beeper, loop: loop),
            verifier: verifier, adoptsOrphans: adoptsOrphans, sessionListener: sessionListener, group: stopped)
    }

    /// The lock's sounds on `beeper`; none without one.
    static func sounds(on beeper: BeeperSource?, loop: EventLoop) -> (FeedbackSounds) -> (any LockSounds)? {
        { sounds in FeedbackPlayer(loop: loop, beeper: beeper, sounds: sounds) }
    }

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

extension DaemonError {
    init(_ error: PanelDeviceError) {
        switch error {
        case .display(let reason): self = .display(reason)
        case .touch(let reason): self = .touch(reason)
        case .system(let error): self = .system(error)
        }
    }
}

extension Daemon {
    /// The parts `config` asks for (real devices), as gridlockd and `gridlock enroll` run.
    public convenience init(options: Options, config: GridlockConfig) throws(DaemonError) {
        try self.init(options: options, config: config, parts: DaemonParts(config: config, options: options))
    }
}

extension GridlockConfig {
    /// The display part of `gridlock devices`: cards, connectors, modes, panel orientation,
    /// and what this config's `[display]` would light (reads /dev/dri; needs no DRM master).
    public func displayDeviceReport() -> String {
        DisplayDeviceReport.text(request: PanelDevices.kmsRequest(for: display))
    }
}
