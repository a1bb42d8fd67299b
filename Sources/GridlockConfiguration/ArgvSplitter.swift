/// Turns an `exec=` value into an argv the way systemd reads `ExecStart=` (systemd.syntax
/// "Quoting"), minus every kind of expansion: the action is spawned without a shell, and a
/// config that looked like it ran `$(id)` must not quietly run something else.
///
/// Rules: unquoted whitespace separates words; `'...'` and `"..."` group, may sit inside a word
/// (`a"b c"` is `ab c`) and `""` is an empty word; a backslash escapes `\\ \" \' \n \t \s`
/// (space), inside quotes too, as systemd's C-style unescaping does.
public enum ArgvSplitter {
    public static func split(_ text: String) throws(ArgvError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character? = nil
        var iterator = text.makeIterator()
        while let c = iterator.next() {
            if c == "\\" {
                guard let escaped = iterator.next() else { throw .trailingBackslash }
                switch escaped {
                case "\\", "\"", "'": word.append(escaped)
                case "n": word.append("\n")
                case "t": word.append("\t")
                case "s": word.append(" ")
                default: throw .unknownEscape(escaped)
                }
                inWord = true
            } else if let open = quote {
                if c == open { quote = nil } else { word.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " || c == "\t" || c == "\n" || c == "\r" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(c)
                inWord = true
            }
        }
        if let open = quote { throw .unbalancedQuote(open) }
        if inWord { words.append(word) }
        guard let program = words.first else { throw .empty }
        guard program.hasPrefix("/") else { throw .relativeProgram(program) }
        return words
    }
}

public enum ArgvError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case trailingBackslash
    case unknownEscape(Character)
    case unbalancedQuote(Character)
    case relativeProgram(String)

    public var description: String {
        switch self {
        case .empty:
            "no command; leave the key out to run nothing"
        case .trailingBackslash:
            "ends with a backslash that escapes nothing"
        case .unknownEscape(let c):
            "unknown escape '\\\(c)'; use \\\\ \\\" \\' \\n \\t or \\s"
        case .unbalancedQuote(let q):
            "a \(q) quote is never closed"
        case .relativeProgram(let program):
            "the program must be an absolute path (as systemd requires), not '\(program)'"
        }
    }
}
