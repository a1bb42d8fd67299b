/// Whether a value written as the line `key=value` is read back by `IniReader` as exactly that
/// value: what `gridlock enroll` writes and `gridlock hash` prints must mean what was asked, and
/// an argument that holds a line break would otherwise write lines of its own (`[lockout]`,
/// `schedule=none`), one with ` ;` would lose its end to inih's inline comment rule, and one
/// with spaces at either end would lose them.
///
/// The line is run through the reader itself rather than through a copy of its rules, so a rule
/// of inih's that nobody wrote down here is caught as well; the named cases only word the reason.
public enum IniValueCheck {
    /// Why `key=value` would not read back as `value`; nil when it would.
    public static func problem(key: String, value: String) -> UnwritableValue? {
        // Judged on their own before the reader: a line break makes lines the reader would read
        // without complaint, and any other control character is invisible where people read
        // configs, or moves the cursor over what they would see.
        if let control = value.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            return .controlCharacter(control)
        }
        // Shown as nothing, or as reordered text (U+202E turns what follows around), so what a
        // person reads in the file or the journal is not what runs: never needed in a program
        // line, a schedule or a date.
        if let hidden = value.unicodeScalars.first(where: { Self.invisibleCategories.contains($0.properties.generalCategory) }) {
            return .invisibleCharacter(hidden)
        }
        // Any Unicode space at an end: the reader drops the ASCII ones and refuses the others.
        if let space = ConfigWhitespace.atEitherEnd(of: value) { return .surroundingWhitespace(space) }
        let section = "pattern check"
        let file = IniReader.parse(Array("[\(section)]\n\(key)=\(value)\n".utf8), path: "")
        let entries = file.sections.count == 1 && file.sections[0].name == section ? file.sections[0].entries : []
        if file.diagnostics.isEmpty, entries == [IniEntry(key: key, value: value, line: 2)] { return nil }
        if let diagnostic = file.diagnostics.first { return .refusedLine(diagnostic.message) }
        guard entries.count == 1, entries[0].key == key else { return .readDifferently(nil) }
        let read = entries[0].value
        if value.hasPrefix(read), ConfigWhitespace.strippedByReader(String(value.dropFirst(read.count))).hasPrefix(";") {
            return .inlineComment(readAs: read)
        }
        return .readDifferently(read)
    }

    /// Format characters (bidirectional overrides and isolates, zero-width spaces and joiners,
    /// the byte order mark, the soft hyphen) and the Unicode line and paragraph separators.
    private static let invisibleCategories: Set<Unicode.GeneralCategory> = [.format, .lineSeparator, .paragraphSeparator]
}

/// Why a value cannot be written as one config line that reads back as itself.
public enum UnwritableValue: Error, Hashable, Sendable, CustomStringConvertible {
    case controlCharacter(Unicode.Scalar)
    /// Invisible where people read configs and logs, or reorders what they read.
    case invisibleCharacter(Unicode.Scalar)
    /// A Unicode space at the start or the end (`ConfigWhitespace`).
    case surroundingWhitespace(Unicode.Scalar)
    /// ` ;` starts a comment: only `readAs` would be read.
    case inlineComment(readAs: String)
    /// The reader refuses the line (too long, say), in its words.
    case refusedLine(String)
    /// Read as something else (the value, when one was read).
    case readDifferently(String?)

    public var description: String {
        switch self {
        case .controlCharacter(let scalar):
            "holds \(Self.name(of: scalar)); a config value is one line of printable text"
                + (scalar == "\n" || scalar == "\r" ? ", and what follows a line break would be read as lines of its own" : "")
        case .invisibleCharacter(let scalar):
            "holds the invisible character \(Self.code(of: scalar)), which hides or reorders text where people read "
                + "the config and the journal; type the value without it"
        case .surroundingWhitespace(let space):
            "begins or ends with whitespace, \(ConfigWhitespace.name(of: space)), "
                + (ConfigWhitespace.isStrippedByReader(space) ? "which the config reader drops"
                    : "which nobody sees and the config reader refuses at either end of a value")
        case .inlineComment(let read):
            "holds ';' after whitespace, where the config reader starts a comment: it would read only '\(read)'; "
                + "remove the whitespace before ';'"
        case .refusedLine(let message):
            "the config reader would refuse the line: \(message)"
        case .readDifferently(let read?):
            "the config reader would read it as '\(read)'"
        case .readDifferently(nil):
            "the config reader would not read it back as one value"
        }
    }

    private static func code(of scalar: Unicode.Scalar) -> String {
        "U+" + String(repeating: "0", count: max(0, 4 - String(scalar.value, radix: 16).count))
            + String(scalar.value, radix: 16, uppercase: true)
    }

    private static func name(of scalar: Unicode.Scalar) -> String {
        let code = code(of: scalar)
        switch scalar {
        case "\n": return "a line feed (\(code))"
        case "\r": return "a carriage return (\(code))"
        case "\t": return "a tab (\(code))"
        default: return "the control character \(code)"
        }
    }
}
