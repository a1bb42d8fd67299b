/// A reading of a monotonic clock (CLOCK_MONOTONIC in the daemon, the recording's
/// timestamps in a replay, a counter in tests). The core never reads a clock itself.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = Instant(nanoseconds: 0)

    /// Saturate like `+`: an absurd reading clamps to the ends of time instead of trapping.
    public static func milliseconds(_ ms: Int64) -> Instant { Instant(nanoseconds: Nanoseconds.product(ms, 1_000_000)) }
    public static func seconds(_ s: Int64) -> Instant { Instant(nanoseconds: Nanoseconds.product(s, 1_000_000_000)) }

    public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }

    /// Saturates at the ends of time: a deadline a century away must not wrap into the past.
    public static func + (a: Instant, d: Duration) -> Instant {
        let (sum, overflow) = a.nanoseconds.addingReportingOverflow(d.nanoseconds)
        if overflow { return Instant(nanoseconds: d.nanoseconds > 0 ? .max : .min) }
        return Instant(nanoseconds: sum)
    }

    /// The time from `earlier` to `self` (negative if `earlier` is later).
    public func duration(since earlier: Instant) -> Duration {
        let (difference, overflow) = nanoseconds.subtractingReportingOverflow(earlier.nanoseconds)
        if overflow { return .nanoseconds(nanoseconds > earlier.nanoseconds ? Int64.max : Int64.min) }
        return .nanoseconds(difference)
    }

    public var description: String { "\(Double(nanoseconds) / 1e9)s" }
}

extension Duration {
    /// Saturates instead of trapping for durations beyond about 292 years.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return ns &+ attoseconds / 1_000_000_000
    }

    /// Whole seconds, rounded up: what a countdown shows.
    public var secondsRoundedUp: Int64 {
        let ns = nanoseconds
        guard ns > 0 else { return 0 }
        return ns / 1_000_000_000 + (ns % 1_000_000_000 == 0 ? 0 : 1)
    }
}
