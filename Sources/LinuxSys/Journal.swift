import Glibc

/// syslog priorities, which journald reads from a `<N>` prefix on each stderr line
/// (SyslogLevelPrefix=yes, the default).
public enum LogPriority: Int32, Sendable, CaseIterable {
    case emergency = 0
    case alert = 1
    case critical = 2
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7
}

/// Logging to stderr, where systemd connects the journal.
public enum Journal {
    /// One event is one journal entry: embedded newlines would otherwise split it
    /// into several entries, the later ones without a priority.
    public static func line(_ priority: LogPriority, _ message: String) -> [UInt8] {
        var bytes = Array("<\(priority.rawValue)>".utf8)
        bytes.reserveCapacity(bytes.count + message.utf8.count + 1)
        for byte in message.utf8 {
            switch byte {
            case UInt8(ascii: "\n"): bytes.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: "\\r".utf8)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// A single write(2) per line so lines from concurrent threads do not interleave
    /// (atomic on a pipe up to PIPE_BUF). Logging never throws: if stderr is gone there
    /// is nowhere left to report that.
    public static func log(_ priority: LogPriority, _ message: String) {
        let bytes = line(priority, message)
        _ = bytes.withUnsafeBytes { raw in
            retryingOnInterrupt { write(STDERR_FILENO, raw.baseAddress, raw.count) }
        }
    }
}
