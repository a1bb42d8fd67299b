import CLinux
import Glibc

/// A plain file descriptor. It does not close itself: ownership stays explicit, and the
/// classes in this module that own one close it in `deinit`.
public struct FileDescriptor: Hashable, Sendable {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// stderr, where systemd connects the journal and a person at a terminal reads errors.
    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// Always adds O_CLOEXEC: the daemon spawns actions, and a touch device or the DRM
    /// master leaking into one would be a security hole.
    public static func open(
        _ path: String, _ flags: OpenFlags, mode: FileMode = 0o644
    ) throws(SystemCallError) -> FileDescriptor {
        let fd = try systemCall("open", path: path) { Glibc.open(path, flags.rawValue | O_CLOEXEC, mode) }
        return FileDescriptor(rawValue: fd)
    }

    /// A pipe whose read end is non-blocking for a poll loop; the write end stays
    /// blocking because it is usually handed to a child that expects ordinary stdio.
    public static func pipe() throws(SystemCallError) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        _ = try systemCall("pipe2") { pipe2(&fds, O_CLOEXEC) }
        let read = FileDescriptor(rawValue: fds[0])
        let write = FileDescriptor(rawValue: fds[1])
        do {
            try read.setNonBlocking()
        } catch {
            read.close()
            write.close()
            throw error
        }
        return (read, write)
    }

    /// Two connected ends of a stream socket, close-on-exec and blocking: a peer for a
    /// library that speaks over one (a Wayland client given a connection's descriptor).
    public static func streamSocketPair() throws(SystemCallError) -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        _ = try systemCall("socketpair(AF_UNIX, SOCK_STREAM)") {
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// Errors are not reported: after close(2) fails the descriptor is gone on Linux
    /// anyway, and there is nothing a caller could do differently.
    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// Reads what is available. Returns nil when a non-blocking descriptor has nothing
    /// right now (EAGAIN), 0 at end of file, otherwise the byte count, so a caller can
    /// drain with `while let n = try fd.read(into: buffer), n > 0 { ... }`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        let count = retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
        if count >= 0 { return count }
        let error = Errno.current
        if error == .wouldBlock { return nil }
        throw SystemCallError(operation: "read", path: "fd \(rawValue)", errno: error)
    }

    /// Writes every byte, continuing after short writes.
    public func writeAll(_ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                retryingOnInterrupt { Glibc.write(rawValue, raw.baseAddress! + offset, raw.count - offset) }
            }
            if written < 0 {
                throw SystemCallError(operation: "write", path: "fd \(rawValue)", errno: .current)
            }
            offset += written
        }
    }

    /// The bytes a pipe holds, not yet read (FIONREAD); asked on the write end, whether the
    /// reader has taken everything written so far.
    public func bytesWaiting() throws(SystemCallError) -> Int {
        Int(try systemCall("ioctl(FIONREAD)", path: "fd \(rawValue)") { gridlock_bytes_waiting(rawValue) })
    }

    public func setNonBlocking() throws(SystemCallError) {
        let flags = try systemCall("fcntl(F_GETFL)", path: "fd \(rawValue)") { fcntl(rawValue, F_GETFL) }
        if flags & O_NONBLOCK != 0 { return }
        _ = try systemCall("fcntl(F_SETFL)", path: "fd \(rawValue)") {
            fcntl(rawValue, F_SETFL, flags | O_NONBLOCK)
        }
    }

    public func fsync() throws(SystemCallError) {
        _ = try systemCall("fsync", path: "fd \(rawValue)") { Glibc.fsync(rawValue) }
    }

    /// Blocks up to `milliseconds` for the descriptor to become readable; false on timeout
    /// or error. For the rare wait outside the event loop (a last page flip before exit).
    public func waitUntilReadable(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        return retryingOnInterrupt { poll(&entry, 1, milliseconds) } > 0
    }
}

/// How `FileDescriptor.open` opens a file: one access mode (`readOnly` is the empty set,
/// as O_RDONLY is 0) plus options. O_CLOEXEC is not offered: `open` always adds it.
public struct OpenFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let readOnly = OpenFlags(rawValue: O_RDONLY)
    public static let writeOnly = OpenFlags(rawValue: O_WRONLY)
    public static let readWrite = OpenFlags(rawValue: O_RDWR)
    public static let create = OpenFlags(rawValue: O_CREAT)
    /// With `create`: fail with EEXIST rather than open a file that is already there.
    public static let exclusive = OpenFlags(rawValue: O_EXCL)
    public static let truncate = OpenFlags(rawValue: O_TRUNC)
    public static let nonBlocking = OpenFlags(rawValue: O_NONBLOCK)
    /// Fail with ENOTDIR unless the path is a directory.
    public static let directory = OpenFlags(rawValue: O_DIRECTORY)
}
