/// How a child ended, decoded from a wait status.
public enum ExitStatus: Hashable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    /// Decodes a `waitpid` status: the kernel puts the terminating signal in the low 7
    /// bits (0 for a normal exit) and the exit code in the next byte. Returns nil for a
    /// stopped or continued child, which this daemon never asks to be told about.
    public init?(waitStatus status: Int32) {
        let signal = status & 0x7f
        if signal == 0 {
            self = .exited((status >> 8) & 0xff)
        } else if signal != 0x7f && status != 0xffff {
            self = .signaled(signal)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "killed by signal \(signal) (\(signalName(signal)))"
        }
    }
}

/// Names for the signals an action is likely to die of; journals are read by people.
public func signalName(_ signal: Int32) -> String {
    switch signal {
    case 1: "SIGHUP"
    case 2: "SIGINT"
    case 3: "SIGQUIT"
    case 4: "SIGILL"
    case 6: "SIGABRT"
    case 7: "SIGBUS"
    case 8: "SIGFPE"
    case 9: "SIGKILL"
    case 10: "SIGUSR1"
    case 11: "SIGSEGV"
    case 12: "SIGUSR2"
    case 13: "SIGPIPE"
    case 14: "SIGALRM"
    case 15: "SIGTERM"
    case 17: "SIGCHLD"
    default: "signal \(signal)"
    }
}
