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
        return Instant(seconds: Int64(spec.tv_sec), fraction: Int64(spec.tv_nsec))
    }

    /// Sleeps until the clock reads `instant` (at once if it already does). For tools that
    /// pace what they send another process (`gridlock bench` feeding a stroke), never for
    /// the daemon's loop, which waits on its deadlines.
    public static func sleep(until instant: Instant) {
        var request = timespec(tv_sec: Int(instant.nanoseconds / 1_000_000_000), tv_nsec: Int(instant.nanoseconds % 1_000_000_000))
        while clock_nanosleep(id, TIMER_ABSTIME, &request, nil) == EINTR {}
    }

    /// Sleeps for `duration` from now (the same tools, the same rule).
    public static func sleep(for duration: Duration) {
        sleep(until: now() + duration)
    }

    /// The time the kernel would stamp an input frame with now: for a tool that stands in
    /// for the kernel (`gridlock bench` writing a stroke's frames into a pipe), never for a
    /// component, which reads its loop's `now`.
    public static func inputStamp() -> Instant { now() }
}

/// Elapsed time for a figure (a benchmark's sample, how long start-up took), on
/// CLOCK_MONOTONIC. Code outside LinuxSys reads time through its loop (`EventLoop.now`)
/// and measures through this: no component keeps a clock of its own.
public struct Stopwatch: Sendable {
    public let started: Instant

    public init() { started = MonotonicClock.now() }

    public var elapsed: Duration { MonotonicClock.now().duration(since: started) }

    public var elapsedMilliseconds: Double { Double(elapsed.nanoseconds) / 1e6 }
}
