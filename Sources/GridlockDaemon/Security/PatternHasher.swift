import CSodium
import GridlockConfiguration

/// argon2id over the pattern message (`ROWSxCOLUMNS:1-2-3-6-9`), stored as a PHC string.
///
/// A 3x3 grid has only 389,112 valid patterns, so no cost makes a leaked hash safe
/// against an offline search (at the default cost one x86 core tries them all in
/// about four hours). The cost is there to make that search slow and expensive, not
/// impossible: the config file's mode is the real protection.
public struct PatternHasher: Sendable {
    /// The cost of a hash (`GridlockConfiguration.Argon2Cost`), where the config reads it.
    public typealias Argon2Cost = GridlockConfiguration.Argon2Cost

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

    /// Whether `hash` is a hash libsodium can verify (`Argon2idHash.isWellFormed`).
    public static func isWellFormedArgon2idHash(_ hash: String) -> Bool { Argon2idHash.isWellFormed(hash) }

    static func validate(_ cost: Argon2Cost) throws(PatternHasherError) {
        do throws(Argon2CostOutOfRange) {
            try Argon2idHash.validate(cost)
        } catch {
            throw .costOutOfRange(error.cost, minimum: error.minimum)
        }
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
