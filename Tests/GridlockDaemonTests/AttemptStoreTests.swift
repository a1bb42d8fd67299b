import Foundation
@testable import GridlockConfiguration
@testable import GridlockDaemon
import GridlockCore
import Glibc
import LinuxSys
import Testing

@Suite struct AttemptStoreTests {
    @Test("crc 32 matches the standard check value") func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test("encoded form is the documented text") func encodedFormIsTheDocumentedText() {
        let text = String(decoding: AttemptFileFormat.encode(AttemptState(failures: 3, lockoutPending: false)), as: UTF8.self)
        let body = "gridlock-attempts 3\nfailures=3\nlockout=0\ngeneration=0\n"
        let crc = String(CRC32.checksum(Array(body.utf8)), radix: 16)
        #expect(text == body + "crc32=" + String(repeating: "0", count: 8 - crc.count) + crc + "\n")
    }

    @Test("round trip through the file", arguments: [
        AttemptState.clean,
        AttemptState(failures: 3, lockoutPending: false),
        AttemptState(failures: 5, lockoutPending: true),
        AttemptState(failures: 999_999_999, lockoutPending: true),
    ])
    func roundTripThroughTheFile(state: AttemptState) throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        try AttemptStore.save(SavedState(attempts: state), to: path)
        #expect(AttemptStore.load(from: path) == .loaded(SavedState(attempts: state)))
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600)
    }

    @Test("missing file is missing") func missingFileIsMissing() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        #expect(AttemptStore.load(from: "\(directory)/attempts") == .missing)
    }

    /// A file with every kind of line, known and unknown counts included.
    static var everyKindOfLine: SavedState {
        var saved = SavedState(attempts: AttemptState(failures: 12, lockoutPending: true), usesLost: true, generation: 41)
        saved.patterns["door"] = PatternUse(count: 3, hashTag: 0x0102_0304, lastAccepted: 1_764_547_200)
        saved.patterns["visitor"] = PatternUse(count: nil, hashTag: 0xdead_beef, lastAccepted: nil)
        return saved
    }

    @Test("a power cut cannot tear the file, but were it torn anywhere, it would be corrupt")
    func everyTruncationIsCorrupt() {
        let full = AttemptFileFormat.encode(Self.everyKindOfLine)
        for length in 0..<full.count {
            guard case .failure = AttemptFileFormat.decode(Array(full.prefix(length))) else {
                Issue.record("a file truncated to \(length) bytes decoded")
                continue
            }
        }
    }

    @Test("every single bit flip is corrupt") func everySingleBitFlipIsCorrupt() {
        let full = AttemptFileFormat.encode(Self.everyKindOfLine)
        for index in full.indices {
            for bit in 0..<8 {
                var flipped = full
                flipped[index] ^= 1 << bit
                if case .success(let state) = AttemptFileFormat.decode(flipped) {
                    Issue.record("flipping bit \(bit) of byte \(index) still decoded as \(state)")
                }
            }
        }
    }

    @Test("edited value with stale checksum is corrupt") func editedValueWithStaleChecksumIsCorrupt() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        try AttemptStore.save(SavedState(attempts: AttemptState(failures: 7, lockoutPending: true)), to: path)
        let edited = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "failures=7", with: "failures=0")
        try edited.write(toFile: path, atomically: false, encoding: .utf8)
        guard case .corrupt(let reason) = AttemptStore.load(from: path) else {
            Issue.record("edited file was accepted")
            return
        }
        #expect(reason.hasPrefix("checksum mismatch"))
    }

    @Test("garbage is corrupt with a reason", arguments: [
        ("", "empty"),
        ("hello\n", "expected at least 4 lines, found 1"),
        ("\u{7f}ELF\u{2}\u{1}\u{1}\n\n\n\n", "not a gridlock attempts file"),
        ("gridlock-attempts 4\nfailures=1\nlockout=0\ncrc32=00000000\n", "unsupported version \"4\", expected 1 to 3"),
        ("gridlock-attempts 3\nfailures=1\nlockout=0\ncrc32=00000000\n", "expected at least 5 lines in version 3, found 4"),
        ("gridlock-attempts 02\nfailures=1\nlockout=0\ncrc32=00000000\n", "unsupported version \"02\""),
        ("gridlock-attempts 1\nfailures=1\nlockout=0\npattern a uses=1 hash=00000000 last=-\ncrc32=00000000\n", "expected 4 lines in version 1"),
        ("gridlock-attempts 1\nfailures=1\nlockout=0\ncrc32=zz\n", "malformed checksum line"),
        ("gridlock-attempts 1\nfailures=1\nlockout=0\ncrc32=00000000", "truncated: no final newline"),
    ])
    func garbageIsCorruptWithAReason(text: String, reason: String) {
        guard case .failure(let corrupt) = AttemptFileFormat.decode(Array(text.utf8)) else {
            Issue.record("garbage decoded")
            return
        }
        #expect(corrupt.reason.hasPrefix(reason))
    }

    @Test("a version 3 file without its generation, or with a bad one, is corrupt")
    func aBadGenerationIsCorrupt() {
        for line in ["pattern a uses=1 hash=00000000 last=-", "generation=", "generation=-1", "generation=01", "generation=1000000000000000000"] {
            guard case .failure(let corrupt) = AttemptFileFormat.decode(file("gridlock-attempts 3\nfailures=0\nlockout=0\n\(line)\n")) else {
                Issue.record("accepted \(line)")
                continue
            }
            #expect(corrupt.reason.hasPrefix("malformed generation line"))
        }
    }

    @Test("valid checksum over bad values is still corrupt") func validChecksumOverBadValuesIsStillCorrupt() {
        for body in ["failures=-1\nlockout=0\n", "failures=01\nlockout=0\n", "failures=1\nlockout=2\n", "failures=\nlockout=0\n"] {
            let covered = Array("gridlock-attempts 1\n\(body)".utf8)
            let crc = String(CRC32.checksum(covered), radix: 16)
            let file = covered + Array("crc32=\(String(repeating: "0", count: 8 - crc.count) + crc)\n".utf8)
            guard case .failure(let corrupt) = AttemptFileFormat.decode(file) else {
                Issue.record("accepted \(body.debugDescription)")
                continue
            }
            #expect(corrupt.reason.hasPrefix("malformed"))
        }
    }

    @Test("a directory in place of the file is unreadable") func aDirectoryInPlaceOfTheFileIsUnreadable() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        #expect(AttemptStore.load(from: directory) == .unreadable(.notARegularFile(path: directory, kind: "a directory")))
    }

    @Test("a FIFO in place of the file is unreadable at once (a lockout), never a hang")
    func aFIFOInPlaceOfTheFileIsUnreadable() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        try #require(mkfifo(path, 0o600) == 0)
        #expect(AttemptStore.load(from: path) == .unreadable(.notARegularFile(path: path, kind: "a FIFO")))
    }

    @Test("a file larger than any state file is unreadable without reading it all")
    func aHugeFileIsUnreadable() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        try AtomicFile.write([UInt8](repeating: 0x41, count: 1 << 20), to: path, mode: 0o600)
        #expect(AttemptStore.load(from: path) == .unreadable(.tooLarge(path: path, limit: AttemptFileFormat.maximumSize)))
    }

    @Test("missing directory error says the directory must exist") func missingDirectoryErrorSaysTheDirectoryMustExist() {
        let error = expectError(AttemptStoreError.self) {
            try AttemptStore.save(.clean, to: "/nonexistent/gridlock/attempts")
        }
        #expect(error?.underlying.errno == .noSuchFile)
        #expect(error?.description.contains("the directory /nonexistent/gridlock must exist") == true)
    }

    /// Readers racing a writer must only ever see a complete old or new file. This is
    /// the in-process half of crash safety; the kill -9 during a write belongs to the
    /// daemon-level suite, which can kill a real gridlockd mid-save.
    @Test("concurrent reader never sees a torn or missing file") func concurrentReaderNeverSeesATornOrMissingFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        try AttemptStore.save(SavedState(attempts: AttemptState(failures: 0)), to: path)

        let writer = try BackgroundJob<String?>.start(wakeup: EventFD()) {
            for failures in 1...1000 {
                do {
                    try AttemptStore.save(SavedState(attempts: AttemptState(failures: failures, lockoutPending: failures % 2 == 0)), to: path)
                } catch {
                    return "save \(failures) failed: \(error)"
                }
            }
            return nil
        }

        var reads = 0
        var last = 0
        var writerResult: String??
        while writerResult == nil {
            writerResult = writer.take()
            switch AttemptStore.load(from: path) {
            case .loaded(let saved):
                let state = saved.attempts
                #expect(state.failures >= last, "failures went backwards: \(last) then \(state.failures)")
                #expect(state.lockoutPending == (state.failures % 2 == 0 && state.failures > 0))
                last = state.failures
            case let other:
                Issue.record("read \(reads) saw \(other)")
                return
            }
            reads += 1
        }
        #expect(writerResult == .some(nil))
        #expect(last == 1000 || AttemptStore.load(from: path) == .loaded(SavedState(attempts: AttemptState(failures: 1000, lockoutPending: true))))
        #expect(reads > 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["attempts"])
    }

    @Test("a checksummed count beyond nine digits reads as the most, locked out for the longest delay")
    func anAbsurdCountIsTheLongestLockout() throws {
        for (count, lockout) in [("1000000000", 0), ("999999999999999999", 0), ("4294967296", 1)] {
            let covered = Array("gridlock-attempts 2\nfailures=\(count)\nlockout=\(lockout)\n".utf8)
            let crc = String(CRC32.checksum(covered), radix: 16)
            let bytes = covered + Array("crc32=\(String(repeating: "0", count: 8 - crc.count) + crc)\n".utf8)
            let saved = try AttemptFileFormat.decode(bytes).get()
            #expect(saved.attempts == AttemptState(failures: AttemptState.maximumFailures, lockoutPending: true))
        }
        let schedule = try LockoutSchedule(text: "0,0,30,3600")
        let most = AttemptState(failures: AttemptState.maximumFailures, lockoutPending: true)
        #expect(schedule.delay(afterFailures: most.failures) == .seconds(3600))
    }

    // MARK: Version 2: the uses of patterns

    static let doorHash = "$argon2id$v=19$m=8,t=1,p=1$ZG9vcmRvb3I$ZG9vcmhhc2hkb29yaGFzaA"

    private func file(_ body: String) -> [UInt8] {
        let covered = Array(body.utf8)
        let crc = String(CRC32.checksum(covered), radix: 16)
        return covered + Array("crc32=\(String(repeating: "0", count: 8 - crc.count) + crc)\n".utf8)
    }

    @Test("uses round trip in the documented form") func usesRoundTripInTheDocumentedForm() throws {
        var saved = SavedState(attempts: AttemptState(failures: 2, lockoutPending: false))
        saved.noteAccepted("visitor", hash: Self.doorHash, at: 1_764_547_200)
        saved.noteAccepted("visitor", hash: Self.doorHash, at: 1_764_547_260)
        saved.patterns["cleaner"] = PatternUse(count: 0, hashTag: 0xdead_beef, lastAccepted: nil)
        saved.patterns["courier"] = PatternUse(count: nil, hashTag: 0x0000_00ff, lastAccepted: 1_764_547_000)
        saved.generation = 7
        let text = String(decoding: AttemptFileFormat.encode(saved), as: UTF8.self)
        let tag = String(CRC32.checksum(Array(Self.doorHash.utf8)), radix: 16)
        let padded = String(repeating: "0", count: 8 - tag.count) + tag
        #expect(text.hasPrefix("""
            gridlock-attempts 3
            failures=2
            lockout=0
            generation=7
            pattern cleaner uses=0 hash=deadbeef last=-
            pattern courier uses=? hash=000000ff last=1764547000
            pattern visitor uses=2 hash=\(padded) last=1764547260

            """))
        #expect(try AttemptFileFormat.decode(Array(text.utf8)).get() == saved)
        #expect(saved.uses(of: "visitor", hash: Self.doorHash) == 2)
        #expect(saved.uses(of: "nobody", hash: Self.doorHash) == 0)
        #expect(saved.patterns["courier"]?.count == nil)
    }

    @Test("uses=? is version 3's: an older version has no unknown count")
    func anUnknownCountIsVersionThreeOnly() throws {
        let line = "pattern courier uses=? hash=000000ff last=-\n"
        #expect(throws: AttemptFileFormat.Corrupt.self) { try AttemptFileFormat.decode(file("gridlock-attempts 2\nfailures=0\nlockout=0\n" + line)).get() }
        let saved = try AttemptFileFormat.decode(file("gridlock-attempts 3\nfailures=0\nlockout=0\ngeneration=1\n" + line)).get()
        #expect(saved.uses(of: "courier", hash: "x") == 0, "another hash: a new enrolment")
        #expect(saved.patterns["courier"] == PatternUse(count: nil, hashTag: 0xff, lastAccepted: nil))
    }

    @Test("a pattern enrolled again under its name starts with no uses")
    func usesBelongToOneHash() {
        var saved = SavedState()
        saved.noteAccepted("visitor", hash: Self.doorHash, at: 1)
        #expect(saved.uses(of: "visitor", hash: Self.doorHash + "x") == 0)
        saved.noteAccepted("visitor", hash: Self.doorHash + "x", at: 2)
        #expect(saved.uses(of: "visitor", hash: Self.doorHash + "x") == 1)
    }

    @Test("a version 1 file is read: its count is kept, and since it kept no uses, they are unknown")
    func versionOneIsUpgraded() throws {
        let saved = try AttemptFileFormat.decode(file("gridlock-attempts 1\nfailures=4\nlockout=1\n")).get()
        #expect(saved == SavedState(attempts: AttemptState(failures: 4, lockoutPending: true), usesLost: true))
        #expect(saved.uses(of: "visitor", hash: Self.doorHash) == nil)
        #expect(String(decoding: AttemptFileFormat.encode(saved), as: UTF8.self).hasPrefix("gridlock-attempts 3\n"))
    }

    @Test("uses lost is kept and means unknown") func usesLostIsKeptAndMeansUnknown() throws {
        let saved = try AttemptFileFormat.decode(file("gridlock-attempts 2\nfailures=5\nlockout=1\nuses-lost=1\n")).get()
        #expect(saved.usesLost)
        #expect(saved.uses(of: "visitor", hash: Self.doorHash) == nil)
        #expect(try AttemptFileFormat.decode(AttemptFileFormat.encode(saved)).get() == saved)
    }

    @Test("version 2's uses-lost=1 meant every count unknown, also of the patterns it listed")
    func versionTwoUsesLostCoversListedPatterns() throws {
        let saved = try AttemptFileFormat.decode(
            file("gridlock-attempts 2\nfailures=5\nlockout=1\nuses-lost=1\npattern door uses=1 hash=00000001 last=5\n")).get()
        #expect(saved.patterns["door"] == PatternUse(count: nil, hashTag: 1, lastAccepted: 5))
    }

    @Test("malformed pattern lines are corrupt", arguments: [
        "pattern visitor uses=1 hash=0000000 last=-", "pattern visitor uses=01 hash=00000000 last=-",
        "pattern visitor uses=1 hash=ABCDEF00 last=-", "pattern vis itor uses=1 hash=00000000 last=-",
        "pattern visitor uses=1 hash=00000000 last=", "pattern visitor uses=1 hash=00000000", "pattern  uses=1 hash=00000000 last=-",
        "pattern visitor uses=-1 hash=00000000 last=-", "uses-lost=1", "pattern visitor uses=1 hash=00000000 last=-1",
    ])
    func malformedPatternLinesAreCorrupt(line: String) {
        guard case .failure(let corrupt) = AttemptFileFormat.decode(file("gridlock-attempts 2\nfailures=0\nlockout=0\npattern a uses=1 hash=00000000 last=-\n\(line)\n")) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(corrupt.reason.hasPrefix("malformed pattern line"))
    }

    @Test("pattern lines out of the writer's order are corrupt: one state has one spelling")
    func patternLinesOutOfOrderAreCorrupt() {
        let body = "gridlock-attempts 3\nfailures=0\nlockout=0\ngeneration=1\n"
        let door = "pattern door uses=1 hash=00000000 last=-\n", visitor = "pattern visitor uses=1 hash=00000000 last=-\n"
        #expect(throws: Never.self) { try AttemptFileFormat.decode(file(body + door + visitor)).get() }
        guard case .failure(let corrupt) = AttemptFileFormat.decode(file(body + visitor + door)) else {
            Issue.record("accepted lines out of order")
            return
        }
        #expect(corrupt.reason.hasPrefix("pattern line out of order"))
    }

    @Test("the same pattern twice is corrupt") func theSamePatternTwiceIsCorrupt() {
        let line = "pattern a uses=1 hash=00000000 last=-\n"
        #expect(throws: AttemptFileFormat.Corrupt.self) {
            try AttemptFileFormat.decode(file("gridlock-attempts 2\nfailures=0\nlockout=0\n" + line + line)).get()
        }
    }

    @Test("a damaged file means a lockout and unknown uses; a write keeps saying so")
    func damageLosesTheUsesForGood() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        try AtomicFile.write(Array("scribbled".utf8), to: path, mode: 0o600)
        let restored = StateFile.restore(from: path, schedule: .android)
        #expect(restored == SavedState(attempts: AttemptState(failures: 5, lockoutPending: true), usesLost: true))
        let file = StateFile(path: path, saved: restored)
        try file.save(attempts: AttemptState(failures: 6))
        guard case .loaded(let reread) = AttemptStore.load(from: path) else { Issue.record("not loaded"); return }
        #expect(reread.usesLost && reread.attempts.failures == 6)
    }

    @Test("a use that cannot be written is not counted in memory either")
    func failedUseWriteChangesNothing() {
        let file = StateFile(path: "/nonexistent/gridlock/attempts")
        #expect(throws: AttemptStoreError.self) { try file.saveUse(of: "visitor", hash: Self.doorHash, at: 1) }
        #expect(file.saved == .clean)
    }
}

/// The state file is bounded by the configuration, and what the writer writes its reader reads.
extension AttemptStoreTests {
    /// `count` patterns with the longest names there may be, each limited to the most uses.
    static func longestNamedPatterns(_ count: Int) -> [PatternEntry] {
        (0..<count).map { index in
            let name = String(format: "%04d", index) + String(repeating: "n", count: ConfigValues.maximumPatternNameLength - 4)
            var entry = PatternEntry(name: name, hash: doorHash + "\(index)", source: SourceLocation(file: "test", line: index + 1))
            entry.limits = PatternLimits(uses: 1_000_000)
            return entry
        }
    }

    @Test("the largest file the writer can write (most patterns, longest names, largest numbers) is read back whole")
    func theLargestFileFitsItsReader() throws {
        let patterns = Self.longestNamedPatterns(GridlockConfig.maximumPatterns)
        var worst = SavedState(
            attempts: AttemptState(failures: AttemptState.maximumFailures, lockoutPending: true), usesLost: true,
            generation: SavedState.maximumGeneration)
        for pattern in patterns {
            worst.patterns[pattern.name] = PatternUse(
                count: AttemptState.maximumFailures, hashTag: 0xffff_ffff, lastAccepted: AttemptFileFormat.maximumLastAccepted)
        }
        let bytes = AttemptFileFormat.encode(worst)
        #expect(bytes.count == AttemptFileFormat.largestHeader + GridlockConfig.maximumPatterns * AttemptFileFormat.largestLine)
        #expect(bytes.count <= AttemptFileFormat.maximumSize, "\(bytes.count) bytes")
        #expect(try AttemptFileFormat.decode(bytes).get() == worst)
    }

    @Test("at the size limit through gridlockd's own path: every pattern limited and used, written, then read back at a restart")
    func theLargestStateSurvivesARestart() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        let patterns = Self.longestNamedPatterns(GridlockConfig.maximumPatterns)
        var used = SavedState(attempts: AttemptState(failures: AttemptState.maximumFailures - 1))
        for pattern in patterns.dropLast() {
            used.patterns[pattern.name] = PatternUse(
                count: 1_000_000, hashTag: PatternUse.tag(of: pattern.hash), lastAccepted: AttemptFileFormat.maximumLastAccepted)
        }
        let running = StateFile(path: path, saved: used)
        running.keep(only: patterns)
        try running.saveUse(of: patterns.last!.name, hash: patterns.last!.hash, at: AttemptFileFormat.maximumLastAccepted)
        // 499 patterns used up to the most uses= allows, one used once, the clock at its largest.
        #expect(try FileStatus(path: path).size == 59_071)

        let restarted = StateFile.open(path, schedule: .android, patterns: patterns)
        #expect(restarted.damage == nil)
        #expect(restarted.saved == running.saved)
        for pattern in patterns.dropLast() { #expect(restarted.saved.uses(of: pattern.name, hash: pattern.hash) == 1_000_000) }
        #expect(restarted.saved.uses(of: patterns.last!.name, hash: patterns.last!.hash) == 1)
    }

    @Test("more patterns than a configuration may have is a config error at the first one too many")
    func aConfigurationHasAtMostTheMostPatterns() throws {
        let sections = (0...GridlockConfig.maximumPatterns).map { "[pattern p\($0)]\nhash=\(ConfigLoaderTests.hash)\ngrid=3x3\n" }
        let folder = try ConfigFixtures.scratch(["gridlock.conf": sections.joined()])
        defer { ConfigFixtures.remove(folder) }
        let diagnostics = ConfigFixtures.diagnostics("\(folder)/gridlock.conf")
        #expect(diagnostics == [
            "\(folder)/gridlock.conf:\(3 * GridlockConfig.maximumPatterns + 1): [pattern p\(GridlockConfig.maximumPatterns)] is one more than the \(GridlockConfig.maximumPatterns) patterns a configuration may have (every attempt checks every hash); remove patterns no longer used",
        ])
        let fewer = try ConfigFixtures.scratch(["gridlock.conf": sections.dropLast().joined()])
        defer { ConfigFixtures.remove(fewer) }
        #expect(ConfigFixtures.diagnostics("\(fewer)/gridlock.conf").isEmpty)
    }

    /// The reproduction: a valid version 2 file of 65,506 bytes, 595 patterns ever accepted
    /// with 64-character names, and one unlock. gridlockd wrote 65,556 bytes and could not
    /// read them back at its next start (a lockout, uses unknown).
    @Test("a state file of every pattern ever accepted is read, and written back with the configured ones only")
    func patternsNoLongerConfiguredAreDroppedAtTheNextWrite() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        var body = "gridlock-attempts 2\nfailures=0\nlockout=0\n"
        for index in 0..<595 {
            let name = "courier-" + String(format: "%04d", index) + String(repeating: "x", count: 64 - 12)
            body += "pattern \(name) uses=1 hash=\(AttemptFileFormat.hex(UInt32(index))) last=1764547200\n"
        }
        let old = file(body)
        #expect(old.count == 65_506)
        try AtomicFile.write(old, to: path, mode: 0o600)
        // Witnessed at generation 0 (the witness came with version 3): a version 2 file with
        // no witness at all is an older gridlockd's, whose uses cannot be vouched for.
        try StateWitness(generation: 0, failures: 0).save(to: StateWitness.path(beside: path), durable: false)

        var door = PatternEntry(name: "door", hash: Self.doorHash, source: SourceLocation(file: "test", line: 1))
        door.limits = PatternLimits(uses: 2)
        let running = StateFile.open(path, schedule: .android, patterns: [door])
        #expect(running.damage == nil)
        #expect(running.saved.patterns.isEmpty, "the couriers are no longer configured")
        try running.saveUse(of: "door", hash: Self.doorHash, at: 1_764_547_300)
        let size = try FileStatus(path: path).size
        #expect(size < 200, "\(size) bytes")
        let restarted = StateFile.open(path, schedule: .android, patterns: [door])
        #expect(restarted.damage == nil)
        #expect(restarted.saved.uses(of: "door", hash: Self.doorHash) == 1)
        #expect(restarted.saved.attempts == .clean)
    }

    @Test("a pattern removed by a reload leaves the file at the next write; one enrolled again starts afresh")
    func aReloadDropsRemovedPatterns() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        let door = PatternEntry(name: "door", hash: Self.doorHash, source: SourceLocation(file: "test", line: 1))
        let visitor = PatternEntry(name: "visitor", hash: Self.doorHash + "v", source: SourceLocation(file: "test", line: 5))
        let running = StateFile.open(path, schedule: .android, patterns: [door, visitor])
        try running.saveUse(of: "door", hash: door.hash, at: 1)
        try running.saveUse(of: "visitor", hash: visitor.hash, at: 2)
        var reenrolled = door
        reenrolled.hash = Self.doorHash + "again"
        running.keep(only: [reenrolled])
        try running.save(attempts: AttemptState(failures: 1))
        guard case .loaded(let onDisk) = AttemptStore.load(from: path) else { Issue.record("not loaded"); return }
        #expect(onDisk.patterns.isEmpty)
        #expect(onDisk.uses(of: "door", hash: reenrolled.hash) == 0)
    }

    @Test("the writer never writes what its reader refuses: a clock before 1970 or far beyond, a name no config could have, too many patterns")
    func theWriterStaysInsideTheReader() throws {
        var saved = SavedState()
        saved.noteAccepted("early", hash: "a", at: -5)
        saved.noteAccepted("late", hash: "b", at: .max)
        saved.patterns["not a name"] = PatternUse(count: 1, hashTag: 0, lastAccepted: nil)
        let read = try AttemptFileFormat.decode(AttemptFileFormat.encode(saved)).get()
        #expect(read.lastAccepted(of: "early", hash: "a") == 0)
        #expect(read.lastAccepted(of: "late", hash: "b") == AttemptFileFormat.maximumLastAccepted)
        #expect(read.patterns["not a name"] == nil)

        var crowded = SavedState()
        for pattern in Self.longestNamedPatterns(GridlockConfig.maximumPatterns + 1) { crowded.noteAccepted(pattern.name, hash: pattern.hash, at: 1) }
        let bytes = AttemptFileFormat.encode(crowded)
        #expect(bytes.count <= AttemptFileFormat.maximumSize)
        let kept = try AttemptFileFormat.decode(bytes).get()
        let dropped = Self.longestNamedPatterns(GridlockConfig.maximumPatterns + 1).last!
        #expect(kept.uses(of: dropped.name, hash: dropped.hash) == nil, "left out, so unknown, never fresh")
    }
}
