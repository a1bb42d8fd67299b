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
/// stopped at its timeout like an action (SIGTERM, then SIGKILL, to its process group).
public final class HookSupervisor {
    /// Lines of one run's output that reach the journal; the rest is counted, not logged.
    public static let loggedLinesPerRun = 50

    private let loop: EventLoop
    private var hooks: [HookEvent: HookConfig]
    private let killGrace: Duration
    private let wallClock: () -> Int64
    private let journal: (LogPriority, String, JournalFields) -> Void
    private var running: [HookEvent: (action: RunningAction, lines: Int)] = [:]
    private var waiting: [HookEvent: HookFacts] = [:]
    private var lingering: [RunningAction] = []
    private var timeout: EventLoop.Deadline!

    public init(
        loop: EventLoop, hooks: [HookEvent: HookConfig], killGrace: Duration = .seconds(2),
        wallClock: @escaping () -> Int64 = { SystemWallClock.now().epochSeconds },
        journal: @escaping (LogPriority, String, JournalFields) -> Void = { Journal.log($0, $1, $2) }
    ) {
        self.loop = loop
        self.hooks = hooks
        self.killGrace = killGrace
        self.wallClock = wallClock
        self.journal = journal
        timeout = loop.deadline("hook timeout") { [unowned self] now in enforceTimeouts(now: now) }
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

    /// Runs the hook of `event`, if one is configured (and for `failure`, if the count has
    /// reached its `after=`).
    public func fire(_ event: HookEvent, _ facts: HookFacts = HookFacts()) {
        guard let hook = hooks[event] else { return }
        if event == .failure, (facts.failures ?? 0) < hook.after { return }
        if running[event] != nil {
            if waiting[event] == nil {
                log(.notice, event, "still running; this \(event.rawValue) is passed on when it ends")
            }
            waiting[event] = facts
            return
        }
        start(event, hook, facts)
    }

    /// SIGTERM to every hook still running (the daemon stops), SIGKILL after the grace
    /// period; the loop must run until `isQuiet`.
    public func stopAll() {
        waiting = [:]
        let now = MonotonicClock.now()
        for action in running.values.map(\.action) + lingering {
            try? action.terminate(now: now)
        }
        rearmTimeout()
    }

    private func start(_ event: HookEvent, _ hook: HookConfig, _ facts: HookFacts) {
        let now = MonotonicClock.now()
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess.spawn(argv: hook.argv, environment: facts.environment(for: event, wallTime: wallClock()))
        } catch {
            log(.error, event, "could not start \(hook.argv[0]): \(error) (set at \(hook.source))")
            return
        }
        let action = RunningAction(
            patternName: "on \(event.rawValue)", process: process,
            deadline: now + (hook.timeout ?? .seconds(86_400 * 365)), killGrace: killGrace)
        do {
            try action.watch(on: loop, as: "hook") { [unowned self] in pump(event) }
        } catch {
            log(.error, event, "cannot watch its process: \(error); stopping it")
            try? action.terminate(now: now)
            lingering.append(action)
            rearmTimeout()
            return
        }
        running[event] = (action, 0)
        log(.info, event, "started \(hook.argv[0]) (pid \(action.pid))")
        rearmTimeout()
    }

    /// SIGCHLD: on kernels without pidfds the only news that a hook ended.
    public func childExited() {
        for event in Array(running.keys) { pump(event) }
    }

    private func pump(_ event: HookEvent) {
        guard let (action, _) = running[event] else { return }
        do {
            logOutput(try action.drainOutputLines(), of: event)
            if action.outputEnded { loop.unwatch(action.outputFD) }
            guard let status = try action.reap() else { return }
            logOutput(try action.drainOutputLines(), of: event)
            let dropped = max(0, (running[event]?.lines ?? 0) - Self.loggedLinesPerRun)
            log(status == .exited(0) ? .info : .warning, event,
                "finished: \(status)" + (dropped > 0 ? " (\(dropped) more output lines not logged)" : ""),
                fields: ["GRIDLOCK_EXIT_STATUS": String(status.shellStatus)])
            if action.leftProcessesBehind { lingering.append(action) }
        } catch {
            log(.error, event, "\(error)")
        }
        action.unwatch(from: loop)
        running[event] = nil
        rearmTimeout()
        if let facts = waiting.removeValue(forKey: event), let hook = hooks[event] { start(event, hook, facts) }
    }

    private func logOutput(_ lines: [String], of event: HookEvent) {
        guard var entry = running[event] else { return }
        for line in lines {
            entry.lines += 1
            if entry.lines <= Self.loggedLinesPerRun { log(.info, event, line) }
        }
        running[event] = entry
    }

    private func enforceTimeouts(now: Instant) {
        for (event, entry) in running {
            if let outcome = try? entry.action.handleDeadline(now: now) {
                log(.warning, event, "exceeded its timeout: \(outcome == .terminated ? "SIGTERM" : "SIGKILL") sent to its process group")
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
