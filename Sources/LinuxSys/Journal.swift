import Synchronization
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

/// What one log entry says beyond its text: a `MESSAGE_ID` naming the kind of event
/// (`journalctl MESSAGE_ID=...`) and fields a machine can filter on (`GRIDLOCK_EVENT=attempt`).
public struct JournalFields: Hashable, Sendable {
    /// 32 lowercase hex digits, as `systemd-id128 new` prints them.
    public var messageID: String?
    /// Names of uppercase letters, digits and underscores, not starting with an underscore.
    public var fields: [String: String]

    public init(messageID: String? = nil, fields: [String: String] = [:]) {
        self.messageID = messageID
        self.fields = fields
    }

    public static let none = JournalFields()
}

/// Logging. Under journald (stderr is the journal stream systemd connected) each entry is
/// sent through the journal's native protocol with its fields; anywhere else (a terminal,
/// a test, `gridlock` commands) it is one `<N>message` line on stderr, which journald would
/// also read with its priority.
///
/// The native protocol (systemd's documented, stable "Native Journal Protocol": one
/// datagram of `NAME=value` lines to /run/systemd/journal/socket) is spoken directly, as
/// sd_notify is: libsystemd would bring seven more shared libraries (libgcrypt, liblzma,
/// libzstd ...), about 2 MiB of resident mappings and a millisecond of start-up to a
/// daemon whose start-up time and memory are its targets.
public enum Journal {
    /// journald's socket for native entries.
    public static let socketPath = "/run/systemd/journal/socket"

    /// Decided once: stderr does not change under a running program.
    static let underJournald: Bool = {
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return isJournalStream(ProcessEnvironment.value("JOURNAL_STREAM"), device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }()

    /// systemd sets `JOURNAL_STREAM=DEVICE:INODE` for a service whose stderr is connected to
    /// the journal; a child that redirected stderr inherits the variable, hence the check.
    static func isJournalStream(_ variable: String?, device: UInt64, inode: UInt64) -> Bool {
        guard let parts = variable?.split(separator: ":"), parts.count == 2,
              let streamDevice = UInt64(parts[0]), let streamInode = UInt64(parts[1]) else { return false }
        return streamDevice == device && streamInode == inode
    }

    /// Control characters would forge entries or reach a terminal raw (a newline in a file
    /// name, an ESC sequence in a value): they are shown escaped, `\n`, `\r`, `\t`, `\x1b`.
    /// `keepingLines` leaves newlines and tabs alone, for text meant for a terminal that
    /// may span lines (a command's error output).
    public static func escaped(_ message: String, keepingLines: Bool = false) -> String {
        var text = ""
        text.reserveCapacity(message.utf8.count)
        for scalar in message.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingLines, 0x09 where keepingLines: text.unicodeScalars.append(scalar)
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0x00..<0x20, 0x7F, 0x80..<0xA0:
                let hex = String(scalar.value, radix: 16)
                text += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// One entry as a stderr line: `<N>`, the escaped message, a newline.
    public static func line(_ priority: LogPriority, _ message: String) -> [UInt8] {
        Array("<\(priority.rawValue)>\(escaped(message))\n".utf8)
    }

    /// The datagram: one `NAME=value` line per item. Values never hold a newline (they are
    /// escaped), so the protocol's length-prefixed binary form is never needed.
    static func datagram(_ items: [String]) -> [UInt8] {
        Array(items.map { $0 + "\n" }.joined().utf8)
    }

    /// One entry as the native protocol's `NAME=value` items, message and priority first.
    static func entry(_ priority: LogPriority, _ message: String, _ extra: JournalFields) -> [String] {
        var items = ["MESSAGE=\(escaped(message))", "PRIORITY=\(priority.rawValue)", "SYSLOG_IDENTIFIER=\(identifier)"]
        if let id = extra.messageID { items.append("MESSAGE_ID=\(id)") }
        for (name, value) in extra.fields.sorted(by: { $0.key < $1.key }) {
            items.append("\(name)=\(escaped(value))")
        }
        return items
    }

    /// The program's name, as syslog and the stderr stream would have called it.
    static let identifier: String = {
        let path = CommandLine.arguments.first ?? "gridlock"
        return path.split(separator: "/").last.map(String.init) ?? path
    }()

    /// Entries logged inside `Journal.$recorder.withValue(_:operation:)`, on that task (or
    /// thread), are also kept there: how a test reads what the code it drives told the
    /// journal, without reading another test's lines.
    @TaskLocal public static var recorder: JournalRecorder?

    /// Never throws: if the journal and stderr are both gone there is nowhere left to say so.
    /// One datagram per entry, so entries from concurrent threads never mix.
    public static func log(_ priority: LogPriority, _ message: String, _ extra: JournalFields = .none) {
        recorder?.record(priority, message, extra)
        if underJournald, (try? UnixDatagram.send(datagram(entry(priority, message, extra)), to: socketPath)) != nil {
            return
        }
        writeLine(line(priority, message))
    }

    /// A single write(2) per line so lines from concurrent threads do not interleave
    /// (atomic on a pipe up to PIPE_BUF).
    private static func writeLine(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { raw in
            retryingOnInterrupt { write(STDERR_FILENO, raw.baseAddress, raw.count) }
        }
    }
}

/// What `Journal.recorder` kept: every entry in the order it was logged.
public final class JournalRecorder: Sendable {
    public struct Entry: Hashable, Sendable {
        public var priority: LogPriority
        public var message: String
        public var fields: JournalFields
    }

    private let kept = Mutex<[Entry]>([])

    public init() {}

    public var entries: [Entry] { kept.withLock { $0 } }
    public var messages: [String] { entries.map(\.message) }

    func record(_ priority: LogPriority, _ message: String, _ fields: JournalFields) {
        kept.withLock { $0.append(Entry(priority: priority, message: message, fields: fields)) }
    }
}
