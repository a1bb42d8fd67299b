import Foundation
import Glibc
import LinuxSys
import Testing

/// `LockFile`: one holder at a time, a refused caller told who holds it, and the lock gone
/// with its holder.
@Suite struct LockFileTests {
    @Test("a held lock refuses a second acquirer at once, naming the holder's pid and purpose")
    func aHeldLockRefusesASecondAcquirer() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let path = "\(folder)/.gridlock.lock"
        let first = try LockFile.acquire(path: path, purpose: "gridlock enroll")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid()) gridlock enroll\n")
        // The refused caller's own line, here with the same pid, is not taken for the holder's.
        #expect(throws: LockFileError.held(path: path, holder: LockHolder(pid: getpid(), purpose: "gridlock enroll"))) {
            _ = try LockFile.acquire(path: path, purpose: "gridlock reset-lockout")
        }
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o600)
        #expect(LockFileError.held(path: path, holder: LockHolder(pid: 1234, purpose: "gridlock enroll")).description
            == "\(path) is locked by gridlock enroll (pid 1234)")
        first.release()
    }

    @Test("a released lock is free again, and so is one whose holder was freed")
    func aReleasedLockIsFreeAgain() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let path = "\(folder)/lock"
        let first = try LockFile.acquire(path: path, purpose: "first")
        first.release()
        first.release()
        do {
            let second = try LockFile.acquire(path: path, purpose: "second")
            #expect(throws: LockFileError.self) { _ = try LockFile.acquire(path: path, purpose: "third") }
            withExtendedLifetime(second) {}
        }
        let third = try LockFile.acquire(path: path, purpose: "third")
        third.release()
    }

    /// flock(1) holds the lock in another process and writes no record, over a record an
    /// earlier holder left: the kernel's pid is named, and no purpose, never the stale line.
    @Test("a lock another process holds names that process's pid, not a stale record, and is free once it exits")
    func aLockHeldByAnotherProcessNamesIt() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let path = "\(folder)/lock"
        try Data("999999 gridlock enroll\n".utf8).write(to: URL(fileURLWithPath: path))
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["--exclusive", "--nonblock", path, "/bin/sh", "-c", "echo locked; cat > /dev/null"]
        let output = Pipe(), input = Pipe()
        holder.standardOutput = output
        holder.standardInput = input
        try holder.run()
        // The barrier: flock(1) has the lock once its command prints.
        let said = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(said == "locked\n")
        #expect(throws: LockFileError.held(path: path, holder: LockHolder(pid: holder.processIdentifier, purpose: nil))) {
            _ = try LockFile.acquire(path: path, purpose: "gridlock enroll")
        }
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0)
        let mine = try LockFile.acquire(path: path, purpose: "gridlock enroll")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("\(getpid()) gridlock enroll\n"))
        mine.release()
    }

    @Test("the lines of holders long gone are cleared by the next holder, which keeps its own")
    func oldLinesAreCleared() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let path = "\(folder)/lock"
        let old = String(repeating: "4242 gridlock enroll\n", count: 1000)
        try Data(old.utf8).write(to: URL(fileURLWithPath: path))
        let lock = try LockFile.acquire(path: path, purpose: "gridlockd")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid()) gridlockd\n")
        lock.release()
        // A few lines are left as they are.
        let again = try LockFile.acquire(path: path, purpose: "gridlockd")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid()) gridlockd\n\(getpid()) gridlockd\n")
        again.release()
    }

    @Test("a symbolic link or a FIFO where the lock file belongs is refused, never followed or waited on")
    func aLinkOrAFIFOIsRefused() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        symlink("\(folder)/elsewhere", "\(folder)/link")
        #expect(throws: LockFileError.cannotLock(SystemCallError(operation: "open", path: "\(folder)/link", errno: Errno(rawValue: ELOOP)))) {
            _ = try LockFile.acquire(path: "\(folder)/link", purpose: "test")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/elsewhere"))
        mkfifo("\(folder)/fifo", 0o600)
        #expect(throws: LockFileError.notARegularFile(path: "\(folder)/fifo", kind: "a FIFO")) {
            _ = try LockFile.acquire(path: "\(folder)/fifo", purpose: "test")
        }
    }
}
