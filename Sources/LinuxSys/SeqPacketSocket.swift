import CLinux
import Glibc

/// Who is at the other end of a local socket, as the kernel recorded it at connect.
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    public var description: String { "uid \(uid), pid \(pid)" }
}

/// One `SOCK_SEQPACKET` connection on a local socket: each `send` is one packet, each
/// `receive` reads one whole packet. Non-blocking; the owner closes it.
public struct SeqPacketConnection: Hashable, Sendable {
    public let descriptor: FileDescriptor

    public init(descriptor: FileDescriptor) { self.descriptor = descriptor }

    public enum Received: Hashable, Sendable {
        case message([UInt8])
        /// A packet longer than the buffer: its first bytes and its real length (the rest is
        /// dropped by the kernel; the next receive reads the next packet).
        case truncated(length: Int)
        /// Nothing to read now.
        case nothing
        /// The peer closed its end.
        case closed
    }

    /// Reads one packet of at most `limit` bytes, without blocking.
    public func receive(limit: Int) throws(SystemCallError) -> Received {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = retryingOnInterrupt {
            buffer.withUnsafeMutableBytes { Glibc.recv(descriptor.rawValue, $0.baseAddress, limit, Int32(MSG_DONTWAIT) | Int32(MSG_TRUNC)) }
        }
        if count < 0 {
            let error = Errno.current
            if error == .wouldBlock { return .nothing }
            if error == Errno(rawValue: ECONNRESET) { return .closed }
            throw SystemCallError(operation: "recv", path: "fd \(descriptor.rawValue)", errno: error)
        }
        // A SEQPACKET peer's close reads as 0; an empty packet cannot be told from it, and
        // carries no message anyway.
        if count == 0 { return .closed }
        if count > limit { return .truncated(length: count) }
        return .message(Array(buffer.prefix(count)))
    }

    /// Sends one packet without blocking and without SIGPIPE; false when the peer's queue is
    /// full (the packet is not sent).
    @discardableResult
    public func send(_ bytes: [UInt8]) throws(SystemCallError) -> Bool {
        let count = retryingOnInterrupt {
            Glibc.send(descriptor.rawValue, bytes, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
        }
        if count >= 0 { return true }
        let error = Errno.current
        if error == .wouldBlock { return false }
        throw SystemCallError(operation: "send", path: "fd \(descriptor.rawValue)", errno: error)
    }

    /// Who connected (`SO_PEERCRED`).
    public func peer() throws(SystemCallError) -> PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        _ = try systemCall("getsockopt(SO_PEERCRED)", path: "fd \(descriptor.rawValue)") {
            gridlock_peer_credentials(descriptor.rawValue, &pid, &uid, &gid)
        }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
    }

    public func close() { descriptor.close() }

    /// Reads and drops up to `limit` queued packets. A socket closed with packets unread
    /// resets the peer (ECONNRESET), which then loses the reply sent just before the close.
    public func discardQueued(upTo limit: Int) {
        var scratch: UInt8 = 0
        for _ in 0..<limit {
            let count = retryingOnInterrupt { Glibc.recv(descriptor.rawValue, &scratch, 1, Int32(MSG_DONTWAIT) | Int32(MSG_TRUNC)) }
            if count <= 0 { return }
        }
    }

