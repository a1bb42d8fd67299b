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
        do {
            try UnixDatagram.send(Array(state.utf8), to: socketPath)
        } catch {
            throw SystemCallError(operation: "sd_notify", path: socketPath, errno: error.errno)
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
