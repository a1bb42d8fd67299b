import Glibc
import GridlockCore

/// The clock file systems stamp a file's changes with (st_ctime): the kernel's coarse
/// real-time clock, which moves in ticks of a few milliseconds. Two changes in one tick
/// carry the same stamp, so a file truncated and written again within a tick looks
/// unchanged by its stamps alone; whoever must not read a file mid-write waits until
/// the stamps it saw are a tick in the past.
public enum FileTimestampClock {
    /// Nanoseconds since the epoch, as a change made now would be stamped; a clock set past
    /// 2262-04-11 reads as `Int64.max` (and before 1677 as `Int64.min`), never a trap.
    public static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &spec)
        return Nanoseconds.from(seconds: Int64(spec.tv_sec), fraction: Int64(spec.tv_nsec))
    }

    /// The precise real-time clock: a file system with fine-grained stamps (multigrain
    /// timestamps, Linux 6.13 and later) may stamp a change later than `now()` reads.
    public static func preciseNow() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Nanoseconds.from(seconds: Int64(spec.tv_sec), fraction: Int64(spec.tv_nsec))
    }

    /// One tick, in nanoseconds (4 ms with Debian's HZ=250).
    public static let tick: Int64 = {
        var spec = timespec()
        guard clock_getres(CLOCK_REALTIME_COARSE, &spec) == 0 else { return 10_000_000 }
        return max(Nanoseconds.from(seconds: Int64(spec.tv_sec), fraction: Int64(spec.tv_nsec)), 1)
    }()

    /// Returns once the clock reads later than `stamp`: at most `limit` later, so a clock
    /// stepped back by hours (a panel without an RTC setting its time) delays nothing.
    public static func wait(past stamp: Int64, limit: Int64 = 3 * tick) {
        let deadline = min(stamp, Nanoseconds.sum(now(), limit))
        // A clock at the end of Int64 (set past 2262) never reads later than that.
        guard deadline < .max else { return }
        while true {
            let left = Nanoseconds.difference(deadline, now())
            guard left >= 0 else { return }
            // The one sleep of gridlock outside its loop: a few milliseconds, only right
            // after a configuration file changed (see ConfigVerdict.check).
            var request = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000) + 1)
            if request.tv_nsec >= 1_000_000_000 { request.tv_sec += 1; request.tv_nsec -= 1_000_000_000 }
            nanosleep(&request, nil)
        }
    }
}
