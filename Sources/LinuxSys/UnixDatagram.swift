import CLinux
import Glibc

/// One datagram to a local socket, the way systemd's own protocols (sd_notify, the
/// journal's native protocol) are spoken without linking libsystemd.
public enum UnixDatagram {
    /// `path` is a file system path, or an abstract socket name written with a leading `@`.
    public static func send(_ message: [UInt8], to path: String) throws(SystemCallError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(path.utf8)
        let isAbstract = pathBytes.first == UInt8(ascii: "@")
        // Abstract names start with a NUL and are not NUL-terminated; paths are.
        if isAbstract { pathBytes[0] = 0 } else { pathBytes.append(0) }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count <= capacity, !path.utf8.contains(0) else {
            throw SystemCallError(operation: "sendto", path: path, errno: .nameTooLong)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathBytes.count)

        let socketFD = try systemCall("socket(AF_UNIX)") {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        defer { close(socketFD) }
        _ = try systemCall("sendto", path: path) {
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(socketFD, message, message.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
    }
}
