import CSodium
@testable import GridlockConfiguration
@testable import GridlockDaemon
import Testing

@Suite struct PatternHasherTests {
    /// The minimum cost keeps these tests fast; the default cost is exercised once.
    let cheap = PatternHasher.Argon2Cost(opsLimit: 1, memoryKiB: 8)

    @Test("hash is an argon 2 id PHC string with the requested cost") func hashIsAnArgon2idPHCStringWithTheRequestedCost() throws {
        let hasher = try PatternHasher()
        let hash = try hasher.hash(message: "3x3:1-2-3-6-9", cost: PatternHasher.Argon2Cost(opsLimit: 3, memoryKiB: 1024))
        #expect(hash.hasPrefix("$argon2id$v=19$m=1024,t=3,p=1$"))
        #expect(PatternHasher.isWellFormedArgon2idHash(hash))
    }

    @Test("verify accepts the message and rejects others") func verifyAcceptsTheMessageAndRejectsOthers() throws {
        let hasher = try PatternHasher()
        let hash = try hasher.hash(message: "3x3:1-2-3-6-9", cost: cheap)
        #expect(hasher.verify(hash: hash, message: "3x3:1-2-3-6-9"))
        #expect(!hasher.verify(hash: hash, message: "3x3:1-2-3-6"))
        #expect(!hasher.verify(hash: hash, message: "4x4:1-2-3-6-9"))
        #expect(!hasher.verify(hash: hash, message: ""))
    }

    @Test("default cost round trips") func defaultCostRoundTrips() throws {
        let hasher = try PatternHasher()
        let hash = try hasher.hash(message: "3x3:7-5-3", cost: .default)
        #expect(hash.hasPrefix("$argon2id$v=19$m=32768,t=2,p=1$"))
        #expect(hasher.verify(hash: hash, message: "3x3:7-5-3"))
    }

    @Test("salt makes equal patterns hash differently") func saltMakesEqualPatternsHashDifferently() throws {
        let hasher = try PatternHasher()
        #expect(try hasher.hash(message: "3x3:1-5-9", cost: cheap) != hasher.hash(message: "3x3:1-5-9", cost: cheap))
    }

    @Test("embedded nul is part of the message") func embeddedNulIsPartOfTheMessage() throws {
        let hasher = try PatternHasher()
        let hash = try hasher.hash(message: "a\u{0}b", cost: cheap)
        #expect(hasher.verify(hash: hash, message: "a\u{0}b"))
        #expect(!hasher.verify(hash: hash, message: "a"))
    }

    @Test("malformed hashes are rejected", arguments: [
        "",
        "not a hash",
        "$argon2i$v=19$m=8,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=16$m=8,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=8,t=1,p=2$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=8,t=0,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=4,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=+8,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$t=1,m=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=8,t=1,p=1$c2Fs$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaA",
        "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHRz*Wx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA$",
        "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHRzYWx0",
    ])
    func malformedHashesAreRejected(hash: String) throws {
        #expect(!PatternHasher.isWellFormedArgon2idHash(hash))
        #expect(try !PatternHasher().verify(hash: hash, message: "3x3:1-2-3"))
    }

    /// Found by the argon2-hash fuzz target (Tests/Fixtures/fuzz-regressions/argon2-hash): the
    /// last character of the key (`Y`) carries bits beyond its 28 bytes, which libsodium's
    /// decoder refuses, so the hash could never match; the same key ending in `Q` is fine.
    @Test("base 64 with bits beyond the last byte is malformed") func base64WithBitsBeyondTheLastByteIsMalformed() {
        let prefix = "$argon2id$v=19$m=8,t=1,p=1$YWJjZGVmZ2hpams$MDEyMzQ1WFiY2RlZmdoaWprbG1ub3BxcnN0dX"
        for (last, libsodiumReadsIt) in [("Y", false), ("Q", true)] {
            let hash = prefix + last
            #expect(PatternHasher.isWellFormedArgon2idHash(hash) == libsodiumReadsIt, "\(hash)")
            #expect((crypto_pwhash_str_needs_rehash(hash, 1, 8192) != -1) == libsodiumReadsIt, "\(hash)")
        }
    }

    /// Found by the argon2-hash fuzz target: libsodium reads no leading zeros in the
    /// parameters (`m=08`), so a hash with one could never match.
    @Test("parameters with leading zeros are malformed") func parametersWithLeadingZerosAreMalformed() {
        let salt = "$YWJjZGVmZ2hpams$MDEyMzQ1Njc4OWFiY2RlZmdoaWprbG1ub3BxcnN0dXY"
        for (parameters, libsodiumReadsIt) in [("m=8,t=1", true), ("m=08,t=1", false), ("m=8,t=01", false), ("m=10,t=1", true)] {
            let hash = "$argon2id$v=19$\(parameters),p=1" + salt
            #expect(PatternHasher.isWellFormedArgon2idHash(hash) == libsodiumReadsIt, "\(hash)")
            #expect((crypto_pwhash_str_needs_rehash(hash, 1, 8192) != -1) == libsodiumReadsIt, "\(hash)")
        }
    }

    @Test("truncating a real hash makes it malformed or non matching") func truncatingARealHashMakesItMalformedOrNonMatching() throws {
        let hasher = try PatternHasher()
        let hash = try hasher.hash(message: "3x3:1-2-3", cost: cheap)
        for length in 0..<hash.count {
            #expect(!hasher.verify(hash: String(hash.prefix(length)), message: "3x3:1-2-3"))
        }
    }

    @Test("cost below the minimum is rejected with the minimum") func costBelowTheMinimumIsRejectedWithTheMinimum() throws {
        let hasher = try PatternHasher()
        let tooLittleMemory = PatternHasher.Argon2Cost(opsLimit: 2, memoryKiB: 4)
        let error = expectError(PatternHasherError.self) {
            _ = try hasher.hash(message: "x", cost: tooLittleMemory)
        }
        #expect(error?.description == "argon2id cost out of range (opslimit 2, memory 4 KiB); the minimum is opslimit 1, memory 8 KiB")
        #expect(throws: PatternHasherError.self) {
            _ = try hasher.hash(message: "x", cost: PatternHasher.Argon2Cost(opsLimit: 0, memoryKiB: 8))
        }
    }
}
