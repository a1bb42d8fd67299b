import GridlockCore
import GridlockDisplay
import GridlockInput
import LinuxSys

/// `gridlock replay`: the daemon's service on a recording, in virtual time.
///
/// Time comes from the recording's own timestamps; timers (error display, lockout
/// countdown) fire at their virtual deadlines between events, and after the last event
/// the remaining ones run out instantly. Verification and actions are real (argon2 against
/// the config's hashes, the configured programs run by the daemon's `ActionSupervisor`)
/// but take no virtual time. The state file is neither read nor written: a replay always
/// starts with no failures.
public final class ReplayRunner: LockShell {
    public struct Options {
        public var config: GridlockConfig
        /// Read as they are played: a recording from a file needs no memory of its length.
        public var events: RecordedEvents
        /// Write every presented frame here as PNG (nil: render only).
        public var framesDirectory: String?
        /// Receives each JSON line.
        public var emit: (String) -> Void
        /// Receives each presented scene.
        public var onPresent: ((Scene) -> Void)?
        /// Receives every outcome, as the daemon's `observe` does.
        public var observe: ((Daemon.Outcome) -> Void)?
        /// The wall clock schedules are judged by: the system's, as the daemon's (a test
        /// sets its own).
        public var wallClock: () -> WallTime = SystemWallClock.now

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

    private let options: Options
    private let matcher: PatternMatcher
    /// The daemon's schedules and uses; uses are counted in memory, from none.
    private let gate: PatternGate
    /// Real time, for the actions only: they are real programs.
    private let loop: EventLoop
    private let supervisor: ActionSupervisor
    private var service: LockService!
    private var pipeline: TouchPipeline
    private var pending: [LockEvent] = []
    private var deadline: Instant?
    private var now: Instant
    private var origin: Instant
    public private(set) var output: DisplayOutput

    public init(_ options: Options) throws(ReplayError) {
        self.options = options
        let config = options.config
        let frame = config.display.logicalFrame
        do {
            pipeline = try TouchPipeline(
                device: options.events.device, calibration: config.touch.calibration ?? .identity,
                rotation: config.display.rotation, frame: frame)
        } catch {
            throw .input("\(error)")
        }
        do {
            matcher = PatternMatcher(config: config, hasher: try PatternHasher())
            gate = PatternGate(config: config, state: StateFile(path: nil), wallClock: options.wallClock)
            loop = try EventLoop(signals: [.child])
        } catch {
            throw .setup("\(error)")
        }
        supervisor = ActionSupervisor(loop: loop, mode: config.action.mode)
        let rotation = config.display.rotation
        output = options.framesDirectory.map { PNGOutput(size: frame, directory: $0, rotation: rotation) }
            ?? NullOutput(size: frame, rotation: rotation)
        origin = .zero
        now = origin
        let renderer: SceneRenderer
        do {
            renderer = try SceneRenderer(size: frame, theme: config.theme)
        } catch {
            throw .setup("\(error)")
        }
        let machine = LockMachine(layout: config.gridLayout(frame: frame), settings: config.lockSettings)
        service = LockService(machine: machine, renderer: renderer, output: output, stateFile: nil)
        service.onPresent = options.onPresent
        service.shell = self
        supervisor.delegate = self
        loop.signalHandler = { [unowned self] _ in supervisor.childExited() }
    }

    /// Plays the whole recording and lets every pending timer run out. A line of the
    /// recording that cannot be read ends the replay with its `FILE:LINE`.
    public func run() throws(RecordingError) {
        let first = try options.events.next()
        origin = first?.time ?? .zero
        now = origin
        service.start(at: now)
        drain()
        var next = first
        while let event = next {
            try play(event)
            next = try options.events.next()
        }
        finish()
    }

    private func play(_ event: InputEvent) throws(RecordingError) {
        runTimers(until: event.time)
        now = max(now, event.time)
        pipeline.feed(event) { touch, time in
            service.handle(.touch(touch), at: max(now, time))
            drain()
        }
    }

    private func finish() {
        runTimers(until: nil)
        // Nothing a replay started may outlive it, not even what an action left behind.
        supervisor.stopAll()
        do {
            try loop.run(until: { supervisor.isQuiet })
        } catch {
            Journal.log(.critical, "event loop: \(error)")
        }
    }

    public var machine: LockMachine { service.machine }

    /// Fires due deadlines in order; nil runs until none is left. A machine that kept
    /// re-arming forever would be a bug, so the count is bounded.
    private func runTimers(until limit: Instant?) {
        var fired = 0
        while let due = deadline, limit.map({ due <= $0 }) ?? true, fired < 1_000_000 {
            now = max(now, due)
            deadline = nil
            service.handle(.timerFired, at: now)
            drain()
            fired += 1
        }
    }

    private func drain() {
        while !pending.isEmpty {
            let event = pending.removeFirst()
            service.handle(event, at: now)
        }
    }

    private func emit(_ fields: [(String, JSONValue)]) {
        let seconds = Double(now.nanoseconds - origin.nanoseconds) / 1e9
        options.emit(JSONValue.object(fields + [("time", .double(seconds, decimals: 3))]))
    }

    // MARK: LockShell

    public func beginVerification(of pattern: Pattern) {
        pending.append(gate.admit(matcher.match(pattern)))
    }

    /// The actions run in real time while virtual time stands still.
    public func beginAction(for patternName: String) {
        supervisor.begin(options.config.actionPlan(for: patternName))
        do {
            try loop.run(until: { supervisor.isIdle })
        } catch {
            Journal.log(.critical, "event loop: \(error)")
        }
    }

    public func setDeadline(_ deadline: Instant?) { self.deadline = deadline }

    public func report(_ report: LockReport, at time: Instant) {
        emit(report.jsonFields)
        options.observe?(.lock(report))
    }
}

extension ReplayRunner: ActionSupervisorDelegate {
    /// A replay has no panel to hand over.
    public func handOver(to patternName: String) {}
    public func takeBack() {}

    public func actionsFinished() { pending.append(.actionFinished) }

    /// The JSON lines `gridlock replay` documents; warnings and worse (a duress
    /// pattern, a timeout, a program that cannot start) also go to the journal.
    public func report(_ report: ActionReport) {
        if let fields = report.jsonFields { emit(fields) }
        if report.priority.rawValue <= LogPriority.warning.rawValue { Journal.log(report.priority, report.logMessage, report.journalFields) }
        options.observe?(.action(report))
    }
}

public enum ReplayError: Error, CustomStringConvertible {
    case input(String)
    case setup(String)

    public var description: String {
        switch self {
        case .input(let reason): "cannot replay this recording: \(reason)"
        case .setup(let reason): reason
        }
    }
}
