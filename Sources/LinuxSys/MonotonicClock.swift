import Glibc

/// CLOCK_MONOTONIC, the clock the timerfd uses, so deadlines computed from `now()` and
/// armed on the timer agree. Plain nanoseconds: this module does not know the core's
/// `Instant`, the daemon converts.
public enum MonotonicClock {
    public static func now() -> Int64 {
        var spec = timespec()
        // Cannot fail for CLOCK_MONOTONIC with a valid pointer.
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
