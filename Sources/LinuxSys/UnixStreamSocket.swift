import CLinux
import Glibc

/// A client's non-blocking connect to a listening `SOCK_STREAM` Unix socket (a Wayland
/// compositor's): it never waits, so a listener whose queue is full cannot hold the caller
/// in connect(2) while signals wait.
public enum UnixStreamSocket {
    public enum Connecting: Sendable {
        case connected(FileDescriptor)
        /// The listener's queue is full (EAGAIN): try again later.
        case queueFull
    }

    public static func connect(to path: String) throws(SystemCallError) -> Connecting {
        var address = try SeqPacketListener.address(path, operation: "connect")
        let fd = try systemCall("socket(AF_UNIX, SOCK_STREAM)") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        let result = retryingOnInterrupt {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        let error = Errno.current
        if result == 0 || error == Errno(rawValue: EINPROGRESS) { return .connected(FileDescriptor(rawValue: fd)) }
        Glibc.close(fd)
        if error == .wouldBlock { return .queueFull }
        throw SystemCallError(operation: "connect", path: path, errno: error)
    }
}
