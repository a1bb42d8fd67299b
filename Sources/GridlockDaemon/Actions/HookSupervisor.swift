import GridlockConfiguration
import GridlockCore
import LinuxSys

/// The facts a hook gets in its environment. Never the drawn nodes.
public struct HookFacts: Hashable, Sendable {
    public var pattern: String?
    public var failures: Int?
    public var lockoutSeconds: Int?
    /// The touch device or display concerned (tamper), or the device in use.
    public var device: String?
    /// Why a tamper hook runs: `touch-device-removed`, `display-removed`, `stuck-contact`.
    public var reason: String?

    public init(pattern: String? = nil, failures: Int? = nil, lockoutSeconds: Int? = nil, device: String? = nil, reason: String? = nil) {
        self.pattern = pattern
        self.failures = failures
        self.lockoutSeconds = lockoutSeconds
        self.device = device
        self.reason = reason
    }

    /// `GRIDLOCK_EVENT=failure GRIDLOCK_FAILURES=3 ...`, and a fixed PATH, nothing inherited.
    func environment(for event: HookEvent, wallTime: Int64) -> [String] {
        var variables = ["GRIDLOCK_EVENT=\(event.rawValue)", "GRIDLOCK_TIME=\(wallTime)", "PATH=\(ActionRunner.searchPath)"]
        if let pattern { variables.append("GRIDLOCK_PATTERN=\(pattern)") }
        if let failures { variables.append("GRIDLOCK_FAILURES=\(failures)") }
        if let lockoutSeconds { variables.append("GRIDLOCK_LOCKOUT_SECONDS=\(lockoutSeconds)") }
        if let device { variables.append("GRIDLOCK_DEVICE=\(device)") }
        if let reason { variables.append("GRIDLOCK_REASON=\(reason)") }
        return variables
    }
}

/// Runs the `[on EVENT]` programs beside the lock, never in its way: each is started and
/// left to run while the loop goes on drawing; none can open anything. At most one program
/// per event runs at a time; events that come while it runs are folded into one more run
/// with the newest facts (a hundred wrong tries are not a hundred processes). Each is
/// stopped at its timeout like an action (SIGTERM, then SIGKILL, to its process group),
/// and all of them when the daemon stops, whatever their timeout; `[on stop]` then runs
/// for at most `stopBudget`.
public final class HookSupervisor {
    /// Lines of one run's output that reach the journal; the rest is counted, not logged.
    public static let loggedLinesPerRun = 50
    /// How long a stopping gridlockd lets `[on stop]` run, whatever its `timeout=` (0
    /// included): enough for a message to a broker or a webhook on a slow network, short
    /// enough that a restart is not held up (then SIGTERM, and SIGKILL after the grace).
    public static let stopBudget: Duration = .seconds(5)

    /// Why a run's deadline is what it is, named in the journal when it passes.
    private enum Limit: Equatable {
        case timeout
        /// `timeout=0` where a limit is still needed (`untimedLimit`, a replay).
        case untimed(Duration)
        case stopBudget
        case daemonStopping

        func passed(_ outcome: RunningAction.DeadlineOutcome) -> String {
            let signal = outcome == .terminated ? "SIGTERM" : "SIGKILL"
            switch self {
            case .timeout: return "exceeded its timeout: \(signal) sent to its process group"
            case .untimed(let limit):
                return "ran past the \(limit.components.seconds) s a replay gives a hook with timeout=0: \(signal) sent to its process group"
            case .stopBudget:
                return "ran past the \(HookSupervisor.stopBudget.components.seconds) s a stopping gridlockd gives it: \(signal) sent to its process group"
            case .daemonStopping: return "gridlockd is stopping: \(signal) sent to its process group"
            }
        }
    }

