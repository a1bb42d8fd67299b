import Glibc  // signal numbers only; LinuxSys makes the calls
import GridlockCore
import LinuxSys

/// One unlock action in flight. The poll loop owns the waiting: it watches `outputFD`,
/// arms its timer for `nextDeadline` and calls `handleDeadline(now:)` when it fires,
/// and calls `reap()` on SIGCHLD. Times are CLOCK_MONOTONIC nanoseconds.
public final class RunningAction {
    public enum DeadlineOutcome: Hashable, Sendable {
        /// The timeout passed: SIGTERM went to the process group.
        case terminated
        /// The group outlived the grace period after SIGTERM: SIGKILL went to it.
        case killed
    }

    public let patternName: String
    /// When the action times out.
    public let deadline: Int64
    public let killGrace: Duration

    private let process: SpawnedProcess
    private var splitter = OutputLineSplitter()
    private var killAt: Int64?
    private var killed = false

    init(patternName: String, process: SpawnedProcess, deadline: Int64, killGrace: Duration) {
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

    /// When the loop must next call `handleDeadline`; nil once the action has been
    /// reaped (its group may be gone and its id reusable) or SIGKILL has been sent.
    public var nextDeadline: Int64? {
        if exitStatus != nil || killed { return nil }
        return killAt ?? deadline
    }

    /// Escalates if a deadline has passed: SIGTERM to the group at `deadline`, then
    /// SIGKILL `killGrace` later. Nil when nothing was due (an early or stale wakeup).
    @discardableResult
    public func handleDeadline(now: Int64) throws(SystemCallError) -> DeadlineOutcome? {
        guard let due = nextDeadline, now >= due else { return nil }
        if killAt == nil {
            try process.signalGroup(SIGTERM)
            killAt = now &+ killGrace.nanoseconds
            return .terminated
        }
        try process.signalGroup(SIGKILL)
        killed = true
        return .killed
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

    /// For the loop's own policy, e.g. stopping what a finished action left behind.
    public func signalGroup(_ signal: Int32) throws(SystemCallError) {
        try process.signalGroup(signal)
    }
}
