import CLinux
import Glibc
import GridlockCore

/// The wall clock in the system's time zone, and whether it can be trusted: what patterns
/// with a schedule are judged by. Never used for lockouts (those run on CLOCK_MONOTONIC).
public enum SystemWallClock {
    /// systemd-timesyncd's flag, present once it synchronised the clock since boot.
    public static let timesyncFlag = "/run/systemd/timesync/synchronized"

    public static func now() -> WallTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let seconds = Int64(spec.tv_sec)
        return WallTime(local: local(epochSeconds: seconds), epochSeconds: seconds, synchronised: synchronisation().synchronised)
    }

    /// `epochSeconds` in the system's time zone (TZ or /etc/localtime, as date(1) reads it).
    public static func local(epochSeconds: Int64) -> LocalDateTime {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        localtime_r(&seconds, &parts)
        // A leap second (tm_sec 60) counts as the last second of its minute.
        return LocalDateTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: min(Int(parts.tm_sec), 59))
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
