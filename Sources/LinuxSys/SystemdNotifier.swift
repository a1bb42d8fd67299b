import CLinux
import Glibc

/// The sd_notify protocol without linking libsystemd: one datagram per state change to
/// the socket systemd names in `$NOTIFY_SOCKET`. Without that variable (not started
/// by systemd, or `Type=` other than notify) every call does nothing.
public struct SystemdNotifier: Sendable {
    /// A filesystem path, or an abstract socket name written with a leading `@`.
    public let socketPath: String?

    public init(socketPath: String?) {
        self.socketPath = (socketPath?.isEmpty ?? true) ? nil : socketPath
    }

    public static func fromEnvironment() -> SystemdNotifier {
        SystemdNotifier(socketPath: ProcessEnvironment.value("NOTIFY_SOCKET"))
    }

    /// Sends e.g. `READY=1`, `RELOADING=1`, `STOPPING=1` or `WATCHDOG=1`
    /// (several assignments may be joined with newlines).
    public func notify(_ state: String) throws(SystemCallError) {
        guard let socketPath else { return }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        let isAbstract = pathBytes.first == UInt8(ascii: "@")
        // Abstract names start with a NUL and are not NUL-terminated; paths are.
        if isAbstract { pathBytes[0] = 0 } else { pathBytes.append(0) }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count <= capacity, !socketPath.utf8.contains(0) else {
            throw SystemCallError(operation: "sd_notify", path: socketPath, errno: .nameTooLong)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathBytes.count)

        let socketFD = try systemCall("socket(AF_UNIX)") {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        defer { close(socketFD) }
        let message = Array(state.utf8)
        _ = try systemCall("sendto", path: socketPath) {
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(socketFD, message, message.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
    }

    /// How often systemd expects `WATCHDOG=1` (send at about half this), or nil when the
    /// watchdog is off or meant for another process (`WATCHDOG_PID` names a different
    /// pid, e.g. a wrapper that exec'd something else).
    public static func watchdogInterval(usec: String?, pid: String?, ownPID: Int32) -> Duration? {
        guard let usec, let microseconds = UInt64(usec), microseconds > 0, microseconds <= UInt64(Int64.max) else {
            return nil
        }
        if let pid, !pid.isEmpty, Int32(pid) != ownPID { return nil }
        return .microseconds(Int64(microseconds))
    }

    public static func watchdogIntervalFromEnvironment() -> Duration? {
        watchdogInterval(
            usec: ProcessEnvironment.value("WATCHDOG_USEC"), pid: ProcessEnvironment.value("WATCHDOG_PID"), ownPID: getpid())
    }
}
