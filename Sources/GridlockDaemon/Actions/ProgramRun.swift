import GridlockCore
import LinuxSys

/// One program run to its end by an `ActionSupervisor` on a loop of its own, with the
/// same environment, output lines and timeout as an unlock action: for the one-shot
/// tools (`gridlock bench` starting gridlockd).
public enum ProgramRun {
    /// The exit status, or nil when the program could not start (`reports` says why).
    public static func run(
        name: String, argv: [String], timeout: Duration, onLine: @escaping (String) -> Void
    ) throws(SystemCallError) -> (status: ExitStatus?, reports: [ActionReport]) {
        let loop = try EventLoop(signals: [.child])
        let supervisor = ActionSupervisor(loop: loop, mode: .pulse)
        let collector = Collector(onLine: onLine)
        supervisor.delegate = collector
        loop.signalHandler = { _ in supervisor.childExited() }
        supervisor.begin(UnlockActionPlan(patternName: name, exec: argv, duressExec: nil, isDuress: false, timeout: timeout))
        try loop.run(until: { supervisor.isIdle })
        return (collector.status, collector.reports)
    }

    private final class Collector: ActionSupervisorDelegate {
        let onLine: (String) -> Void
        var status: ExitStatus?
        var reports: [ActionReport] = []

        init(onLine: @escaping (String) -> Void) { self.onLine = onLine }

        func handOver(to patternName: String) {}
        func takeBack() {}
        func actionsFinished() {}

        func report(_ report: ActionReport) {
            switch report {
            case .output(_, let line): onLine(line)
            case .finished(_, _, let status): self.status = status
            default: reports.append(report)
            }
        }
    }
}