    private let loop: EventLoop
    private var hooks: [HookEvent: HookConfig]
    private let killGrace: Duration
    private let clock: () -> Instant
    private let wallClock: () -> Int64
    private let journal: (LogPriority, String, JournalFields) -> Void
    private var running: [HookEvent: (action: RunningAction, limit: Limit)] = [:]
    private var waiting: [HookEvent: HookFacts] = [:]
    private var lingering: [RunningAction] = []
    private var stopping = false
    private var timeout: EventLoop.Deadline!
    /// How long a hook with `timeout=0` may run; nil: as long as it likes (gridlockd).
    /// `gridlock replay` sets one, so that a replay always ends.
    public var untimedLimit: Duration?

    /// `clock` is CLOCK_MONOTONIC, the clock of the loop's deadlines (a test may give
    /// instants the loop never reaches, and call `handleDeadlines` itself).
    public init(
        loop: EventLoop, hooks: [HookEvent: HookConfig], killGrace: Duration = RunningAction.defaultKillGrace,
        clock: (() -> Instant)? = nil,
        wallClock: @escaping () -> Int64 = { SystemWallClock.now().epochSeconds },
        journal: @escaping (LogPriority, String, JournalFields) -> Void = { Journal.log($0, $1, $2) }
    ) {
        self.loop = loop
        self.hooks = hooks
        self.killGrace = killGrace
        self.clock = clock ?? { [loop] in loop.now() }
        self.wallClock = wallClock
        self.journal = journal
        timeout = loop.deadline("hook timeout", clock: .real) { [unowned self] now in handleDeadlines(now: now) }
    }

    /// A reloaded configuration: runs in flight finish under the old one.
    public func update(_ hooks: [HookEvent: HookConfig]) {
        self.hooks = hooks
        waiting = waiting.filter { hooks[$0.key] != nil }
    }

    /// Nothing runs, nothing waits, nothing a hook left behind is still to be stopped.
    public var isQuiet: Bool {
        lingering.removeAll { $0.nextDeadline == nil }
        return running.isEmpty && waiting.isEmpty && lingering.isEmpty
    }

    /// The process groups it still answers for: each running hook's, and those of ended
    /// ones whose leftovers wait for their timeout.
    public var processGroups: [OwnedProcessGroup] {
        (running.values.map(\.action) + lingering.filter { $0.nextDeadline != nil }).map(\.processGroup)
    }

    /// When the loop next calls `handleDeadlines`, if anything is due at all.
    var nextDeadline: Instant? { timeout.due }

    /// Runs the hook of `event`, if one is configured (and for `failure`, if the count has
    /// reached its `after=`). Once the daemon stops, nothing more starts.
    public func fire(_ event: HookEvent, _ facts: HookFacts = HookFacts()) {
        guard !stopping, let hook = hooks[event] else { return }
        if event == .failure, (facts.failures ?? 0) < hook.after { return }
        if running[event] != nil {
            if waiting[event] == nil {
                log(.notice, event, "still running; this \(event.rawValue) is passed on when it ends")
            }
            waiting[event] = facts
            return
        }
        start(event, hook, facts, limit: .timeout)
    }

    /// The daemon stops: every hook still running, and what ended ones left in their
    /// groups, gets SIGTERM now, whatever its timeout (SIGKILL after the grace); nothing
    /// waiting runs. Then `[on stop]` starts with `stopFacts`, for at most `stopBudget`
    /// (or its `timeout=`, if shorter). The loop must run until `isQuiet`.
    public func stopAll(runningStopHookWith stopFacts: HookFacts? = nil) {
        stopping = true
        waiting = [:]
        let now = clock()
        for (event, entry) in running {
            do {
                guard try entry.action.terminate(now: now) else { continue }
                log(.notice, event, Limit.daemonStopping.passed(.terminated))
                running[event]?.limit = .daemonStopping
            } catch {
                log(.error, event, "\(error)")
            }
        }
        for action in lingering { _ = try? action.terminate(now: now) }
        if let stopFacts, let hook = hooks[.stop], running[.stop] == nil {
            start(.stop, hook, stopFacts, limit: hook.timeout.map { $0 <= Self.stopBudget } == true ? .timeout : .stopBudget)
        }
        rearmTimeout()
    }

