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

    /// Where the count stops: far beyond any real run of failures (the Android schedule is
    /// at its one-day maximum from 140), and what the state file's nine digits can hold.
    public static let maximumFailures = 999_999_999

    /// One more failure, saturating at `maximumFailures`.
    public mutating func countFailure() {
        failures = min(failures, Self.maximumFailures - 1) + 1
    }
}
