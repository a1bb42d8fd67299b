import Foundation
import Glibc
import LinuxSys
import Testing

@Suite struct AtomicFileTests {
    @Test("replaces content leaves no temporary and sets the mode") func replacesContentLeavesNoTemporaryAndSetsTheMode() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"

        try AtomicFile.write(Array("first".utf8), to: path, mode: 0o644)
        try AtomicFile.write(Array("second, longer".utf8), to: path, mode: 0o600)

        #expect(try AtomicFile.read(path) == Array("second, longer".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["attempts"])
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600)
    }

    @Test("mode is exact even when the umask would strip bits") func modeIsExactEvenWhenTheUmaskWouldStripBits() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/shared"
        let previous = umask(0o077)
        defer { umask(previous) }
        try AtomicFile.write([1, 2, 3], to: path, mode: 0o640)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o640)
    }

    @Test("reading a missing file is nil") func readingAMissingFileIsNil() throws {
        #expect(try AtomicFile.read("/nonexistent/gridlock/attempts") == nil)
    }

    @Test("stale temporary from an earlier process with our pid is replaced") func staleTemporaryFromAnEarlierProcessWithOurPidIsReplaced() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/attempts"
        _ = FileManager.default.createFile(atPath: "\(path).tmp-\(getpid())", contents: Data("torn".utf8))
        try AtomicFile.write(Array("new".utf8), to: path, mode: 0o600)
        #expect(try AtomicFile.read(path) == Array("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["attempts"])
    }

    @Test("missing directory is reported with the path") func missingDirectoryIsReportedWithThePath() throws {
        let error = expectError(SystemCallError.self) {
            try AtomicFile.write([1], to: "/nonexistent/gridlock/attempts", mode: 0o600)
        }
        #expect(error?.errno == .noSuchFile)
        #expect(error?.path?.hasPrefix("/nonexistent/gridlock/attempts.tmp-") == true)
    }

    @Test("failed rename removes the temporary") func failedRenameRemovesTheTemporary() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        // A non-empty directory cannot be replaced by a file.
        let path = "\(directory)/occupied"
        try FileManager.default.createDirectory(atPath: "\(path)/inside", withIntermediateDirectories: true)
        let error = expectError(SystemCallError.self) {
            try AtomicFile.write([1], to: path, mode: 0o600)
        }
        #expect(error?.errno == Errno(rawValue: EISDIR))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["occupied"])
    }

    @Test("a staged file is not under its name until installed, and a discarded one leaves the old file alone")
    func stagedFileIsInPlaceOnlyOnceInstalled() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/50-door.conf"
        try AtomicFile.write(Array("old".utf8), to: path, mode: 0o600)

        let discarded = try StagedFile.write(Array("bad".utf8), for: path, temporaryPath: "\(directory)/.50-door.conf.tmp", mode: 0o600)
        #expect(try AtomicFile.read(discarded.temporaryPath) == Array("bad".utf8))
        #expect(try AtomicFile.read(path) == Array("old".utf8))
        discarded.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["50-door.conf"])

        let staged = try StagedFile.write(Array("new".utf8), for: path, temporaryPath: "\(directory)/.50-door.conf.tmp", mode: 0o600)
        #expect(try AtomicFile.read(path) == Array("old".utf8))
        try staged.install()
        #expect(try AtomicFile.read(path) == Array("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["50-door.conf"])
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o600)
    }

    @Test("reading a missing file is nil but its contents are an error") func readingAMissingFileIsNilButItsContentsAreAnError() throws {
        let path = "/nonexistent/gridlock/attempts"
        #expect(try AtomicFile.read(path) == nil)
        #expect(throws: SystemCallError(operation: "open", path: path, errno: .noSuchFile)) {
            _ = try AtomicFile.contents(of: path)
        }
    }

    @Test("a write without fsync still replaces the file whole and leaves no temporary")
    func aWriteThatIsNotDurableStillReplacesTheFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/witness"
        try AtomicFile.write(Array("first".utf8), to: path, mode: 0o600, durable: false)
        try AtomicFile.write(Array("second".utf8), to: path, mode: 0o600, durable: false)
        #expect(try AtomicFile.read(path) == Array("second".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["witness"])
        #expect(try FileStatus(path: path).permissions == 0o600)
    }
}
