import CLinux
import Glibc
import GridlockCore

/// The wall clock, the system's time zone, and whether the clock can be trusted: what
/// patterns with a schedule are judged by. Never used for lockouts (those run on
/// CLOCK_MONOTONIC).
public enum SystemWallClock {
    /// systemd-timesyncd's flag, present once it synchronised the clock since boot.
    public static let timesyncFlag = "/run/systemd/timesync/synchronized"

    public static func now() -> WallTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallTime(epochSeconds: Int64(spec.tv_sec), zone: SystemTimeZone(), synchronised: synchronisation().synchronised)
    }

    /// `epochSeconds` in the system's time zone (TZ or /etc/localtime, as date(1) reads it);
    /// nil when it cannot be converted (a time far outside the years 1 to 9999).
    public static func local(epochSeconds: Int64) -> LocalDateTime? {
        try? SystemTimeZone().reading(at: epochSeconds)
    }

    /// What the kernel says (adjtimex with nothing to set: STA_UNSYNC clear means an NTP
    /// client disciplines the clock). A sandbox may refuse even that read (systemd's
    /// `ProtectClock=` filters adjtimex); then systemd-timesyncd's flag file decides.
    public static func synchronisation() -> ClockSynchronisation {
        var state = timex()
        state.modes = 0
        let result = adjtimex(&state)
        if result >= 0 {
            let unsynchronised = state.status & Int32(STA_UNSYNC) != 0 || result == TIME_ERROR
            return ClockSynchronisation(synchronised: !unsynchronised, source: "the kernel (adjtimex)")
        }
        let refused = Errno(rawValue: errno)
        var status = stat()
        let flagged = stat(timesyncFlag, &status) == 0
        return ClockSynchronisation(
            synchronised: flagged,
            source: "\(timesyncFlag) (adjtimex: \(refused))")
    }
}

public struct ClockSynchronisation: Hashable, Sendable {
    public var synchronised: Bool
    /// Where the answer came from, for the journal.
    public var source: String
}

/// The system's time zone (TZ, or /etc/localtime) as glibc's `localtime_r` reads it: what
/// date(1) shows. Only the offset comes from libc; the core derives readings, repeated and
/// skipped hours from it.
public struct SystemTimeZone: TimeZoneRules {
    public init() {}

    public func utcOffset(at epochSeconds: Int64) throws(TimeConversionError) -> Int {
        // A 32-bit time_t (Debian before 13 on armhf) cannot hold every Int64.
        guard var seconds = time_t(exactly: epochSeconds) else {
            throw .zoneFailed(epochSeconds: epochSeconds, reason: "beyond a \(MemoryLayout<time_t>.size * 8)-bit time_t")
        }
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else {
            throw .zoneFailed(epochSeconds: epochSeconds, reason: "localtime_r: \(Errno.current)")
        }
        // The offset of the reading localtime_r made, not tm_gmtoff: in a `right/` zone the
        // reading also takes the leap seconds off (27 since 1972), and date(1) shows it.
        let reading = LocalDateTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
        return Int(reading.secondsSinceEpochAsIfUTC - epochSeconds)
    }
}
