import Glibc
import GridlockCore

/// CLOCK_MONOTONIC: the clock of the kernel's input timestamps (gridlock asks evdev for
/// it), of the timerfd and of every deadline, so times from all three compare directly.
public enum MonotonicClock {
    public static func now() -> Instant {
        var spec = timespec()
        // Cannot fail for CLOCK_MONOTONIC with a valid pointer.
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Instant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }
}
