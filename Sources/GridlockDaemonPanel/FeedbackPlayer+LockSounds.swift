import GridlockDaemon
import GridlockEvdev

/// The lock's sounds on the panel's beeper (`[feedback] beeper=`).
extension FeedbackPlayer: LockSounds {}
