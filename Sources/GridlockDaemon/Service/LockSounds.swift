import GridlockCore

/// The lock's sounds, as the daemon feeds them: each report and selection as it happens,
/// played after the round's frame. `FeedbackPlayer` in `GridlockDaemonPanel`.
public protocol LockSounds: AnyObject {
    func note(_ report: LockReport)
    func noteSelection(before: Int, after: Int)
    func afterRound(now: Instant)
    func setSounds(_ sounds: FeedbackSounds)
    func stop()
}
