import Glibc  // SIGCHLD only
import LinuxSys

extension RunningAction {
    /// Waits for the action to end, passing each output line to `onLine`, enforcing its
    /// timeout. For the one-shot tools (`gridlock replay`, `demo`); the daemon never blocks
    /// and drives the same `RunningAction` from its poll loop instead.
    ///
    /// The wait sleeps in the kernel on the output, the process's pidfd and, for kernels
    /// without pidfds, `childSignals` (a signalfd for SIGCHLD blocked by the caller).
    public func waitForExit(
        childSignals: SignalFD, onLine: (String) -> Void, onDeadline: (DeadlineOutcome) -> Void = { _ in }
    ) throws(SystemCallError) -> ExitStatus {
        let poller = try EventPoller(capacity: 4)
        let outputToken = 1, childToken = 2, exitToken = 3
        try poller.add(outputFD, token: outputToken)
        try poller.add(childSignals.fileDescriptor, token: childToken)
        if let exitFD { try poller.add(exitFD, token: exitToken) }
        var watchingOutput = true
        while true {
            for line in try drainOutputLines() { onLine(line) }
            if watchingOutput, outputEnded {
                try poller.remove(outputFD)
                watchingOutput = false
            }
            if let status = try reap() {
                // What is already in the pipe is shown; a grandchild keeping it open is not waited for.
                for line in try drainOutputLines() { onLine(line) }
                return status
            }
            let now = MonotonicClock.now()
            var timeout: Int32? = nil
            if let due = nextDeadline {
                timeout = Int32(clamping: max(0, (due - now + 999_999) / 1_000_000))
            }
            let ready = try poller.wait(timeoutMilliseconds: timeout)
            if ready.contains(where: { $0.token == childToken }) { _ = try childSignals.readSignals() }
            if let outcome = try handleDeadline(now: MonotonicClock.now()) { onDeadline(outcome) }
        }
    }
}

/// SIGCHLD, blocked and delivered through a signalfd, for the tools that wait for actions.
public func makeChildSignalFD() throws(SystemCallError) -> SignalFD {
    try SignalFD(signals: [SIGCHLD])
}
