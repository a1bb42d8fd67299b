import GridlockCore

/// The state file's text form:
///
///     gridlock-attempts 2
///     failures=3
///     lockout=0
///     pattern door uses=12 hash=5d1c0e9a last=1764581234
///     pattern visitor uses=1 hash=0b7e44f1 last=-
///     crc32=1a2b3c4d
///
/// `uses-lost=1` after `lockout=` when a damaged file took the use counts with it. The
/// checksum covers every byte before the `crc32=` line. Text so an operator can read it;
/// strict so that anything but a complete file written by us is `corrupt`. Version 1
/// (the first three lines only) is still read: its patterns have no uses yet.
enum AttemptFileFormat {
    static let magic = "gridlock-attempts"
    static let version = 2
    /// Room for a few hundred patterns; a larger file is not ours.
    static let maximumSize = 65_536
    static let maximumPatterns = 1_000
    /// Nine digits: what the lock machine saturates at.
    static let maximumFailures = AttemptState.maximumFailures

    static func encode(_ state: AttemptState) -> [UInt8] { encode(SavedState(attempts: state)) }

    static func encode(_ saved: SavedState) -> [UInt8] {
        let state = saved.attempts
        precondition(state.failures >= 0 && state.failures <= maximumFailures, "failure count out of range")
        var text = "\(magic) \(version)\nfailures=\(state.failures)\nlockout=\(state.lockoutPending ? 1 : 0)\n"
        if saved.usesLost { text += "uses-lost=1\n" }
        for name in saved.patterns.keys.sorted().prefix(maximumPatterns) {
            let use = saved.patterns[name]!
            text += "pattern \(name) uses=\(min(use.count, maximumFailures)) hash=\(hex(use.hashTag)) last=\(use.lastAccepted.map(String.init) ?? "-")\n"
        }
        let body = Array(text.utf8)
        return body + Array("crc32=\(hex(CRC32.checksum(body)))\n".utf8)
    }

    /// The state, or why the bytes are not a valid state file.
    static func decode(_ bytes: [UInt8]) -> Result<SavedState, Corrupt> {
        guard bytes.count <= maximumSize else { return .failure(Corrupt("larger than \(maximumSize) bytes")) }
        guard !bytes.isEmpty else { return .failure(Corrupt("empty")) }
        guard bytes.last == UInt8(ascii: "\n") else { return .failure(Corrupt("truncated: no final newline")) }
        let lines = bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count >= 4 else { return .failure(Corrupt("expected at least 4 lines, found \(lines.count)")) }
        let text = lines.map { String(decoding: $0, as: UTF8.self) }

        let header = text[0].split(separator: " ", omittingEmptySubsequences: false)
        guard header.count == 2, header[0] == magic else {
            return .failure(Corrupt("not a gridlock attempts file (first line \(quoted(text[0])))"))
        }
        guard let fileVersion = Int(header[1]), header[1] == "\(fileVersion)", (1...version).contains(fileVersion) else {
            return .failure(Corrupt("unsupported version \(quoted(String(header[1]))), expected 1 to \(version)"))
        }
        if fileVersion == 1, lines.count != 4 { return .failure(Corrupt("expected 4 lines in version 1, found \(lines.count)")) }

        let last = text.count - 1
        guard let storedText = value(text[last], key: "crc32"), storedText.utf8.count == 8,
              let stored = UInt32(storedText, radix: 16), storedText == hex(stored)
        else { return .failure(Corrupt("malformed checksum line \(quoted(text[last]))")) }
        let covered = bytes.count - lines[last].count - 1
        let computed = CRC32.checksum(bytes[..<covered])
        guard stored == computed else {
            return .failure(Corrupt("checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))"))
        }

        guard let failuresText = value(text[1], key: "failures"), let count = decimal64(failuresText) else {
            return .failure(Corrupt("malformed failures line \(quoted(text[1]))"))
        }
        var lockoutPending: Bool
        switch value(text[2], key: "lockout") {
        case "0": lockoutPending = false
        case "1": lockoutPending = true
        default: return .failure(Corrupt("malformed lockout line \(quoted(text[2]))"))
        }
        // More than we ever write, yet checksummed: not a count to trust, and not one to
        // let wrap. Read as the most there can be, locked out for the longest delay.
        let failures = Int(min(count, Int64(maximumFailures)))
        if count > Int64(maximumFailures) { lockoutPending = true }
        var saved = SavedState(attempts: AttemptState(failures: failures, lockoutPending: lockoutPending))
        var rest = text[3..<last]
        if rest.first == "uses-lost=1" {
            saved.usesLost = true
            rest = rest.dropFirst()
        }
        guard rest.count <= maximumPatterns else { return .failure(Corrupt("more than \(maximumPatterns) patterns")) }
        for line in rest {
            guard let (name, use) = patternUse(line), saved.patterns[name] == nil else {
                return .failure(Corrupt("malformed pattern line \(quoted(line))"))
            }
            saved.patterns[name] = use
        }
        return .success(saved)
    }

    struct Corrupt: Error, Hashable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `pattern NAME uses=N hash=XXXXXXXX last=SECONDS|-`, exactly as `encode` writes it.
    private static func patternUse(_ line: String) -> (String, PatternUse)? {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.count == 5, words[0] == "pattern", ConfigValues.isPatternName(words[1]),
              let usesText = value(words[2], key: "uses"), let count = decimal(usesText),
              let tagText = value(words[3], key: "hash"), tagText.utf8.count == 8,
              let tag = UInt32(tagText, radix: 16), hex(tag) == tagText,
              let lastText = value(words[4], key: "last")
        else { return nil }
        var last: Int64? = nil
        if lastText != "-" {
            guard lastText.utf8.count <= 12, let seconds = decimal64(lastText) else { return nil }
            last = seconds
        }
        return (words[1], PatternUse(count: count, hashTag: tag, lastAccepted: last))
    }

    private static func value(_ line: String, key: String) -> String? {
        let prefix = key + "="
        guard line.hasPrefix(prefix) else { return nil }
        return String(line.dropFirst(prefix.count))
    }

    /// Digits only: `Int("+3")` would accept a sign, and leading zeros would mean two
    /// spellings of one state.
    private static func decimal(_ text: String) -> Int? {
        guard text.utf8.count <= 9, let value = decimal64(text) else { return nil }
        return Int(value)
    }

    private static func decimal64(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              text == "0" || !text.hasPrefix("0")
        else { return nil }
        return Int64(text)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    private static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
        return "\"\(shown)\""
    }
}
