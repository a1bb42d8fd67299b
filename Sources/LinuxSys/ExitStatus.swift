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

    /// The status as a shell reports it (`$?`): the exit code, or 128 + N after signal N.
    public var shellStatus: Int {
        switch self {
        case .exited(let code): Int(code)
        case .signaled(let signal): 128 + Int(signal)
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "killed by signal \(signal) (\(Signal(rawValue: signal)))"
        }
    }
}
