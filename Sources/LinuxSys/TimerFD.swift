import CLinux
import Glibc
import GridlockCore

/// One CLOCK_MONOTONIC timer as a descriptor: the loop's only source of timeouts, so a
/// wall-clock change can neither shorten a lockout nor stall a countdown.
public final class TimerFD {
    public let fileDescriptor: FileDescriptor

    public init() throws(SystemCallError) {
        let fd = try systemCall("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        }
        fileDescriptor = FileDescriptor(rawValue: fd)
    }

    deinit { fileDescriptor.close() }

    /// Fires once at an absolute CLOCK_MONOTONIC time. A time already past fires at
    /// once: it is clamped to 1 ns because an all-zero value would disarm instead.
    public func arm(at deadline: Instant) throws(SystemCallError) {
        let clamped = max(deadline.nanoseconds, 1)
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(clamped / 1_000_000_000)
        spec.it_value.tv_nsec = Int(clamped % 1_000_000_000)
        _ = try systemCall("timerfd_settime") {
            timerfd_settime(fileDescriptor.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil)
        }
    }

    public func disarm() throws(SystemCallError) {
        var spec = itimerspec()
        _ = try systemCall("timerfd_settime") { timerfd_settime(fileDescriptor.rawValue, 0, &spec, nil) }
    }

    /// Clears readiness and returns how many expirations happened; 0 when the timer
    /// had not fired (e.g. it was re-armed between the wait and this read).
    @discardableResult
    public func acknowledge() throws(SystemCallError) -> UInt64 {
        var expirations: UInt64 = 0
        let count = try withUnsafeMutableBytes(of: &expirations) { (raw) throws(SystemCallError) -> Int? in
            try fileDescriptor.read(into: raw)
        }
        return count == 8 ? expirations : 0
    }
}
