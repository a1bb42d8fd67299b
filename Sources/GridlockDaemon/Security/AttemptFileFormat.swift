import GridlockCore

/// The attempt state file's text form:
///
///     gridlock-attempts 1
///     failures=3
///     lockout=0
///     crc32=1a2b3c4d
///
/// The checksum covers every byte before the `crc32=` line. Text so an operator can
/// read it; strict so that anything but a complete file written by us is `corrupt`.
enum AttemptFileFormat {
    static let magic = "gridlock-attempts"
    static let version = 1
    /// Far above any file we write; a larger file is not ours.
    static let maximumSize = 256
    /// Nine digits: what the lock machine saturates at.
    static let maximumFailures = AttemptState.maximumFailures

    static func encode(_ state: AttemptState) -> [UInt8] {
        precondition(state.failures >= 0 && state.failures <= maximumFailures, "failure count out of range")
        let body = Array("\(magic) \(version)\nfailures=\(state.failures)\nlockout=\(state.lockoutPending ? 1 : 0)\n".utf8)
        return body + Array("crc32=\(hex(CRC32.checksum(body)))\n".utf8)
    }

    /// The state, or why the bytes are not a valid state file.
    static func decode(_ bytes: [UInt8]) -> Result<AttemptState, Corrupt> {
        guard bytes.count <= maximumSize else { return .failure(Corrupt("larger than \(maximumSize) bytes")) }
        guard !bytes.isEmpty else { return .failure(Corrupt("empty")) }
        guard bytes.last == UInt8(ascii: "\n") else { return .failure(Corrupt("truncated: no final newline")) }
        let lines = bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count == 4 else { return .failure(Corrupt("expected 4 lines, found \(lines.count)")) }
        let text = lines.map { String(decoding: $0, as: UTF8.self) }

        let header = text[0].split(separator: " ", omittingEmptySubsequences: false)
        guard header.count == 2, header[0] == magic else {
            return .failure(Corrupt("not a gridlock attempts file (first line \(quoted(text[0])))"))
        }
        guard header[1] == "\(version)" else {
            return .failure(Corrupt("unsupported version \(quoted(String(header[1]))), expected \(version)"))
        }

        guard let storedText = value(text[3], key: "crc32"), storedText.utf8.count == 8,
              let stored = UInt32(storedText, radix: 16), storedText == hex(stored)
        else { return .failure(Corrupt("malformed checksum line \(quoted(text[3]))")) }
        let covered = bytes.count - lines[3].count - 1
        let computed = CRC32.checksum(bytes[..<covered])
        guard stored == computed else {
            return .failure(Corrupt("checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))"))
        }

        guard let failuresText = value(text[1], key: "failures"), let failures = decimal(failuresText) else {
            return .failure(Corrupt("malformed failures line \(quoted(text[1]))"))
        }
        let lockoutPending: Bool
        switch value(text[2], key: "lockout") {
        case "0": lockoutPending = false
        case "1": lockoutPending = true
        default: return .failure(Corrupt("malformed lockout line \(quoted(text[2]))"))
        }
        return .success(AttemptState(failures: failures, lockoutPending: lockoutPending))
    }

    struct Corrupt: Error, Hashable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func value(_ line: String, key: String) -> String? {
        let prefix = key + "="
        guard line.hasPrefix(prefix) else { return nil }
        return String(line.dropFirst(prefix.count))
    }

    /// Digits only: `Int("+3")` would accept a sign, and leading zeros would mean two
    /// spellings of one state.
    private static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              text == "0" || !text.hasPrefix("0")
        else { return nil }
        return Int(text)
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