    private func start(_ event: HookEvent, _ hook: HookConfig, _ facts: HookFacts, limit: Limit) {
        let now = clock()
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess.spawn(argv: hook.argv, environment: facts.environment(for: event, wallTime: wallClock()))
        } catch {
            log(.error, event, "could not start \(hook.argv[0]): \(error) (set at \(hook.source))")
            return
        }
        var limit = limit
        if limit == .timeout, hook.timeout == nil, let untimedLimit { limit = .untimed(untimedLimit) }
        let allowed: Duration =
            switch limit {
            case .stopBudget: Self.stopBudget
            case .untimed(let cap): cap
            case .timeout, .daemonStopping: hook.timeout ?? .seconds(86_400 * 365)
            }
        let action = RunningAction(
            patternName: "on \(event.rawValue)", process: process, deadline: now + allowed, killGrace: killGrace,
            outputBudget: .perRun(Self.loggedLinesPerRun))
        do {
            try action.watch(on: loop, as: "hook") { [unowned self] in pump(event) }
        } catch {
            log(.error, event, "cannot watch its process: \(error); stopping it")
            _ = try? action.terminate(now: now)
            lingering.append(action)
            rearmTimeout()
            return
        }
        running[event] = (action, limit)
        log(.info, event, "started \(hook.argv[0]) (pid \(action.pid))")
        rearmTimeout()
    }

    /// SIGCHLD: on kernels without pidfds the only news that a hook ended.
    public func childExited() {
        for event in Array(running.keys) { pump(event) }
    }

    /// Output (one slice per call) and exit of a running hook.
    private func pump(_ event: HookEvent) {
        guard let (action, _) = running[event] else { return }
        do {
            logOutput(try action.readOutput(now: clock()), of: event)
            if action.outputEnded { loop.unwatch(action.outputFD) }
            guard let status = try action.reap() else { return }
            action.unwatchExit(from: loop)
            guard action.outputSettled else { return }
            logOutput(action.finishOutput(now: clock()), of: event)
            log(status == .exited(0) ? .info : .warning, event, "finished: \(status)",
                fields: ["GRIDLOCK_EXIT_STATUS": String(status.shellStatus)])
            if action.leftProcessesBehind { lingering.append(action) }
        } catch {
            log(.error, event, "\(error)")
        }
        action.unwatch(from: loop)
        running[event] = nil
        rearmTimeout()
        if let facts = waiting.removeValue(forKey: event), let hook = hooks[event] { start(event, hook, facts, limit: .timeout) }
    }

    private func logOutput(_ pieces: [OutputLineSplitter.Piece], of event: HookEvent) {
        for piece in pieces {
            switch piece {
            case .line(let line): log(.info, event, line)
            case .dropped(let dropped): log(.notice, event, "\(dropped)")
            }
        }
    }

    /// The loop's `hook timeout` deadline: each run whose deadline has passed escalates.
    func handleDeadlines(now: Instant) {
        for (event, entry) in running {
            do {
                if let outcome = try entry.action.handleDeadline(now: now) {
                    log(.warning, event, entry.limit.passed(outcome))
                }
            } catch {
                log(.error, event, "\(error)")
            }
        }
        for action in lingering { _ = try? action.handleDeadline(now: now) }
        rearmTimeout()
    }

    private func rearmTimeout() {
        lingering.removeAll { $0.nextDeadline == nil }
        timeout.due = (running.values.map(\.action) + lingering).compactMap(\.nextDeadline).min()
    }

    private func log(_ priority: LogPriority, _ event: HookEvent, _ message: String, fields: [String: String] = [:]) {
        journal(
            priority, "hook [on \(event.rawValue)]: \(message)",
            JournalFields(messageID: JournalCatalog.hook, fields: ["GRIDLOCK_EVENT": "hook", "GRIDLOCK_HOOK": event.rawValue].merging(fields) { $1 }))
    }
}
