import Glibc

/// An exclusive advisory lock (`flock(2)`) on a file, held while this object lives: for a
/// change that must not interleave with the same change made by another process (two
/// `gridlock enroll` writing one drop-in). `acquire` never waits: a lock held elsewhere is
/// refused at once, naming its holder, so a person can be told whom to wait for.
///
/// The file is opened close-on-exec (a program started meanwhile does not inherit the lock)
/// and without following a symbolic link, created with mode 0600 when missing, and kept
/// afterwards: removing a lock file while it is held would let the next process lock a new
/// file beside the old lock.
///
/// Who holds it: every acquirer first appends the line `PID PURPOSE` to the file, and only
/// then tries the lock, so the holder's line is complete before anyone can be refused by
/// it. A refused caller asks the kernel which pid holds the flock (`/proc/locks`) and takes
/// that pid's last line: never a line left by an earlier holder or by another refused
/// caller. The lines are cleared by a holder that finds more than a few hundred of them.
///
/// The lock is released by `release()`, when the object is freed, or when the process ends,
/// however it ends: no stale lock outlives its holder.
public final class LockFile {
    public let path: String
    /// What the holder is doing, in words a refused caller can show (`gridlock enroll`).
    public let purpose: String
    private var descriptor: FileDescriptor?

    /// Lines past this are cleared by the next holder.
    static let compactionBytes = 16 * 1024
    /// What a refused caller reads of the lines at most, from their end.
    static let readBytes = 64 * 1024