    /// Connects to the listener at `path` (a face, and the tests).
    public static func connect(to path: String) throws(SystemCallError) -> SeqPacketConnection {
        var address = try SeqPacketListener.address(path, operation: "connect")
        let fd = try systemCall("socket(AF_UNIX, SOCK_SEQPACKET)") {
            socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do throws(SystemCallError) {
            _ = try systemCall("connect", path: path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
            }
            let connection = SeqPacketConnection(descriptor: FileDescriptor(rawValue: fd))
            try connection.descriptor.setNonBlocking()
            return connection
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// Two connected ends, both non-blocking.
    public static func pair() throws(SystemCallError) -> (SeqPacketConnection, SeqPacketConnection) {
        var fds: [Int32] = [-1, -1]
        _ = try systemCall("socketpair(AF_UNIX, SOCK_SEQPACKET)") {
            socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds)
        }
        return (SeqPacketConnection(descriptor: FileDescriptor(rawValue: fds[0])),
                SeqPacketConnection(descriptor: FileDescriptor(rawValue: fds[1])))
    }
}

/// A listening `SOCK_SEQPACKET` socket at a path, non-blocking: `accept` never waits.
public final class SeqPacketListener {
    public let path: String
    public let descriptor: FileDescriptor
    private var closed = false

    /// Binds `path` with `mode` and `group` (the owner stays this process's user, root in
    /// gridlockd) and listens. The folder must exist, be a real folder (no symbolic link),
    /// this user's and writable by no one else: the caller has judged it so
    /// (`ConfigVerdict`), and it is looked at again here, through the descriptor the
    /// socket is then made in.
    ///
    /// The name never appears with another owner or mode, and nothing is changed through a
    /// path someone else could swap: the socket is bound under a hidden name in that folder
    /// with umask 0777 (mode 0000), its group and mode are set on that name relative to the
    /// folder's descriptor (no link followed), it listens, and only then is it renamed onto
    /// `path`, replacing in one step a socket an earlier run left there. Any other kind of
    /// file at `path` is an error and left alone.
    public init(path: String, mode: FileMode, group: UInt32?, backlog: Int32 = 16) throws(SystemCallError) {
        // The final name must fit an address too: a face connects to it.
        _ = try Self.address(path, operation: "bind")
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        let name = String(path[path.index(after: slash)...])
        let hidden = ".binding.\(getpid())"
        let folderFD = try systemCall("open (the socket's folder)", path: folder) {
            open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        defer { Glibc.close(folderFD) }
        // Bound through the folder's descriptor (/proc/self/fd), so the folder judged is the
        // one bound in and a socket path of the longest length still leaves room for the
        // hidden name; the path itself where /proc is not mounted.
        let throughDescriptor = "/proc/self/fd/\(folderFD)/\(hidden)"
        var hiddenAddress = try Self.address(
            access("/proc/self/fd", F_OK) == 0 ? throughDescriptor : "\(folder)/\(hidden)", operation: "bind")
        var folderStatus = stat()
        _ = try systemCall("fstat", path: folder) { fstat(folderFD, &folderStatus) }
        guard folderStatus.st_uid == geteuid(), folderStatus.st_mode & 0o022 == 0 else {
            throw SystemCallError(operation: "bind (the folder is another user's or writable by others)", path: folder, errno: .permissionDenied)
        }
        var status = stat()
        if fstatat(folderFD, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT != S_IFSOCK {
            throw SystemCallError(operation: "bind (not a socket, left alone)", path: path, errno: .exists)
        }
        // One a crashed run of this pid left (a socket); any other file of that name is not ours.
        if fstatat(folderFD, hidden, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFSOCK {
            unlinkat(folderFD, hidden, 0)
        }
        let fd = try systemCall("socket(AF_UNIX, SOCK_SEQPACKET)") {
            socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        var bound = false
        do throws(SystemCallError) {
            // Linux takes a socket's mode from the umask at bind, not from an fchmod before it.
            let previous = umask(0o777)
            let result = withUnsafePointer(to: &hiddenAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            let bindErrno = Errno.current
            umask(previous)
            if result != 0 { throw SystemCallError(operation: "bind", path: "\(folder)/\(hidden)", errno: bindErrno) }
            bound = true
            // Only for a group: gridlockd's unit filters the chown calls out (@privileged),
            // and without one there is nothing to change.
            if let group {
                _ = try systemCall("fchownat", path: "\(folder)/\(hidden)") {
                    fchownat(folderFD, hidden, uid_t.max, group, AT_SYMLINK_NOFOLLOW)
                }
            }
            _ = try systemCall("fchmodat", path: "\(folder)/\(hidden)") { fchmodat(folderFD, hidden, mode, 0) }
            _ = try systemCall("listen", path: path) { listen(fd, backlog) }
            _ = try systemCall("renameat", path: path) { renameat(folderFD, hidden, folderFD, name) }
        } catch {
            if bound { unlinkat(folderFD, hidden, 0) }
            Glibc.close(fd)
            throw error
        }
        self.path = path
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// The next waiting connection, non-blocking; nil when none is waiting.
    public func accept() throws(SystemCallError) -> SeqPacketConnection? {
        let fd = retryingOnInterrupt { accept4(descriptor.rawValue, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)) }
        if fd >= 0 { return SeqPacketConnection(descriptor: FileDescriptor(rawValue: fd)) }
        let error = Errno.current
        // A connection that went away while queued is not the listener's failure.
        if error == .wouldBlock || error == Errno(rawValue: ECONNABORTED) { return nil }
        throw SystemCallError(operation: "accept4", path: path, errno: error)
    }

    /// Closes the socket and removes its name.
    /// Closes the socket and removes its name; once (a second call does nothing, so a
    /// name another process made since is never removed).
    public func close() {
        guard !closed else { return }
        closed = true
        descriptor.close()
        unlink(path)
    }

    static func address(_ path: String, operation: String) throws(SystemCallError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8) + [0]
        guard bytes.count <= MemoryLayout.size(ofValue: address.sun_path), !path.utf8.contains(0) else {
            throw SystemCallError(operation: operation, path: path, errno: .nameTooLong)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }
}

/// Names of users and groups, as the system's databases (NSS) give them.
public enum UserDatabase {
    public static func userID(named name: String) -> UInt32? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }

    public static func groupID(named name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }

    /// The uid this process runs as.
    public static var currentUserID: UInt32 { getuid() }
}
