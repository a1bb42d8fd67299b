import CSodium

/// argon2id over the pattern message (`ROWSxCOLUMNS:1-2-3-6-9`), stored as a PHC string.
///
/// A 3x3 grid has only 389,112 valid patterns, so no cost makes a leaked hash safe
/// against an offline search (at the default cost one x86 core tries them all in
/// about four hours). The cost is there to make that search slow and expensive, not
/// impossible: the config file's mode is the real protection.
public struct PatternHasher: Sendable {
    public struct Argon2Cost: Hashable, Sendable, CustomStringConvertible {
        public var opsLimit: UInt64
        public var memoryKiB: UInt64

        public init(opsLimit: UInt64, memoryKiB: UInt64) {
            self.opsLimit = opsLimit
            self.memoryKiB = memoryKiB
        }

        /// t=2, m=32 MiB, p=1. Measured here (AMD EPYC, libsodium 1.0.18, best of 7):
        /// a verify takes 35.8 ms (t=3/32 MiB: 53.5 ms; t=2/64 MiB: 95.6 ms). argon2 on
        /// a Raspberry Pi 4's Cortex-A72 runs 4–6x slower than one such core, so about
        /// 145–215 ms there: inside the 100–300 ms budget with room for a slower SD
        /// card system or thermal throttling, and still a fast enough response to a
        /// drawn pattern. 32 MiB is affordable on the smallest (1 GB) Pi 4 and above
        /// OWASP's argon2id floor (19 MiB, t=2). Re-measure with `gridlock hash --benchmark`.
        public static let `default` = Argon2Cost(opsLimit: 2, memoryKiB: 32 * 1024)

        public var description: String { "opslimit \(opsLimit), memory \(memoryKiB) KiB" }
    }

    public init() throws(PatternHasherError) {
        // sodium_init picks the fastest implementation for this CPU and seeds the RNG
        // used for salts; 1 means "already done", which is fine.
        if sodium_init() < 0 { throw .sodiumUnavailable }
    }

    /// A fresh random salt each time, so equal patterns give different strings.
    public func hash(message: String, cost: Argon2Cost = .default) throws(PatternHasherError) -> String {
        try Self.validate(cost)
        var output = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        // withCString passes all of the UTF-8, even past an embedded NUL, because the
        // length is given explicitly.
        let result = message.withCString { chars in
            crypto_pwhash_str_alg(
                &output, chars, UInt64(message.utf8.count),
                cost.opsLimit, Int(cost.memoryKiB * 1024), crypto_pwhash_alg_argon2id13())
        }
        if result != 0 { throw .hashingFailed(cost) }
        return output.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Constant time in the message (libsodium compares the derived keys with
    /// `sodium_memcmp`). A malformed hash is simply not a match; the config loader
    /// reports it separately with `isWellFormedArgon2idHash`.
    public func verify(hash: String, message: String) -> Bool {
        guard Self.isWellFormedArgon2idHash(hash) else { return false }
        return message.withCString { chars in
            crypto_pwhash_str_verify(hash, chars, UInt64(message.utf8.count)) == 0
        }
    }

    /// `$argon2id$v=19$m=<KiB>,t=<passes>,p=1$<salt>$<hash>` as libsodium writes it,
    /// with parameters libsodium can verify. Checked before use so a typo in the config
    /// is an error at load time, not a pattern that can never match.
    public static func isWellFormedArgon2idHash(_ hash: String) -> Bool {
        guard hash.utf8.count < crypto_pwhash_strbytes(), !hash.utf8.contains(0) else { return false }
        let fields = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id", fields[2] == "v=19" else {
            return false
        }
        let parameters = fields[3].split(separator: ",", omittingEmptySubsequences: false)
        guard parameters.count == 3,
              let memory = number(parameters[0], key: "m"),
              let passes = number(parameters[1], key: "t"),
              number(parameters[2], key: "p") == 1
        else { return false }
        guard (try? validate(Argon2Cost(opsLimit: passes, memoryKiB: memory))) != nil else { return false }
        // Salt and key in unpadded standard base64: at least 8 and 16 bytes.
        return isBase64(fields[4], minimumBytes: 8) && isBase64(fields[5], minimumBytes: 16)
    }

    static func validate(_ cost: Argon2Cost) throws(PatternHasherError) {
        let memoryBytes = cost.memoryKiB.multipliedReportingOverflow(by: 1024)
        guard cost.opsLimit >= UInt64(crypto_pwhash_opslimit_min()),
              cost.opsLimit <= UInt64(crypto_pwhash_opslimit_max()),
              !memoryBytes.overflow,
              memoryBytes.partialValue >= UInt64(crypto_pwhash_memlimit_min()),
              memoryBytes.partialValue <= UInt64(crypto_pwhash_memlimit_max())
        else {
            throw .costOutOfRange(
                cost,
                minimum: Argon2Cost(
                    opsLimit: UInt64(crypto_pwhash_opslimit_min()),
                    memoryKiB: UInt64(crypto_pwhash_memlimit_min() / 1024)))
        }
    }

    private static func number(_ field: Substring, key: Character) -> UInt64? {
        guard field.count >= 3, field.first == key, field.dropFirst().first == "=" else { return nil }
        let digits = field.dropFirst(2)
        // No leading zeros: libsodium refuses them.
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count <= 19,
              digits.first != "0" || digits.count == 1
        else { return nil }
        return UInt64(digits)
    }

    private static func isBase64(_ field: Substring, minimumBytes: Int) -> Bool {
        let values = field.utf8.map { byte -> UInt8? in
            switch byte {
            case 0x41...0x5a: byte - 0x41
            case 0x61...0x7a: byte - 0x61 + 26
            case 0x30...0x39: byte - 0x30 + 52
            case UInt8(ascii: "+"): 62
            case UInt8(ascii: "/"): 63
            default: nil
            }
        }
        guard let last = values.last, values.allSatisfy({ $0 != nil }) else { return false }
        // Unpadded base64 of n bytes has ceil(4n/3) characters; one leftover character
        // can encode nothing. The bits of the last character beyond the last byte must be
        // zero, as libsodium's decoder demands (found by the argon2-hash fuzz target).
        let unusedBits: [UInt8] = [0, 0, 0x0f, 0x03]
        return field.utf8.count % 4 != 1 && last! & unusedBits[field.utf8.count % 4] == 0
            && field.utf8.count * 3 / 4 >= minimumBytes
    }
}

public enum PatternHasherError: Error, Hashable, Sendable, CustomStringConvertible {
    case sodiumUnavailable
    case costOutOfRange(PatternHasher.Argon2Cost, minimum: PatternHasher.Argon2Cost)
    case hashingFailed(PatternHasher.Argon2Cost)

    public var description: String {
        switch self {
        case .sodiumUnavailable:
            "libsodium could not be initialised (sodium_init failed)"
        case .costOutOfRange(let cost, let minimum):
            "argon2id cost out of range (\(cost)); the minimum is \(minimum)"
        case .hashingFailed(let cost):
            "argon2id hashing failed with \(cost): most likely not enough memory"
        }
    }
}
