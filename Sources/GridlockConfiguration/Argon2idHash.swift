import CSodium

/// The argon2id cost of a pattern's hash (`[security] argon2-ops=`, `argon2-mem=`).
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

/// A cost libsodium cannot use, and the least it can.
public struct Argon2CostOutOfRange: Error, Hashable, Sendable {
    public let cost: Argon2Cost
    public let minimum: Argon2Cost
}

/// The form of a stored hash, judged as the config is read (libsodium's limits, no hashing).
public enum Argon2idHash {
    /// `$argon2id$v=19$m=<KiB>,t=<passes>,p=1$<salt>$<hash>` as libsodium writes it,
    /// with parameters libsodium can verify. Checked before use so a typo in the config
    /// is an error at load time, not a pattern that can never match.
    public static func isWellFormed(_ hash: String) -> Bool {
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

    /// Within libsodium's limits, or the error says the minimum.
    public static func validate(_ cost: Argon2Cost) throws(Argon2CostOutOfRange) {
        let memoryBytes = cost.memoryKiB.multipliedReportingOverflow(by: 1024)
        guard cost.opsLimit >= UInt64(crypto_pwhash_opslimit_min()),
              cost.opsLimit <= UInt64(crypto_pwhash_opslimit_max()),
              !memoryBytes.overflow,
              memoryBytes.partialValue >= UInt64(crypto_pwhash_memlimit_min()),
              memoryBytes.partialValue <= UInt64(crypto_pwhash_memlimit_max())
        else {
            throw Argon2CostOutOfRange(
                cost: cost,
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
