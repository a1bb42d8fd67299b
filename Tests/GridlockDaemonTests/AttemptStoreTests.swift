import Foundation
@testable import GridlockDaemon
import GridlockCore
import Glibc
import LinuxSys
import Testing

@Suite struct AttemptStoreTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test func encodedFormIsTheDocumentedText() {
        let text = String(decoding: AttemptFileFormat.encode(AttemptState(failures: 3, lockoutPending: false)), as: UTF8.self)
        let body = "gridlock-attempts 1\nfailures=3\nlockout=0\n"
        let crc = String(CRC32.checksum(Array(body.utf8)), radix: 16)
        #expect(text == body + "crc32=" + String(repeating: "0", count: 8 - crc.count) + crc + "\n")
    }

    @Test(arguments: [
        AttemptState.clean,
        AttemptState(failures: 3, lockoutPending: false),
        AttemptState(failures: 5, lockoutPending: true),
        AttemptState(failures: 999_999_999, lockoutPending: true),
    ])
    func roundTripThroughTheFile(state: AttemptState) throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        try AttemptStore.save(state, to: path)
        #expect(AttemptStore.load(from: path) == .loaded(state))
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600)
    }

    @Test func missingFileIsMissing() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        #expect(AttemptStore.load(from: "\(directory)/attempts") == .missing)
    }

    @Test func everyTruncationIsCorrupt() {
        let full = AttemptFileFormat.encode(AttemptState(failures: 12, lockoutPending: true))
        for length in 0..<full.count {
            guard case .failure = AttemptFileFormat.decode(Array(full.prefix(length))) else {
                Issue.record("a file truncated to \(length) bytes decoded")
                continue
            }
        }
    }

    @Test func everySingleBitFlipIsCorrupt() {
        let full = AttemptFileFormat.encode(AttemptState(failures: 4, lockoutPending: false))
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

    @Test func editedValueWithStaleChecksumIsCorrupt() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        try AttemptStore.save(AttemptState(failures: 7, lockoutPending: true), to: path)
        let edited = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "failures=7", with: "failures=0")
        try edited.write(toFile: path, atomically: false, encoding: .utf8)
        guard case .corrupt(let reason) = AttemptStore.load(from: path) else {
            Issue.record("edited file was accepted")
            return
        }
        #expect(reason.hasPrefix("checksum mismatch"))
    }

    @Test(arguments: [
        ("", "empty"),
        ("hello\n", "expected 4 lines, found 1"),
        ("\u{7f}ELF\u{2}\u{1}\u{1}\n\n\n\n", "not a gridlock attempts file"),
        ("gridlock-attempts 2\nfailures=1\nlockout=0\ncrc32=00000000\n", "unsupported version \"2\", expected 1"),
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

    @Test func validChecksumOverBadValuesIsStillCorrupt() {
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

    @Test func aDirectoryInPlaceOfTheFileIsUnreadable() throws {
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
        #expect(AttemptStore.load(from: path) == .unreadable(.tooLarge(path: path, limit: 256)))
    }

    @Test func missingDirectoryErrorSaysTheDirectoryMustExist() {
        let error = #expect(throws: AttemptStoreError.self) {
            try AttemptStore.save(.clean, to: "/nonexistent/gridlock/attempts")
        }
        #expect(error?.underlying.errno == .noSuchFile)
        #expect(error?.description.contains("the directory /nonexistent/gridlock must exist") == true)
    }

    /// Readers racing a writer must only ever see a complete old or new file. This is
    /// the in-process half of crash safety; the kill -9 during a write belongs to the
    /// daemon-level suite, which can kill a real gridlockd mid-save.
    @Test func concurrentReaderNeverSeesATornOrMissingFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        try AttemptStore.save(AttemptState(failures: 0), to: path)

        let writer = try BackgroundJob<String?>.start(wakeup: EventFD()) {
            for failures in 1...1000 {
                do {
                    try AttemptStore.save(AttemptState(failures: failures, lockoutPending: failures % 2 == 0), to: path)
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
            case .loaded(let state):
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
        #expect(last == 1000 || AttemptStore.load(from: path) == .loaded(AttemptState(failures: 1000, lockoutPending: true)))
        #expect(reads > 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["attempts"])
    }
}
