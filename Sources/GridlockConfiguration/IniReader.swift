import CInih
import LinuxSys

/// One `key=value` line.
package struct IniEntry: Hashable, Sendable {
    package var key: String
    package var value: String
    package var line: Int

    package init(key: String, value: String, line: Int) {
        self.key = key
        self.value = value
        self.line = line
    }
}

/// A `[section]` header and the entries under it, until the next header.
package struct IniSection: Hashable, Sendable {
    /// Exactly the text between the brackets: inih would cut it at 49 bytes, this does not.
    package var name: String
    package var line: Int
    package var entries: [IniEntry]

    package init(name: String, line: Int, entries: [IniEntry]) {
        self.name = name
        self.line = line
        self.entries = entries
    }
}

/// One config file as inih reads it, plus every problem found at the level of lines.
package struct IniFile: Sendable {
    package var path: String
    /// What was read, to tell later whether the file still holds it (`ConfigVerdict`).
    package var content: FileContentDigest?
    package var sections: [IniSection] = []
    package var diagnostics: [ConfigDiagnostic] = []

    package init(path: String, content: FileContentDigest? = nil, sections: [IniSection] = [], diagnostics: [ConfigDiagnostic] = []) {
        self.path = path
        self.content = content
        self.sections = sections
        self.diagnostics = diagnostics
    }
}

