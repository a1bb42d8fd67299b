import Glibc
import GridlockCore

/// CLOCK_MONOTONIC: the clock of the kernel's input timestamps (gridlock asks evdev for
/// it), of the timerfd and of every deadline, so times from all three compare directly.
public enum MonotonicClock {
    /// The clock's id, for C libraries that take one (libevdev's event timestamps).
    public static let id: clockid_t = CLOCK_MONOTONIC

    public static func now() -> Instant {
        var spec = timespec()
        // Cannot fail for CLOCK_MONOTONIC with a valid pointer.
        clock_gettime(id, &spec)
        return Instant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }
}
