/// What must survive a restart or a power cut: the consecutive failures and whether
/// a lockout was in force. A lockout in force restarts in full after a restart, so no
/// wall-clock time is stored (panels often have no RTC, and a clock set backwards
/// must never shorten a lockout).
public struct AttemptState: Hashable, Sendable {
    public var failures: Int
    public var lockoutPending: Bool

    public init(failures: Int = 0, lockoutPending: Bool = false) {
        self.failures = failures
        self.lockoutPending = lockoutPending
    }

    public static let clean = AttemptState()
}
