import GridlockConfiguration
import GridlockCore
import GridlockDaemon
import GridlockDisplay
import GridlockInput
import LinuxSys

/// `gridlock replay`: gridlockd on a recording. The same `Daemon`, wired the same way,
/// with the recording as its touch device and the recording's own time as its clock:
/// the loop plays that time (`EventLoop.playRecordedTime`), so the timers of the lock
/// screen (error display, lockout countdown) fire at their moments between events and
/// run out at once after the last, while the spacing of the events is kept.
///
/// Verification, actions and `[on EVENT]` hooks are real: argon2 against the config's
/// hashes on the verifier's thread, the configured programs as processes with the
/// daemon's environment and limits. A check and an action take none of the recording's
/// time (it stands still until they are done); a hook does not hold it, and before the
/// replay ends it waits for every hook still running, each bounded by its `timeout`,
/// with `timeout=0` taken as `untimedHookLimit`, so a replay always ends.
///
/// What differs from gridlockd: no display and no touch device of the config (frames go
/// to `framesDirectory` or nowhere), no beeper, no systemd, no adopted orphans, and the
/// state file only when `statePath` names one (else a replay starts with no failures
/// and no uses, and keeps none).
public final class ReplayRunner {
    public struct Options {
        public var config: GridlockConfig
        /// The config's file, for a reload on SIGHUP as gridlockd does ("" for none).
        public var configPath = ""
        /// Read as they are played: a recording from a file needs no memory of its length.
        public var events: RecordedEvents
        /// Write every presented frame here as PNG (nil: render only).
        public var framesDirectory: String?
        /// The state file to read and write, as gridlockd would (nil: none).
        public var statePath: String?
        /// Receives each JSON line.
        public var emit: (String) -> Void
        /// Receives each presented scene.
        public var onPresent: ((Scene) -> Void)?
        /// Receives every outcome, as the daemon's `observe` does.
        public var observe: ((Daemon.Outcome) -> Void)?
        /// The wall clock schedules are judged by: the system's, as the daemon's (a test
        /// sets its own).
        public var wallClock: () -> WallTime = SystemWallClock.now
        /// How long a hook with `timeout=0` may run before the replay stops it.
        public var untimedHookLimit: Duration = ReplayRunner.untimedHookLimit

        public init(config: GridlockConfig, events: RecordedEvents, framesDirectory: String?, emit: @escaping (String) -> Void) {
            self.config = config
            self.events = events
            self.framesDirectory = framesDirectory
            self.emit = emit
        }

        public init(config: GridlockConfig, recording: EvemuRecording, framesDirectory: String?, emit: @escaping (String) -> Void) {
            self.init(config: config, events: RecordedEventList(recording), framesDirectory: framesDirectory, emit: emit)
        }
    }

    /// What a hook with `timeout=0` may take in a replay, unless the options say otherwise.
    public static let untimedHookLimit: Duration = .seconds(30)

    private let options: Options
    private let daemon: Daemon
    private let touch: RecordingTouchSource
    private let origin: Instant
    public let output: DisplayOutput

    public init(_ options: Options) throws(ReplayError) {
        self.options = options
        let parts: DaemonParts
        let output: DisplayOutput
        do {
            (parts, touch, output) = try DaemonParts.recording(options)
            daemon = try Daemon(
                options: Daemon.Options(configPath: options.configPath, role: .replay(untimedHookLimit: options.untimedHookLimit)),
                config: options.config, parts: parts)
        } catch {
            switch error {
            case .stateInUse(let inUse): throw .stateInUse(inUse)
            // Its one failure here names the device and the reason.
            case .touch(let reason): throw .input(reason)
            default: throw .setup("\(error)")
            }
        }
        origin = touch.startTime
        self.output = output
        daemon.screen.onPresent = options.onPresent
        daemon.observe = { [unowned self] outcome in handle(outcome) }
    }

    /// Plays the whole recording, lets every pending timer run out and waits for what it
    /// started. A line of the recording that cannot be read ends the replay with its
    /// `FILE:LINE` once the rest has ended.
    public func run() throws(RecordingError) {
        _ = daemon.run()
        if let failure = touch.failure { throw failure }
    }

    public var machine: LockMachine { daemon.service.machine }

    private func handle(_ outcome: Daemon.Outcome) {
        switch outcome {
        case .lock(let report): emit(report.jsonFields)
        case .action(let report): if let fields = report.jsonFields { emit(fields) }
        case .measured: break
        }
        options.observe?(outcome)
    }

    private func emit(_ fields: [(String, JSONValue)]) {
        let seconds = Double(daemon.loop.time.nanoseconds - origin.nanoseconds) / 1e9
        options.emit(JSONValue.object(fields + [("time", .double(seconds, decimals: 3))]))
    }
}

public enum ReplayError: Error, CustomStringConvertible {
    case input(String)
    case setup(String)
    case stateInUse(StateInUse)

    public var description: String {
        switch self {
        case .stateInUse(let error):
            "\(error); replay a copy of it instead (cp \(error.stateFile) /tmp/attempts; gridlock replay --state /tmp/attempts ...)"
        case .input(let reason): "cannot replay this recording: \(reason)"
        case .setup(let reason): reason
        }
    }
}

extension ReplayError: FailureStatus {
    /// 75 (EX_TEMPFAIL) for a state file another process holds; 1 otherwise.
    public var exitStatus: Int32 {
        if case .stateInUse(let error) = self { return error.exitStatus }
        return 1
    }
}