    private init(path: String, purpose: String, descriptor: FileDescriptor) {
        self.path = path
        self.purpose = purpose
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock on `path` for `purpose` (kept to one line), or throws `.held` naming the
    /// process that has it.
    public static func acquire(path: String, purpose: String) throws(LockFileError) -> LockFile {
        let file: FileDescriptor
        var writable = true
        do {
            // O_NONBLOCK: a FIFO put in its place is refused below, never waited on.
            file = try FileDescriptor.open(
                path, [.readWrite, .create, .nonBlocking, OpenFlags(rawValue: O_NOFOLLOW | O_APPEND)], mode: 0o600)
        } catch where error.errno == Errno(rawValue: EROFS) {
            // A read-only file system: an existing lock file still locks (flock needs no write).
            do {
                file = try FileDescriptor.open(path, [.readOnly, .nonBlocking, OpenFlags(rawValue: O_NOFOLLOW)])
                writable = false
            } catch {
                throw .cannotLock(SystemCallError(operation: "open", path: path, errno: Errno(rawValue: EROFS)))
            }
        } catch {
            throw .cannotLock(error)
        }
        let status: FileStatus
        do {
            status = try FileStatus(descriptor: file, path: path)
        } catch {
            file.close()
            throw .cannotLock(error)
        }
        guard status.isRegularFile else {
            file.close()
            throw .notARegularFile(path: path, kind: status.kind)
        }
        var line = Array("\(getpid()) \(purpose.split(whereSeparator: \.isNewline).joined(separator: " "))\n".utf8)
        do {
            // One write with O_APPEND: whole, after whatever others appended. The line only
            // names the holder: on a full or read-only file system the lock holds without it.
            if writable { try file.writeAll(line) } else { line = [] }
        } catch {
            line = []
        }
        // With O_APPEND the offset is where our line ended.
        let ours = Int(lseek(file.rawValue, 0, SEEK_CUR))
        guard retryingOnInterrupt({ flock(file.rawValue, LOCK_EX | LOCK_NB) }) == 0 else {
            let errno = Errno.current
            defer { file.close() }
            if errno == .wouldBlock {
                let holder = holder(of: file, identity: status.identity, excluding: (ours - line.count)..<ours)
                throw .held(path: path, holder: holder)
            }
            throw .cannotLock(SystemCallError(operation: "flock", path: path, errno: errno))
        }
        // Lines of holders long gone: cleared, and ours written again. A caller refused in
        // between is told the pid only.
        if status.size > compactionBytes, ftruncate(file.rawValue, 0) == 0 {
            try? file.writeAll(line)
        }
        return LockFile(path: path, purpose: purpose, descriptor: file)
    }

    /// Lets go of the lock; a second call does nothing.
    public func release() {
        descriptor?.close()
        descriptor = nil
    }

    /// Who holds the lock on the file open as `file`: the pid the kernel reports for its
    /// flock, with the purpose of that pid's last line (`ours`, the refused caller's own
    /// line, left out: in the same process it has the holder's pid). Lines of earlier refused
    /// attempts of the holder's own process carry its pid too; across processes, which is
    /// what the lock is for, a refused caller's pid is never the holder's.
    private static func holder(of file: FileDescriptor, identity: FileStatus.Identity, excluding ours: Range<Int>) -> LockHolder? {
        guard let pid = kernelHolder(device: identity.device, inode: identity.inode) else { return nil }
        let line = writtenLines(of: file, excluding: ours).last { $0.pid == pid }
        return LockHolder(pid: pid, purpose: line?.purpose)
    }

    /// The complete `PID PURPOSE` lines among the last `readBytes` of the file, but the one at `ours`.
    private static func writtenLines(of file: FileDescriptor, excluding ours: Range<Int>) -> [LockHolder] {
        var end = stat()
        guard fstat(file.rawValue, &end) == 0 else { return [] }
        let start = max(0, Int(end.st_size) - readBytes)
        var buffer = [UInt8](repeating: 0, count: Int(end.st_size) - start)
        let count = buffer.withUnsafeMutableBytes { raw in
            retryingOnInterrupt { pread(file.rawValue, raw.baseAddress, raw.count, off_t(start)) }
        }
        guard count > 0 else { return [] }
        var lines = buffer[..<count].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()  // after the last line break: nothing, or a line not whole yet
        if start > 0, !lines.isEmpty { lines.removeFirst() }  // begun before what was read
        // The slices keep the buffer's indices: offset in the file = start + index.
        return lines.filter { start + $0.startIndex != ours.lowerBound }.compactMap { bytes in
            let line = String(decoding: bytes, as: UTF8.self)
            guard let space = line.firstIndex(of: " "), let pid = Int32(line[..<space]), pid > 0 else { return nil }
            let purpose = String(line[line.index(after: space)...])
            return LockHolder(pid: pid, purpose: purpose.isEmpty ? nil : purpose)
        }
    }

    /// The pid `/proc/locks` gives for the FLOCK held on this file (`MAJOR:MINOR:INODE`, the
    /// numbers in hex, hex, decimal); a file system whose `st_dev` differs from the one the
    /// kernel prints (btrfs subvolumes) is matched by the inode alone.
    private static func kernelHolder(device: UInt64, inode: UInt64) -> Int32? {
        guard let bytes = try? AtomicFile.read("/proc/locks") else { return nil }
        // glibc's gnu_dev_major and gnu_dev_minor, macros Swift does not import.
        let major = (device >> 8) & 0xFFF | (device >> 32) & 0xFFFF_F000
        let minor = device & 0xFF | (device >> 12) & 0xFFFF_FF00
        var sameInode: Int32?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            // `N: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE START END`; a waiter has `->` after `N:`.
            guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE", let pid = Int32(fields[4]) else { continue }
            let place = fields[5].split(separator: ":")
            guard place.count == 3, UInt64(place[2]) == inode else { continue }
            if UInt64(place[0], radix: 16) == major, UInt64(place[1], radix: 16) == minor { return pid }
            sameInode = sameInode ?? pid
        }
        return sameInode
    }
}

/// The process holding a `LockFile`, as a refused caller can tell it.
public struct LockHolder: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    /// What it wrote it is doing; nil when its line could not be found.
    public var purpose: String?

    public init(pid: Int32, purpose: String?) {
        self.pid = pid
        self.purpose = purpose
    }

    /// `gridlock enroll (pid 1234)`, or `pid 1234` when it did not say what it does.
    public var description: String { purpose.map { "\($0) (pid \(pid))" } ?? "pid \(pid)" }
}

public enum LockFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another process (or another open of the file in this one) holds the lock; `holder` is
    /// nil only when the kernel could not name it (no `/proc`).
    case held(path: String, holder: LockHolder?)
    /// Something other than a regular file is where the lock file belongs.
    case notARegularFile(path: String, kind: String)
    case cannotLock(SystemCallError)

    public var description: String {
        switch self {
        case .held(let path, let holder?): "\(path) is locked by \(holder)"
        case .held(let path, nil): "\(path) is locked by another process"
        case .notARegularFile(let path, let kind): "cannot lock \(path): it is \(kind), not a regular file"
        case .cannotLock(let error): "cannot lock: \(error)"
        }
    }
}
