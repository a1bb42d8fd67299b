import GridlockCore
import LinuxSys

/// The daemon's deadlines on its loop, one per purpose, so the wake-up counts say which
/// of them woke it. The sources set their own (the touch source's "touch", the beeper's).
final class DaemonTimers {
    /// The lock machine's one timer (feedback shown, lockout countdown).
    let lock: EventLoop.Deadline
    /// A tip drawn ahead of the finger goes back on it (no touch sample came: it rests).
    let tip: EventLoop.Deadline
    let blank: EventLoop.Deadline
    let watchdog: EventLoop.Deadline
    /// Enrollment gives up when nothing was enrolled in time.
    let giveUp: EventLoop.Deadline
    private let watchdogInterval: Duration?

    init(loop: EventLoop, watchdogInterval: Duration?) {
        lock = loop.deadline("lock screen")
        tip = loop.deadline("tip")
        blank = loop.deadline("blank")
        watchdog = loop.deadline("watchdog")
        giveUp = loop.deadline("give up")
        self.watchdogInterval = watchdogInterval
    }

    /// Pings at half systemd's WatchdogSec=, as sd_watchdog_enabled(3) advises.
    func startWatchdog(now: Instant) {
        watchdog.due = watchdogInterval.map { now + $0 / 2 }
    }
}
