import Foundation
import Glibc
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// What gridlockd makes of its state file at start, on SIGHUP and at `gridlock reset-lockout`:
/// damaging, deleting, replacing or restoring it never earns a free use or free attempts.
@Suite struct StateFileTests {
    static let doorHash = "$argon2id$v=19$m=8,t=1,p=1$ZG9vcmRvb3I$ZG9vcmhhc2hkb29yaGFzaA"
    static let visitorHash = "$argon2id$v=19$m=8,t=1,p=1$dmlzaXRvcg$dmlzaXRvcmhhc2h2aXNpdG9y"

    /// `door` opens any number of times, `visitor` once.
    static var patterns: [PatternEntry] {
        let door = PatternEntry(name: "door", hash: doorHash, source: SourceLocation(file: "test", line: 1))
        var visitor = PatternEntry(name: "visitor", hash: visitorHash, source: SourceLocation(file: "test", line: 4))
        visitor.limits = PatternLimits(uses: 1)
        return [door, visitor]
    }

    let directory: String
    var path: String { "\(directory)/attempts" }
    var witness: String { "\(directory)/attempts.witness" }

    init() throws { directory = try makeTemporaryDirectory() }

    /// A panel that has run: the visitor used its one use, three failures since.
    func panelThatHasRun() throws -> StateFile {
        let running = StateFile.open(path, schedule: .android, patterns: Self.patterns)
        try running.saveUse(of: "visitor", hash: Self.visitorHash, at: 1_764_547_200)
        try running.save(attempts: AttemptState(failures: 3))
        return running
    }

    func open() -> StateFile { StateFile.open(path, schedule: .android, patterns: Self.patterns) }

    /// The lockout of a damaged file, the visitor's use unknown, said as damage.
    func expectClosed(_ file: StateFile, _ damage: String, failures: Int = 5, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(file.damage?.hasPrefix(damage) == true, "damage: \(file.damage ?? "none")", sourceLocation: sourceLocation)
        #expect(file.saved.attempts == AttemptState(failures: failures, lockoutPending: true), sourceLocation: sourceLocation)
        #expect(file.saved.uses(of: "visitor", hash: Self.visitorHash) == nil, sourceLocation: sourceLocation)
    }

