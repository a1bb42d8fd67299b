/// The values one message can show: each by name (`{seconds}`), and the one that today's
/// `%d` stands for, so configs written before names existed keep their meaning.
public struct MessageValues: Hashable, Sendable {
    public let names: [String]
    /// What `%d` means in this message; nil where the message never took a number.
    public let percentD: String?

    public init(names: [String], percentD: String? = nil) {
        self.names = names
        self.percentD = percentD
    }

    public static let none = MessageValues(names: [])
    public static let tooShort = MessageValues(names: ["minimum"], percentD: "minimum")
    public static let lockedOut = MessageValues(names: ["seconds"], percentD: "seconds")
    public static let wrong = MessageValues(names: ["failures", "remaining"])
    public static let calibrate = MessageValues(names: ["step", "count"], percentD: "step")
}

/// Why a message text was refused, in words for the person editing the config.
public enum MessageTemplateProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// A `{name}` this message does not have.
    case unknownName(String, known: [String])
    /// `%d` in a message that never took a number.
    case percentDNotAllowed
    /// `%d` more than once: only the first would be filled in.
    case repeatedPercentD(count: Int)

    public var description: String {
        switch self {
        case let .unknownName(name, known) where known.isEmpty:
            "{\(name)} is not a value of this message, which shows none (write {{ for a literal brace)"
        case let .unknownName(name, known):
            "{\(name)} is not a value of this message; it knows " + known.map { "{\($0)}" }.joined(separator: ", ")
                + " (write {{ for a literal brace)"
        case .percentDNotAllowed:
            "takes no number, so it must not contain %d"
        case let .repeatedPercentD(count):
            "may contain %d at most once (only the first is filled in), found it \(count) times; named values such as {seconds} can repeat"
        }
    }
}

/// Message text with values in it: `{name}` for a named value, `{{` and `}}` for literal
/// braces, and the first `%d` for the message's traditional number. Worked on UTF-8 bytes,
/// so a combining mark after `d` or `}` can neither hide a placeholder nor join it.
/// A `{` that does not start `{name}` (`{ }`, an unclosed `{`) stays as written.
public enum MessageTemplate {
    enum Piece: Equatable {
        case text([UInt8])
        case value(String)
    }

    /// Every `{name}` and `%d` of `template` must belong to `values`.
    public static func check(_ template: String, accepts values: MessageValues) throws(MessageTemplateProblem) {
        let bytes = Array(template.utf8)
        let percentDs = bytes.indices.dropLast().filter { bytes[$0] == percent && bytes[$0 + 1] == letterD }.count
        if values.percentD == nil, percentDs > 0 { throw .percentDNotAllowed }
        if percentDs > 1 { throw .repeatedPercentD(count: percentDs) }
        for case .value(let name) in pieces(bytes, values) where !values.names.contains(name) {
            throw .unknownName(name, known: values.names)
        }
    }

    /// The text with each value written in; `value` gives the words for a name.
    public static func fill(_ template: String, _ values: MessageValues, _ value: (String) -> String) -> String {
        var out: [UInt8] = []
        for piece in pieces(Array(template.utf8), values) {
            switch piece {
            case .text(let bytes): out += bytes
            case .value(let name) where values.names.contains(name): out += Array(value(name).utf8)
            case .value(let name): out += Array("{\(name)}".utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func pieces(_ bytes: [UInt8], _ values: MessageValues) -> [Piece] {
        var pieces: [Piece] = []
        var text: [UInt8] = []
        var usedPercentD = false
        func value(_ name: String) {
            if !text.isEmpty { pieces.append(.text(text)) }
            text = []
            pieces.append(.value(name))
        }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            let next = i + 1 < bytes.count ? bytes[i + 1] : nil
            if (byte == openBrace || byte == closeBrace), next == byte {
                text.append(byte)
                i += 2
            } else if byte == percent, next == letterD, let name = values.percentD, !usedPercentD {
                usedPercentD = true
                value(name)
                i += 2
            } else if byte == openBrace, let end = bytes[(i + 1)...].firstIndex(where: { !isNameByte($0) }),
                      end > i + 1, bytes[end] == closeBrace {
                value(String(decoding: bytes[(i + 1)..<end], as: UTF8.self))
                i = end + 1
            } else {
                text.append(byte)
                i += 1
            }
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    private static let percent = UInt8(ascii: "%"), letterD = UInt8(ascii: "d")
    private static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")

    private static func isNameByte(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
            || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }
}
