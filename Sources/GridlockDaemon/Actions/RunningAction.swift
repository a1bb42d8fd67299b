import GridlockCore
import LinuxSys

/// One program in flight. `ActionSupervisor` owns the waiting: it watches `outputFD` and
/// `exitFD` on the loop, calls `handleDeadline(now:)` at `nextDeadline` and `reap()`
/// when the process may have ended.
public final class RunningAction {
    public enum DeadlineOutcome: Hashable, Sendable {
        /// The timeout passed: SIGTERM went to the process group.
        case terminated
        /// The group outlived the grace period after SIGTERM: SIGKILL went to it.
        case killed
    }

    public let patternName: String
    /// When the action times out.
    public let deadline: Instant
    public let killGrace: Duration

    private let process: SpawnedProcess
    private var splitter = OutputLineSplitter()
    private var killAt: Instant?
    private var killed = false

    init(patternName: String, process: SpawnedProcess, deadline: Instant, killGrace: Duration) {
        self.patternName = patternName
        self.process = process
        self.deadline = deadline
        self.killGrace = killGrace
    }

    public var pid: Int32 { process.pid }
    /// Merged stdout and stderr, non-blocking. Remove it from the poller once
    /// `outputEnded`: at EOF it stays readable.
    public var outputFD: FileDescriptor { process.outputFD }
    public var outputEnded: Bool { process.outputEnded }
    /// Readable once the action's process has exited (nil before Linux 5.3: use SIGCHLD).
    public var exitFD: FileDescriptor? { process.exitFD }
    public var exitStatus: ExitStatus? { process.exitStatus }

    /// When the loop must next call `handleDeadline`; nil once SIGKILL has been sent, or
    /// once the action has been reaped and left nothing running in its group (the group's
    /// id may then be reused).
    public var nextDeadline: Instant? {
        if killed || (exitStatus != nil && !leftProcessesBehind) { return nil }
        return killAt ?? deadline
    }

    /// The program ended but processes it started still run in its group: they are
    /// stopped at its deadline like the program itself would have been.
    /// After SIGKILL to the group nothing in it runs any more (a zombie waiting for init
    /// to reap it still counts as a member, but it is no leftover).
    public var leftProcessesBehind: Bool { exitStatus != nil && !killed && process.groupHasMembers }

    /// Escalates if a deadline has passed: SIGTERM to the group at `deadline`, then
    /// SIGKILL `killGrace` later. Nil when nothing was due (an early or stale wakeup).
    @discardableResult
    public func handleDeadline(now: Instant) throws(SystemCallError) -> DeadlineOutcome? {
        guard let due = nextDeadline, now >= due else { return nil }
        if killAt == nil {
            try process.signalGroup(.terminate)
            killAt = now + killGrace
            return .terminated
        }
        try process.signalGroup(.kill)
        killed = true
        return .killed
    }

    /// Stops it now rather than at its timeout (the daemon is stopping): SIGTERM to the
    /// group, and SIGKILL `killGrace` later if it is still there.
    public func terminate(now: Instant) throws(SystemCallError) {
        guard !killed, killAt == nil, exitStatus == nil || leftProcessesBehind else { return }
        try process.signalGroup(.terminate)
        killAt = now + killGrace
    }

    /// Complete lines available now. The held partial line is released at EOF, or once
    /// the action has been reaped and nothing more is waiting in the pipe.
    public func drainOutputLines() throws(SystemCallError) -> [String] {
        var lines = splitter.append(try process.readAvailableOutput())
        if process.outputEnded || exitStatus != nil { lines += splitter.finish() }
        return lines
    }

    /// The exit status once the action's process has ended; nil while it runs.
    @discardableResult
    public func reap() throws(SystemCallError) -> ExitStatus? {
        try process.tryWait()
    }

    /// Watches its output and its exit (pidfd, where the kernel has them) on `loop`, both
    /// handled by `handler` and counted as `<cause> output` and `<cause> exit`. If the
    /// second cannot be watched, the first is not left watched either.
    func watch(on loop: EventLoop, as cause: String, _ handler: @escaping () -> Void) throws(SystemCallError) {
        try loop.watch(outputFD, as: "\(cause) output", handler)
        guard let exitFD else { return }
        do {
            try loop.watch(exitFD, as: "\(cause) exit", handler)
        } catch {
            loop.unwatch(outputFD)
            throw error
        }
    }

    func unwatch(from loop: EventLoop) {
        loop.unwatch(outputFD)
        if let exitFD { loop.unwatch(exitFD) }
    }

    /// For the loop's own policy, e.g. stopping what a finished action left behind.
    public func signalGroup(_ signal: Signal) throws(SystemCallError) {
        try process.signalGroup(signal)
    }
}
