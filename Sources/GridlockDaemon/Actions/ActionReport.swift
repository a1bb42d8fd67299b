import LinuxSys

/// Something that happened to a program the lock ran: logged by the daemon, printed as
/// JSON by `gridlock replay` (the lines its documentation lists), the same either way.
public enum ActionReport: Hashable, Sendable {
    case duressUsed(pattern: String)
    case handedOver(pattern: String)
    case tookBack
    case output(pattern: String, line: String)
    /// Output left out of the journal: beyond the lines a second may log, or cut off long lines.
    case outputDropped(pattern: String, OutputLineSplitter.Dropped)
    case couldNotStart(pattern: String, duress: Bool, reason: String)
    case finished(pattern: String, duress: Bool, status: ExitStatus)
    case timedOut(pattern: String, outcome: RunningAction.DeadlineOutcome)
    case stopping(pattern: String)
    case leftProcessesBehind(pattern: String)
    case failed(pattern: String, reason: String)

    public var priority: LogPriority {
        switch self {
        case .duressUsed: .alert
        case .handedOver, .tookBack, .output: .info
        case .finished(_, _, let status): status == .exited(0) ? .info : .warning
        case .timedOut: .warning
        case .stopping, .leftProcessesBehind, .outputDropped: .notice
        case .couldNotStart, .failed: .error
        }
    }

    public var logMessage: String {
        switch self {
        case .duressUsed(let name): "duress pattern \(name) used"
        case .handedOver(let name): "handing the display and touch over to the action for pattern \(name)"
        case .tookBack: "took the display and touch back"
        case .output(let name, let line): "action \(name): \(line)"
        case .outputDropped(let name, let dropped): "action \(name): \(dropped)"
        case .couldNotStart(_, _, let reason): reason
        case .finished(let name, let duress, let status):
            "action for pattern \(name) \(duress ? "(duress) " : "")finished: \(status)"
        case .timedOut(let name, let outcome):
            "action for pattern \(name) exceeded its timeout: \(outcome == .terminated ? "SIGTERM" : "SIGKILL") sent to its process group"
        case .stopping(let name): "stopping the running action for pattern \(name)"
        case .leftProcessesBehind(let name):
            "action for pattern \(name) left processes running in its process group; they are stopped at its timeout"
        case .failed(let name, let reason): "action for pattern \(name): \(reason)"
        }
    }

    /// `gridlock replay`'s line for it; nil for what only the journal hears. Nothing
    /// about a duress program reaches the JSON: it runs silently.
    public var jsonFields: [(String, JSONValue)]? {
        switch self {
        case .output(let name, let line):
            [("event", "action-output"), ("pattern", .string(name)), ("line", .string(line))]
        case .outputDropped(let name, let dropped):
            [("event", "action-output-dropped"), ("pattern", .string(name)), ("lines", .int(dropped.lines)), ("bytes", .int(dropped.bytes))]
        case .finished(let name, false, let status):
            [("event", "action"), ("pattern", .string(name))] + Self.fields(of: status)
        case .couldNotStart(let name, false, _):
            [("event", "action"), ("pattern", .string(name)), ("status", .int(-1)), ("error", "could not start")]
        default:
            nil
        }
    }

    private static func fields(of status: ExitStatus) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("status", .int(status.shellStatus))]
        if case .signaled(let signal) = status { fields.append(("signal", .string("\(Signal(rawValue: signal))"))) }
        return fields
    }
}
