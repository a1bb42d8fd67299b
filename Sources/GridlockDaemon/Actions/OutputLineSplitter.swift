/// Turns an action's output stream into journal lines: complete lines only, a partial
/// line held until its newline (or the end), and no line longer than
/// `maximumLineBytes`, so a program printing megabytes without a newline can
/// neither grow the daemon's memory nor flood one journal entry.
public struct OutputLineSplitter: Sendable {
    public static let maximumLineBytes = 4096

    private var pending: [UInt8] = []
    /// Set after a line was cut at the cap: the rest of it, up to its newline, is dropped.
    private var discarding = false

    public init() {}

    public mutating func append(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !discarding { lines.append(Self.text(pending)) }
                pending.removeAll(keepingCapacity: true)
                discarding = false
            } else if !discarding {
                pending.append(byte)
                if pending.count == Self.maximumLineBytes {
                    lines.append(Self.text(pending))
                    pending.removeAll(keepingCapacity: true)
                    discarding = true
                }
            }
        }
        return lines
    }

    /// The held partial line, if any, once no more output will come.
    public mutating func finish() -> [String] {
        defer {
            pending.removeAll()
            discarding = false
        }
        return pending.isEmpty ? [] : [Self.text(pending)]
    }

    /// Invalid UTF-8 (including a character cut at the cap) becomes U+FFFD.
    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
