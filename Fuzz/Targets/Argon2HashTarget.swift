import CSodium
import GridlockDaemon

extension FuzzTargets {
    /// The `[pattern] hash=` value: the config accepts exactly what `PatternHasher`'s PHC
    /// check (`isWellFormedArgon2idHash`, which `verify` relies on) accepts, and each of
    /// those must be a string libsodium itself can read, or its pattern could never match.
    /// Asked with `crypto_pwhash_str_needs_rehash`, which parses without hashing anything.
    static let argon2Hash = FuzzTarget(
        name: "argon2-hash",
        summary: "the PHC check of `hash=` values against libsodium's own parser: a hash we accept, libsodium can verify against",
        maximumLength: 256,
        run: { bytes throws(FuzzFinding) in
            let text = String(decoding: bytes, as: UTF8.self)
            let configAccepts = FuzzSeams.configHash(text) != nil
            let wellFormed = PatternHasher.isWellFormedArgon2idHash(text)
            try require(configAccepts == wellFormed, configAccepts
                ? "the config accepts \(quoted(text.utf8)), which verify would never match"
                : "the config refuses the well-formed hash \(quoted(text.utf8))")
            guard wellFormed else { return }
            let parsed = text.withCString { crypto_pwhash_str_needs_rehash($0, 1, 8192) }
            try require(parsed != -1, "\(quoted(text.utf8)) passes the PHC check, but libsodium cannot read it")
        },
        seeds: { _ in
            [
                ("default-cost", "$argon2id$v=19$m=32768,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"),
                ("cheap", "$argon2id$v=19$m=8,t=1,p=1$YWJjZGVmZ2hpams$MDEyMzQ1Njc4OWFiY2RlZmdoaWprbG1ub3BxcnN0dXY"),
                ("argon2i", "$argon2i$v=19$m=4096,t=3,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"),
                ("garbage", "$argon2id$garbage"), ("two-lanes", "$argon2id$v=19$m=65536,t=2,p=2$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"),
            ].map { name, text in FuzzSeed(name, text: text) }
        })
}
