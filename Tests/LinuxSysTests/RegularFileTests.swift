import Foundation
import Glibc
import LinuxSys
import Testing

@Suite struct RegularFileTests {
    /// A folder holding each thing a file's path may wrongly name, and a good file.
    struct Hostile {
        let folder: String
        var fifo: String { "\(folder)/fifo" }
        var dangling: String { "\(folder)/dangling" }
        var good: String { "\(folder)/good" }
        var linkToGood: String { "\(folder)/link" }
        let zero = "/dev/zero"

        init() throws {
            folder = try makeTemporaryDirectory()
            try #require(mkfifo("\(folder)/fifo", 0o600) == 0)
            try #require(symlink("\(folder)/nothing-here", "\(folder)/dangling") == 0)
            try Data("line one\nline two\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/good"))
            try #require(symlink("\(folder)/good", "\(folder)/link") == 0)
        }

        /// Each refused path and the reason it must be refused with.
        var refused: [(path: String, reason: String)] {
            [(fifo, "it is a FIFO, not a regular file"), (zero, "it is a character device, not a regular file"),
             (folder, "it is a directory, not a regular file"), (dangling, "No such file or directory")]
        }
    }

    @Test("a FIFO nobody writes, /dev/zero, a folder and a link to nothing are refused at once, never waited on")
    func nonRegularFilesAreRefusedWithoutBlocking() throws {
        let hostile = try Hostile()
        defer { removeDirectory(hostile.folder) }
        for (path, reason) in hostile.refused {
            let reasons = withoutHanging("reading \(path)", releasing: [hostile.fifo]) { () -> [String] in
                var reasons: [String] = []
                do throws(BoundedReadError) { _ = try AtomicFile.regularFileContents(of: path, limit: 1 << 20) } catch { reasons.append(error.reason) }
                do throws(BoundedReadError) { _ = try FileMapping(regularFile: path, limit: 1 << 20) } catch { reasons.append(error.reason) }
                do throws(BoundedReadError) { _ = try LineReader(path: path) } catch { reasons.append(error.reason) }
                do throws(BoundedReadError) { _ = try AtomicFile.regularFileStart(of: path, count: 8, limit: 1 << 20) } catch {
                    reasons.append(error.reason)
                }
                return reasons
            }
            #expect(reasons == [reason, reason, reason, reason], "\(path)")
        }
    }

    @Test("a link to a regular file is followed; the limit, and an empty file where a mapping needs bytes, are refused")
    func linksAreFollowedAndLimitsHold() throws {
        let hostile = try Hostile()
        defer { removeDirectory(hostile.folder) }
        #expect(try AtomicFile.regularFileContents(of: hostile.linkToGood, limit: 1 << 20) == Array("line one\nline two\n".utf8))
        let mapping = try FileMapping(regularFile: hostile.linkToGood, limit: 1 << 20)
        #expect(Array(mapping.bytes) == Array("line one\nline two\n".utf8))
        let reader = try LineReader(path: hostile.linkToGood)
        #expect(try reader.nextLine() == "line one")
        #expect(throws: BoundedReadError.tooLarge(path: hostile.good, limit: 4)) {
            _ = try AtomicFile.regularFileContents(of: hostile.good, limit: 4)
        }
        #expect(throws: BoundedReadError.tooLarge(path: hostile.good, limit: 4)) {
            _ = try FileMapping(regularFile: hostile.good, limit: 4)
        }
        #expect(try AtomicFile.regularFileStart(of: hostile.linkToGood, count: 4, limit: 1 << 20) == Array("line".utf8))
        #expect(try AtomicFile.regularFileStart(of: hostile.good, count: 100, limit: 1 << 20) == Array("line one\nline two\n".utf8))
        // The limit is the whole file's, whatever is read of it.
        #expect(throws: BoundedReadError.tooLarge(path: hostile.good, limit: 4)) {
            _ = try AtomicFile.regularFileStart(of: hostile.good, count: 2, limit: 4)
        }
        let empty = "\(hostile.folder)/empty"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(throws: BoundedReadError.empty(path: empty)) { _ = try FileMapping(regularFile: empty, limit: 4) }
        #expect(try AtomicFile.regularFileContents(of: empty, limit: 4) == [])
    }
}
