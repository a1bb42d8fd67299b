import GridlockCore
import LinuxSys

/// One program in flight. `ActionSupervisor` owns the waiting: it watches `outputFD` and
/// `exitFD` on the loop, calls `handleDeadline(now:)` at `nextDeadline` and `reap()`
/// when the process may have ended.
public final class RunningAction {
    /// SIGTERM to SIGKILL, for actions and hooks alike, at a timeout and when the daemon stops.
    public static let defaultKillGrace: Duration = .seconds(2)
    /// The most output one `readOutput` takes from the pipe before the loop turns.
    public static let outputSliceBytes = 4096
    /// What is read after the program ended, before its end is reported: what the pipe
    /// held then (its default size). A process it left behind that keeps writing is not
    /// waited for; what it leaves unread is counted as dropped.
    public static let outputAfterExitBytes = SpawnedProcess.pipeCapacity

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
    private var splitter: OutputLineSplitter
    private var bytesAfterExit = 0
    private var killAt: Instant?
    private var killed = false

    init(
        patternName: String, process: SpawnedProcess, deadline: Instant, killGrace: Duration,
        outputBudget: OutputLineSplitter.Budget = .unlimited
    ) {
        self.patternName = patternName
        self.process = process
        self.deadline = deadline
        self.killGrace = killGrace
        splitter = OutputLineSplitter(budget: outputBudget)
    }

    public var pid: Int32 { process.pid }

    /// Its process group (led by it), for whoever must know which groups are answered for.
    public var processGroup: OwnedProcessGroup { OwnedProcessGroup(id: pid, nextDeadline: nextDeadline) }
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
    /// After SIGKILL to the group nothing in it runs any more (a zombie waiting for its
    /// reaper, init or gridlockd as child subreaper, still counts as a member, but it is
    /// no leftover).
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
    /// group, and SIGKILL `killGrace` later if it is still there. False when that was
    /// under way already, or nothing is left to stop.
    @discardableResult
    public func terminate(now: Instant) throws(SystemCallError) -> Bool {
        guard !killed, killAt == nil, exitStatus == nil || leftProcessesBehind else { return false }
        try process.signalGroup(.terminate)
        killAt = now + killGrace
        return true
    }

    /// One slice of output (at most `outputSliceBytes`) as what the journal gets of it.
    /// Call it each time `outputFD` is readable: more waiting keeps it readable.
    public func readOutput(now: Instant) throws(SystemCallError) -> [OutputLineSplitter.Piece] {
        let bytes = try process.readOutput(maximumBytes: Self.outputSliceBytes)
        if exitStatus != nil { bytesAfterExit += bytes.count }
        return splitter.append(bytes, at: now)
    }

    /// Nothing more is to be read before the end is reported: the pipe is at EOF, or the
    /// program was reaped and the pipe holds nothing more (or all the program could have
    /// left in it has been read). Until then the loop comes back through `outputFD`.
    public var outputSettled: Bool {
        if process.outputEnded { return true }
        guard exitStatus != nil else { return false }
        return bytesAfterExit >= Self.outputAfterExitBytes || process.outputWaiting == 0
    }

    /// The held partial line and the count of what was left out, once `outputSettled`.
    public func finishOutput(now: Instant) -> [OutputLineSplitter.Piece] {
        splitter.finish(at: now, unreadBytes: process.outputWaiting)
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
        unwatchExit(from: loop)
    }

    /// Once reaped: the pidfd stays readable, and the output brings the loop back alone.
    func unwatchExit(from loop: EventLoop) {
        if let exitFD { loop.unwatch(exitFD) }
    }

    /// For the loop's own policy, e.g. stopping what a finished action left behind.
    public func signalGroup(_ signal: Signal) throws(SystemCallError) {
        try process.signalGroup(signal)
    }
}

/// A process group a supervisor answers for, and when it next acts on it (the program's
/// timeout, or SIGKILL after the grace); nil once nothing more is due.
public struct OwnedProcessGroup: Hashable, Sendable {
    public var id: Int32
    public var nextDeadline: Instant?

    public init(id: Int32, nextDeadline: Instant?) {
        self.id = id
        self.nextDeadline = nextDeadline
    }
}
