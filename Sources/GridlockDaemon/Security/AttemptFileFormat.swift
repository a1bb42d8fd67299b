import GridlockConfiguration
import GridlockCore

/// The state file's text form:
///
///     gridlock-attempts 3
///     failures=3
///     lockout=0
///     generation=1042
///     pattern door uses=12 hash=5d1c0e9a last=1764581234
///     pattern visitor uses=? hash=0b7e44f1 last=-
///     crc32=1a2b3c4d
///
/// `uses=?` is a count nobody knows (the file was damaged or lost since the pattern was
/// enrolled); `uses-lost=1` after `generation=` says the same of every pattern without a
/// line. The checksum covers every byte before the `crc32=` line. Text so an operator can
/// read it; strict so that anything but a complete file written by us is `corrupt`.
/// Versions 1 (the first three lines only, no uses) and 2 (no generation, no `uses=?`) are
/// still read: a version 1 file knows no uses, so its limited patterns stay shut, and a
/// version 2 file is generation 0.
enum AttemptFileFormat {
    static let magic = "gridlock-attempts"
    static let version = 3
    /// The most the reader takes; a larger file is not ours. What is written stays well
    /// inside it (`largestLine`, `largestHeader`): see `maximumWrittenPatterns`.
    static let maximumSize = 65_536
    /// Lines of patterns the reader takes. More than the writer ever writes: a version 2
    /// file kept every pattern ever accepted, and one that is still valid is read, so its
    /// counts are not lost, and written back with the configured patterns only.
    static let maximumPatternLines = 1_000
    /// The writer's bound: one line for each configured pattern at most. Should there ever
    /// be more, the rest are left out and `uses-lost=1` makes them unknown, never fresh.
    static let maximumWrittenPatterns = GridlockConfig.maximumPatterns
    /// Nine digits: what the lock machine saturates at.
    static let maximumFailures = AttemptState.maximumFailures
    /// Twelve digits of seconds: beyond the year 33000, a clock that is simply wrong.
    static let maximumLastAccepted: Int64 = 999_999_999_999

    /// `pattern NAME uses=N hash=XXXXXXXX last=N\n` with the longest name and numbers.
    static let largestLine = "pattern ".utf8.count + ConfigValues.maximumPatternNameLength
        + " uses=\(maximumFailures)".utf8.count + " hash=00000000".utf8.count + " last=\(maximumLastAccepted)\n".utf8.count
    /// Every other line at its longest.
    static let largestHeader = "\(magic) \(version)\n".utf8.count + "failures=\(maximumFailures)\n".utf8.count
        + "lockout=1\n".utf8.count + "generation=\(SavedState.maximumGeneration)\n".utf8.count
        + "uses-lost=1\n".utf8.count + "crc32=00000000\n".utf8.count

    static func encode(_ state: AttemptState) -> [UInt8] { encode(SavedState(attempts: state)) }

    static func encode(_ saved: SavedState) -> [UInt8] {
        let state = saved.attempts
        precondition(state.failures >= 0 && state.failures <= maximumFailures, "failure count out of range")
        let names = saved.patterns.keys.filter(ConfigValues.isPatternName).sorted()
        let generation = min(max(saved.generation, 0), SavedState.maximumGeneration)
        var text = "\(magic) \(version)\nfailures=\(state.failures)\nlockout=\(state.lockoutPending ? 1 : 0)\ngeneration=\(generation)\n"
        if saved.usesLost || names.count > maximumWrittenPatterns { text += "uses-lost=1\n" }
        for name in names.prefix(maximumWrittenPatterns) {
            let use = saved.patterns[name]!
            let count = use.count.map { String(min(max($0, 0), maximumFailures)) } ?? "?"
            let last = use.lastAccepted.map { String(min(max($0, 0), maximumLastAccepted)) } ?? "-"
            text += "pattern \(name) uses=\(count) hash=\(hex(use.hashTag)) last=\(last)\n"
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
        if fileVersion >= 3, lines.count < 5 { return .failure(Corrupt("expected at least 5 lines in version \(fileVersion), found \(lines.count)")) }

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
        if fileVersion >= 3 {
            guard let generationText = rest.first.flatMap({ value($0, key: "generation") }), let generation = decimal64(generationText) else {
                return .failure(Corrupt("malformed generation line \(quoted(rest.first ?? ""))"))
            }
            saved.generation = generation
            rest = rest.dropFirst()
        }
        // Version 1 predates uses: how often a limited pattern opened is not known.
        if fileVersion == 1 { saved.usesLost = true }
        if fileVersion >= 2, rest.first == "uses-lost=1" {
            saved.usesLost = true
            rest = rest.dropFirst()
        }
        guard rest.count <= maximumPatternLines else { return .failure(Corrupt("more than \(maximumPatternLines) patterns")) }
        var previous: String?
        for line in rest {
            guard let (name, use) = patternUse(line, unknownAllowed: fileVersion >= 3), saved.patterns[name] == nil else {
                return .failure(Corrupt("malformed pattern line \(quoted(line))"))
            }
            // In the writer's order, so that one state has one spelling.
            if let previous, name < previous { return .failure(Corrupt("pattern line out of order \(quoted(line))")) }
            previous = name
            saved.patterns[name] = use
        }
        // Version 2's uses-lost=1 meant that no count in the file was known any more.
        if fileVersion == 2, saved.usesLost { saved = saved.losingUses() }
        return .success(saved)
    }

    struct Corrupt: Error, Hashable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `pattern NAME uses=N|? hash=XXXXXXXX last=SECONDS|-`, exactly as `encode` writes it.
    private static func patternUse(_ line: String, unknownAllowed: Bool) -> (String, PatternUse)? {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.count == 5, words[0] == "pattern", ConfigValues.isPatternName(words[1]),
              let usesText = value(words[2], key: "uses"),
              let tagText = value(words[3], key: "hash"), tagText.utf8.count == 8,
              let tag = UInt32(tagText, radix: 16), hex(tag) == tagText,
              let lastText = value(words[4], key: "last")
        else { return nil }
        var count: Int? = nil
        if usesText != "?" || !unknownAllowed {
            guard let known = decimal(usesText) else { return nil }
            count = known
        }
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

    static func decimal64(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              text == "0" || !text.hasPrefix("0")
        else { return nil }
        return Int64(text)
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
        return "\"\(shown)\""
    }
}
