/// The one timer a machine asks its shell for (`LockMachine`, `FaceMachine`), and when to
/// ask again.
///
/// The shell's timer fires once. A deadline still due after it fired is armed again (the
/// same instant; at the end of time, where deadlines saturate at `Instant.max`, it would
/// otherwise never fire again); any other deadline is said only when it changed.
struct ShellTimer: Hashable, Sendable {
    enum Change: Hashable, Sendable {
        case arm(Instant)
        case disarm
    }

    private var armed: Instant?

    /// What to tell the shell now that the next deadline is `deadline`; nil: nothing.
    mutating func change(to deadline: Instant?, now: Instant, timerFired: Bool) -> Change? {
        guard deadline != armed || (timerFired && deadline.map { $0 <= now } == true) else { return nil }
        armed = deadline
        return deadline.map { .arm($0) } ?? .disarm
    }
}

extension Instant {
    /// When a countdown to this instant, shown in whole seconds rounded up, next shows
    /// another number: one tick a second, aligned so the shown number changes on time.
    func nextCountdownChange(from now: Instant) -> Instant {
        let whole = duration(since: now).secondsRoundedUp
        return whole > 1 ? self + .seconds(-(whole - 1)) : self
    }
}