    @Test("a new panel (no state file, no witness) has no failures and no uses, and writes nothing until its first attempt")
    func aNewPanelStartsClean() throws {
        defer { removeDirectory(directory) }
        let file = open()
        #expect(file.damage == nil)
        #expect(file.saved.attempts == .clean)
        #expect(file.saved.uses(of: "visitor", hash: Self.visitorHash) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
        try file.save(attempts: AttemptState(failures: 1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["attempts", "attempts.witness"])
    }

    @Test("a state file gone after gridlockd wrote it (the witness says so) is a lockout, and a used-up pattern stays shut")
    func aMissingFileAfterARunIsLost() throws {
        defer { removeDirectory(directory) }
        _ = try panelThatHasRun()
        try #require(unlink(path) == 0)
        let file = open()
        expectClosed(file, "is missing, though gridlockd wrote it before")
        #expect(file.saved.uses(of: "door", hash: Self.doorHash) == nil)
        // Written back at once: the next start finds a file that says so.
        let again = StateFile.inspect(path, schedule: .android, patterns: Self.patterns)
        #expect(again.damage == nil && again.usesUnknown == ["visitor"])
        #expect(again.saved.attempts.lockoutPending)
    }

    /// `[on failure] exec=/bin/rm …attempts`, then `kill -9`: the failure was on disk before
    /// the hook ran, the hook took it away. The witness saw the count.
    @Test("a file deleted after a failure keeps the count the witness saw: at least it, up to the schedule's next lockout")
    func aDeletedFileKeepsTheWitnessedCount() throws {
        defer { removeDirectory(directory) }
        let running = try panelThatHasRun()
        try running.save(attempts: AttemptState(failures: 12, lockoutPending: true))
        try #require(unlink(path) == 0)
        expectClosed(open(), "is missing", failures: 12)

        try running.save(attempts: AttemptState(failures: 7))
        try #require(unlink(path) == 0)
        // Android's failures 6 to 9 are free: the lockout comes at 10, as it would have.
        expectClosed(open(), "is missing", failures: 10)
    }

    @Test("a dangling symbolic link in place of the file is damage, never a new panel")
    func aDanglingLinkIsDamage() throws {
        defer { removeDirectory(directory) }
        _ = try panelThatHasRun()
        try #require(unlink(path) == 0)
        try #require(symlink("\(directory)/nowhere", path) == 0)
        expectClosed(open(), "is unreadable (it is a symbolic link, not a regular file)")
        // Even where gridlockd never ran: a link is nothing gridlockd writes.
        try #require(unlink(witness) == 0)
        try #require(unlink(path) == 0)
        try #require(symlink("\(directory)/nowhere", path) == 0)
        #expect(StateFile.inspect(path, schedule: .android, patterns: Self.patterns).damage?.contains("symbolic link") == true)
    }

    @Test("an oversized, truncated or scribbled file is damage: a lockout, and a used-up pattern stays shut")
    func damagedFilesAreClosed() throws {
        defer { removeDirectory(directory) }
        _ = try panelThatHasRun()
        let good = try #require(try AtomicFile.read(path))
        let damages: [(String, [UInt8])] = [
            ("is unreadable (larger than 65536 bytes)", good + [UInt8](repeating: 0x20, count: AttemptFileFormat.maximumSize)),
            ("is corrupt (truncated", Array(good.dropLast(3))),
            ("is corrupt (checksum mismatch", Array(String(decoding: good, as: UTF8.self).replacingOccurrences(of: "uses=1", with: "uses=0").utf8)),
        ]
        for (damage, bytes) in damages {
            try AtomicFile.write(bytes, to: path, mode: 0o600)
            // Damage, not a want of permission: `gridlock patterns` run as root must not say "run as root".
            #expect(!StateFile.inspect(path, schedule: .android, patterns: Self.patterns).accessDenied)
            expectClosed(open(), damage)
        }
    }

    @Test("a power cut between the file and its witness is no damage: the witness never runs ahead")
    func aKillBetweenFileAndWitnessIsNoDamage() throws {
        defer { removeDirectory(directory) }
        let running = try panelThatHasRun()
        let earlier = try #require(try AtomicFile.read(witness))
        try running.save(attempts: AttemptState(failures: 4))
        try AtomicFile.write(earlier, to: witness, mode: 0o600)
        let file = open()
        #expect(file.damage == nil)
        #expect(file.saved.attempts == AttemptState(failures: 4))
        #expect(file.saved.uses(of: "visitor", hash: Self.visitorHash) == 1)
    }

    @Test("a power cut in a new panel's first write is no damage: before its file (a witness of generation 0 only), or before the witness that follows it")
    func aKillInTheFirstWriteIsNoDamage() throws {
        defer { removeDirectory(directory) }
        let first = try #require(StateWitness.decode(StateWitness(generation: 0, failures: 0).encode()))
        try first.save(to: witness, durable: false)
        let before = open()
        #expect(before.damage == nil)
        #expect(before.saved.attempts == .clean)
        #expect(before.saved.uses(of: "visitor", hash: Self.visitorHash) == 0)
        try before.save(attempts: AttemptState(failures: 1))
        try first.save(to: witness, durable: false)
        let after = open()
        #expect(after.damage == nil)
        #expect(after.saved.attempts == AttemptState(failures: 1))
        // A file of generation 1 with no witness at all is still damage: the first write
        // leaves one before the file.
        try FileManager.default.removeItem(atPath: witness)
        expectClosed(open(), "cannot be vouched for")
    }

    @Test("a valid version 1 file keeps its count, and its uses are unknown: a limited pattern stays shut")
    func aVersionOneFileLeavesLimitedPatternsShut() throws {
        defer { removeDirectory(directory) }
        _ = try panelThatHasRun()
        let body = Array("gridlock-attempts 1\nfailures=2\nlockout=0\n".utf8)
        try AtomicFile.write(body + Array("crc32=\(AttemptFileFormat.hex(CRC32.checksum(body)))\n".utf8), to: path, mode: 0o600)
        try #require(unlink(witness) == 0)
        let found = StateFile.inspect(path, schedule: .android, patterns: Self.patterns)
        #expect(found.damage == nil)
        #expect(found.saved.attempts == AttemptState(failures: 2))
        #expect(found.usesUnknown == ["visitor"])
        #expect(found.saved.uses(of: "visitor", hash: Self.visitorHash) == nil)
        // A pattern enrolled afterwards has a new hash and nothing unknown about it.
        let file = open()
        file.keep(only: Self.patterns + [PatternEntry(name: "courier", hash: "$argon2id$new", source: SourceLocation(file: "test", line: 9))])
        #expect(file.saved.uses(of: "courier", hash: "$argon2id$new") == 0)
        #expect(file.saved.uses(of: "visitor", hash: Self.visitorHash) == nil)
    }

    /// A failure (generation 1), the visitor's one use and a success (generations 2 and 3),
    /// then the copy of generation 1 put back in place: a rollback to before the use.
    func putBackACopyFromBeforeTheUse() throws {
        let running = StateFile.open(path, schedule: .android, patterns: Self.patterns)
        try running.save(attempts: AttemptState(failures: 1))
        let beforeTheUse = try #require(try AtomicFile.read(path))
        try running.saveUse(of: "visitor", hash: Self.visitorHash, at: 1_764_547_200)
        try running.save(attempts: .clean)
        try AtomicFile.write(beforeTheUse, to: path, mode: 0o600)
    }

    @Test("an older copy put back (rollback) is damage: its smaller generation gives it away")
    func anOlderCopyIsDamage() throws {
        defer { removeDirectory(directory) }
        try putBackACopyFromBeforeTheUse()
        expectClosed(open(), "is an older copy (generation 1, gridlockd last wrote 3)")
    }

    /// Every way the witness beside a file can fail to vouch for it.
    enum BrokenWitness: String, CaseIterable, Sendable {
        case missing = "missing"
        case garbage = "garbage"
        case empty = "empty"
        case cutShort = "cut short"
        case directory = "a directory"
        case fifo = "a FIFO"
        case linkToZero = "a link to /dev/zero"
        case oneMebibyte = "1 MiB"
    }

    func breakWitness(_ broken: BrokenWitness) throws {
        let intact = try #require(try AtomicFile.read(witness))
        try #require(unlink(witness) == 0)
        switch broken {
        case .missing: break
        case .garbage: try AtomicFile.write(Array("scribbled".utf8), to: witness, mode: 0o600)
        case .empty: try AtomicFile.write([], to: witness, mode: 0o600)
        case .cutShort: try AtomicFile.write(Array(intact.prefix(intact.count - 5)), to: witness, mode: 0o600)
        case .directory: try #require(mkdir(witness, 0o700) == 0)
        case .fifo: try #require(mkfifo(witness, 0o600) == 0)
        case .linkToZero: try #require(symlink("/dev/zero", witness) == 0)
        case .oneMebibyte: try AtomicFile.write([UInt8](repeating: 0x41, count: 1 << 20), to: witness, mode: 0o600)
        }
    }

    @Test("an older copy put back beside a missing or broken witness is damage: a lockout, and the used-up pattern stays shut",
          arguments: BrokenWitness.allCases)
    func anOlderCopyBesideABrokenWitnessIsDamage(_ broken: BrokenWitness) throws {
        defer { removeDirectory(directory) }
        try putBackACopyFromBeforeTheUse()
        try breakWitness(broken)
        let found = StateFile.inspect(path, schedule: .android, patterns: Self.patterns)
        #expect(found.damage?.hasPrefix("cannot be vouched for: its witness \(witness) is ") == true, "\(broken.rawValue): \(found.damage ?? "none")")
        #expect(found.usesUnknown == ["visitor"])
        expectClosed(open(), "cannot be vouched for")
        // Opening wrote the lockout and a good witness (where a file can take the witness's
        // place; a directory there stays, and so does the damage): the next start holds it.
        let again = open()
        #expect((again.damage == nil) == (broken != .directory), "\(again.damage ?? "none")")
        #expect(again.saved.attempts == AttemptState(failures: 5, lockoutPending: true))
        #expect(again.saved.uses(of: "visitor", hash: Self.visitorHash) == nil)
    }

    @Test("the latest file beside a broken witness cannot be told from an older one either: the same lockout",
          arguments: [BrokenWitness.missing, .garbage, .directory])
    func theLatestFileBesideABrokenWitnessIsDamageToo(_ broken: BrokenWitness) throws {
        defer { removeDirectory(directory) }
        _ = try panelThatHasRun()
        try breakWitness(broken)
        expectClosed(open(), "cannot be vouched for", failures: 5)
    }

    @Test("a version 2 file with no witness (an older gridlockd's, never witnessed) keeps its count, and its uses are unknown")
    func anUnwitnessedVersionTwoFileForgetsItsUses() throws {
        defer { removeDirectory(directory) }
        let body = Array("gridlock-attempts 2\nfailures=2\nlockout=0\npattern visitor uses=0 hash=\(AttemptFileFormat.hex(PatternUse.tag(of: Self.visitorHash))) last=-\n".utf8)
        try AtomicFile.write(body + Array("crc32=\(AttemptFileFormat.hex(CRC32.checksum(body)))\n".utf8), to: path, mode: 0o600)
        let found = StateFile.inspect(path, schedule: .android, patterns: Self.patterns)
        try #require(found.damage == nil, "\(found.damage ?? "")")
        #expect(found.saved.attempts == AttemptState(failures: 2))
        #expect(found.usesUnknown == ["visitor"])
    }

    // MARK: While it runs (SIGHUP)

    @Test("a drop-in moved away for one reload and back for the next, nothing written between: the used-up pattern stays used up")
    func aPatternAwayForOneReloadKeepsItsUses() throws {
        defer { removeDirectory(directory) }
        let running = try panelThatHasRun()
        #expect(running.saved.uses(of: "visitor", hash: Self.visitorHash) == 1)
        running.keep(only: Self.patterns.filter { $0.name != "visitor" })
        running.keep(only: Self.patterns)
        #expect(running.saved.uses(of: "visitor", hash: Self.visitorHash) == 1)
        // A write while it is away does drop it, as docs/security.md says: an administrator's reset.
        running.keep(only: Self.patterns.filter { $0.name != "visitor" })
        try running.save(attempts: AttemptState(failures: 1))
        running.keep(only: Self.patterns)
        #expect(running.saved.uses(of: "visitor", hash: Self.visitorHash) == 0)
    }

    @Test("on SIGHUP a file deleted, put back older or written at a later generation by another is written again from the running state")
    func reconcileRewritesWhatGridlockdDidNotWrite() throws {
        defer { removeDirectory(directory) }
        let running = StateFile.open(path, schedule: .android, patterns: Self.patterns)
        try running.save(attempts: AttemptState(failures: 1))
        let older = try #require(try AtomicFile.read(path))
        try running.saveUse(of: "visitor", hash: Self.visitorHash, at: 1)
        try running.save(attempts: AttemptState(failures: 2))

        try AtomicFile.write(older, to: path, mode: 0o600)
        running.reconcile(running: AttemptState(failures: 2))
        #expect(open().saved.uses(of: "visitor", hash: Self.visitorHash) == 1)

        try #require(unlink(path) == 0)
        running.reconcile(running: AttemptState(failures: 2))
        let restarted = open()
        #expect(restarted.damage == nil && restarted.saved.attempts == AttemptState(failures: 2))

        // What a replay given the live file wrote: no failures, a later generation. Not a reset.
        var later = running.saved
        later.attempts = .clean
        later.generation += 10
        try AttemptStore.save(later, to: path)
        running.reconcile(running: AttemptState(failures: 2))
        #expect(running.saved.attempts == AttemptState(failures: 2))
        #expect(open().saved.attempts == AttemptState(failures: 2))
    }

    // MARK: gridlock reset-lockout

    @Test("a reset request clears the running count and keeps every use but those it names; names not configured are said")
    func aResetRequestIsAppliedToTheRunningState() throws {
        defer { removeDirectory(directory) }
        let running = try panelThatHasRun()
        try running.save(attempts: AttemptState(failures: 5, lockoutPending: true))
        try ResetRequest(requester: "uid 0 (sudo by alice)", pid: 42, usesAfresh: []).save(beside: path)
        guard case .request(let request) = ResetRequest.take(beside: path) else {
            Issue.record("the request did not read back")
            return
        }
        #expect(request == ResetRequest(requester: "uid 0 (sudo by alice)", pid: 42, usesAfresh: []))
        #expect(ResetRequest.take(beside: path) != .none, "kept until applied")
        ResetRequest.remove(beside: path)
        #expect(ResetRequest.take(beside: path) == .none, "removed once applied")
        let applied = try running.apply(request)
        #expect(applied.afresh.isEmpty && applied.unknown.isEmpty)
        #expect(running.saved.attempts == .clean)
        #expect(running.saved.uses(of: "visitor", hash: Self.visitorHash) == 1)
        #expect(open().saved.attempts == .clean)

        let named = try running.apply(ResetRequest(requester: "uid 0", pid: 43, usesAfresh: ["visitor", "gone"]))
        #expect(named.afresh == ["visitor"] && named.unknown == ["gone"])
        #expect(open().saved.uses(of: "visitor", hash: Self.visitorHash) == 0)
    }

    @Test("a reset request that is scribbled, cut short or a folder is refused, and taken away unless it is a folder")
    func aBrokenResetRequestResetsNothing() throws {
        defer { removeDirectory(directory) }
        let request = ResetRequest.path(beside: path)
        try AtomicFile.write(Array("gridlock-reset 1\nrequester=me\n".utf8), to: request, mode: 0o600)
        guard case .unreadable = ResetRequest.take(beside: path) else { Issue.record("a cut-short request was taken"); return }
        #expect(!FileManager.default.fileExists(atPath: request))
        var bytes = ResetRequest(requester: "uid 0", pid: 1, usesAfresh: ["visitor"]).encode()
        bytes[20] ^= 1
        try AtomicFile.write(bytes, to: request, mode: 0o600)
        guard case .unreadable = ResetRequest.take(beside: path) else { Issue.record("a scribbled request was taken"); return }
        try #require(mkdir(request, 0o700) == 0)
        guard case .unreadable = ResetRequest.take(beside: path) else { Issue.record("a folder was taken"); return }
    }

    @Test("reset-lockout with no gridlockd clears the failures and keeps every use, a used-up one and unknown ones too")
    func resetLockoutKeepsUses() throws {
        defer { removeDirectory(directory) }
        let running = try panelThatHasRun()
        try running.save(attempts: AttemptState(failures: 5, lockoutPending: true))
        _ = try StateFile.resetLockout(at: path, schedule: .android, patterns: Self.patterns)
        let reset = open()
        #expect(reset.saved.attempts == .clean)
        #expect(reset.saved.uses(of: "visitor", hash: Self.visitorHash) == 1)

        try #require(unlink(path) == 0)
        let found = try StateFile.resetLockout(at: path, schedule: .android, patterns: Self.patterns)
        #expect(found.damage?.hasPrefix("is missing") == true)
        let after = open()
        #expect(after.damage == nil)
        #expect(after.saved.attempts == .clean)
        #expect(after.saved.uses(of: "visitor", hash: Self.visitorHash) == nil, "still unknown: still shut")
    }

    @Test("reset-lockout --uses NAME starts that pattern's uses afresh, and only that one's")
    func resetLockoutWithUsesStartsThemAfresh() throws {
        defer { removeDirectory(directory) }
        var patterns = Self.patterns
        var courier = PatternEntry(name: "courier", hash: "$argon2id$courier", source: SourceLocation(file: "test", line: 9))
        courier.limits = PatternLimits(uses: 2)
        patterns.append(courier)
        let running = StateFile.open(path, schedule: .android, patterns: patterns)
        try running.saveUse(of: "visitor", hash: Self.visitorHash, at: 1)
        try running.saveUse(of: "courier", hash: courier.hash, at: 2)
        _ = try StateFile.resetLockout(at: path, schedule: .android, patterns: patterns, startingUsesAfreshOf: [patterns[1]])
        var after = StateFile.open(path, schedule: .android, patterns: patterns)
        #expect(after.saved.uses(of: "visitor", hash: Self.visitorHash) == 0)
        #expect(after.saved.uses(of: "courier", hash: courier.hash) == 1)

        // After damage: the named one is known again, the others stay unknown.
        try AtomicFile.write(Array("scribbled\n".utf8), to: path, mode: 0o600)
        let found = try StateFile.resetLockout(at: path, schedule: .android, patterns: patterns, startingUsesAfreshOf: [courier])
        #expect(found.usesUnknown.sorted() == ["courier", "visitor"])
        after = StateFile.open(path, schedule: .android, patterns: patterns)
        #expect(after.damage == nil && after.saved.attempts == .clean)
        #expect(after.saved.uses(of: "courier", hash: courier.hash) == 0)
        #expect(after.saved.uses(of: "visitor", hash: Self.visitorHash) == nil)
    }
}

/// The state file in use is written by its holder alone (`StateLock`).
@Suite struct StateLockTests {
    @Test("a replay given a state file another holds refuses it with 75, naming the holder, and writes nothing")
    func aReplayRefusesAHeldStateFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        // Held as gridlockd holds it. In this same process, the refused replay's own line is
        // left out of the naming (LockFile), so the holder is named as another process would be.
        let acquired = try StateLock.acquire(for: path, by: "gridlockd")
        let held = try #require(acquired)
        var options = ReplayRunner.Options(
            config: try ReplayTests.config(), recording: try ReplayTests.recording("demo-wrong-then-right"), framesDirectory: nil) { _ in }
        options.statePath = path
        do {
            _ = try ReplayRunner(options)
            Issue.record("the replay took a state file gridlockd holds")
        } catch {
            guard case .stateInUse(let inUse) = error else { Issue.record("\(error)"); return }
            #expect(inUse.holder == LockHolder(pid: ProcessIdentity.processID, purpose: "gridlockd"))
            #expect(error.exitStatus == 75)
            #expect("\(error)".contains("in use by gridlockd (pid \(ProcessIdentity.processID))") && "\(error)".contains("replay a copy"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        // Released, the same replay runs on it.
        held.release()
        try ReplayRunner(options).run()
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("a second gridlockd on the same state file stops before opening any device, with 75")
    func aSecondDaemonOnOneStateFileStops() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        var config = try ReplayTests.config()
        config.lockout.stateFile = "\(directory)/attempts"
        config.display.backend = .png
        config.display.outputDirectory = "\(directory)/frames"
        let acquired = try StateLock.acquire(for: config.lockout.stateFile, by: "gridlockd")
        let held = try #require(acquired)
        defer { held.release() }
        do {
            _ = try DaemonParts(config: config, options: Daemon.Options(configPath: "\(directory)/gridlock.conf"))
            Issue.record("a second daemon took the state file")
        } catch {
            guard case .stateInUse = error else { Issue.record("\(error)"); return }
            #expect(error.exitStatus == 75)
        }
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/frames"), "no output was opened")
    }
}