/// The adapter around libinih: the only code of the config loader that talks to C.
///
/// libinih (Debian's build) passes no line numbers to the handler and reads lines into a
/// 200-byte stack buffer, splitting longer ones silently. So the file is read here, handed to
/// `ini_parse_stream` one line per reader call, and the handler takes the number of the line the
/// reader returned last. inih calls the handler only for keys, so headers, comments and broken
/// lines are sorted out here from the raw lines afterwards, following inih's own rules.
package enum IniReader {
    /// A config is a few kilobytes; a file this large is a mistake (or an attack), not a config.
    package static let maximumFileBytes = 1 << 20

    package static func read(path: String) -> IniFile {
        var file = IniFile(path: path)
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.regularFileContents(of: path, limit: maximumFileBytes)
        } catch {
            file.diagnostics.append(ConfigDiagnostic(file: path, line: 0, message: "cannot read: \(error.reason)"))
            return file
        }
        return parse(bytes, path: path)
    }

    /// `bytes` read as the file `path`: what `read` does after reading, and how a line about to
    /// be written is read back before it is (`IniValueCheck`).
    package static func parse(_ bytes: [UInt8], path: String) -> IniFile {
        var file = IniFile(path: path)
        file.content = FileContentDigest(bytes)
        let lines = splitLines(bytes)
        let state = ParseState(lines: lines)
        let result = withExtendedLifetime(state) {
            ini_parse_stream(readLine, Unmanaged.passUnretained(state).toOpaque(), takeEntry, Unmanaged.passUnretained(state).toOpaque())
        }
        classify(lines: lines, state: state, inihResult: Int(result), into: &file)
        file.diagnostics.sort { $0.location.line < $1.location.line }
        return file
    }

    /// Lines without their terminator (`\n`, or `\r\n` from a Windows editor), a leading UTF-8 BOM dropped.
    package static func splitLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var lines = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : Array(line)
        }
        if body.last == UInt8(ascii: "\n") || body.isEmpty { lines.removeLast() }
        return lines
    }

    private final class ParseState {
        package let lines: [[UInt8]]
        package var next = 0
        /// The `num` inih passed: its line buffer, terminator and NUL included.
        package var bufferSize = Int(INI_MAX_LINE)
        package var tooLong: Set<Int> = []
        package var withNul: Set<Int> = []
        package var entries: [Int: (key: String, value: String)] = [:]

        package init(lines: [[UInt8]]) { self.lines = lines }
    }

    private static let readLine: ini_reader = { buffer, size, stream in
        let state = Unmanaged<ParseState>.fromOpaque(stream!).takeUnretainedValue()
        guard let buffer, size > 1, state.next < state.lines.count else { return nil }
        state.next += 1
        state.bufferSize = Int(size)
        var payload = state.lines[state.next - 1]
        // Hand inih a blank line instead, so its line count stays right and it never sees half a line.
        if payload.count + 2 > Int(size) {
            state.tooLong.insert(state.next)
            payload = []
        } else if payload.contains(0) {
            state.withNul.insert(state.next)
            payload = []
        }
        payload.append(UInt8(ascii: "\n"))
        payload.append(0)
        payload.withUnsafeBytes { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: source.count)
        }
        return buffer
    }

    private static let takeEntry: ini_handler = { user, _, name, value in
        let state = Unmanaged<ParseState>.fromOpaque(user!).takeUnretainedValue()
        state.entries[state.next] = (
            name.map { String(cString: $0) } ?? "",
            value.map { String(cString: $0) } ?? ""
        )
        return 1
    }

    /// Walks the raw lines the way inih did: a line that produced an entry is a key (or an indented
    /// continuation of the previous key), a bracketed line is a header, blank and `;`/`#` lines are
    /// comments, and anything else is what inih counted as an error.
    private static func classify(lines: [[UInt8]], state: ParseState, inihResult: Int, into file: inout IniFile) {
        func report(_ line: Int, _ message: String) {
            file.diagnostics.append(ConfigDiagnostic(file: file.path, line: line, message: message))
        }
        let longest = state.bufferSize - 2
        var previousKey: String? = nil
        var reported: Set<Int> = []
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            if state.tooLong.contains(number) {
                report(number, "line longer than \(longest) characters (bytes); shorten it")
                reported.insert(number)
                continue
            }
            if state.withNul.contains(number) {
                report(number, "line contains a NUL byte")
                reported.insert(number)
                continue
            }
            if String(validating: raw, as: UTF8.self) == nil {
                report(number, "line is not valid UTF-8")
            }
            let text = trimmed(raw)
            if let (key, value) = state.entries[number] {
                if let previous = previousKey, !previous.isEmpty, raw.first.map(isSpace) == true {
                    report(
                        number,
                        "indented line continues the value of '\(previous)' (inih joins indented lines); "
                            + "remove the indentation, values must fit on one line")
                    continue
                }
                previousKey = key
                // inih strips the ASCII spaces; any other kept at an end is there unseen.
                if let space = ConfigWhitespace.atEitherEnd(of: value) {
                    let end = value.unicodeScalars.first == space ? "begins" : "ends"
                    report(number, "the value of '\(key)' \(end) with \(ConfigWhitespace.name(of: space)), which would be kept in it unseen; remove it")
                    continue
                }
                if key.isEmpty {
                    report(number, "missing key name before '='")
                } else if file.sections.isEmpty {
                    report(number, "'\(key)' comes before any [section] header")
                } else {
                    file.sections[file.sections.count - 1].entries.append(IniEntry(key: key, value: value, line: number))
                }
                continue
            }
            if text.isEmpty || text.first == UInt8(ascii: ";") || text.first == UInt8(ascii: "#") { continue }
            if text.first == UInt8(ascii: "["), let name = headerName(text) {
                file.sections.append(IniSection(name: String(decoding: name, as: UTF8.self), line: number, entries: []))
                previousKey = nil
                continue
            }
            reported.insert(number)
            if text.first == UInt8(ascii: "[") {
                report(number, "section header without a closing ']'")
            } else {
                report(number, "expected 'key=value', a [section] header, or a comment starting with ';' or '#'")
            }
        }
        // inih's verdict is the reference: a line it rejected that the walk above took as fine
        // means the two disagree, and the line is reported rather than trusted.
        if inihResult > 0, !reported.contains(inihResult) {
            report(inihResult, "syntax error (inih rejected this line)")
        } else if inihResult < 0 {
            report(0, "inih could not parse the file (error \(inihResult))")
        }
    }

    /// The text between `[` and `]`, with inih's rule that `;` after whitespace starts a comment
    /// even inside the brackets.
    private static func headerName(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var wasSpace = false
        for i in text.indices.dropFirst() {
            let c = text[i]
            if c == UInt8(ascii: "]") { return text[text.index(after: text.startIndex)..<i] }
            if wasSpace && c == UInt8(ascii: ";") { return nil }
            wasSpace = isSpace(c)
        }
        return nil
    }

    private static func isSpace(_ c: UInt8) -> Bool { ConfigWhitespace.isStrippedByReader(byte: c) }

    private static func trimmed(_ raw: [UInt8]) -> ArraySlice<UInt8> {
        var slice = raw[...]
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }
}
