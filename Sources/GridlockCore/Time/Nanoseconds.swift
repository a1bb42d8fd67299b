/// Conversions of time readings to nanoseconds that never trap: a file stamped in 2300, a
/// wall clock set past 2262-04-11 (where nanoseconds since 1970 leave `Int64`), a recording
/// or a byte stream claiming any time at all. Each result saturates at `Int64.min` or
/// `Int64.max`, so an absurd reading compares as "the ends of time" and the code judging it
/// decides what that means, instead of the process dying with SIGILL.
public enum Nanoseconds {
    /// `seconds` and `fraction` in units of `1 / perSecond` (1_000_000_000 for a timespec,
    /// 1_000_000 for a timeval), as nanoseconds. A fraction outside 0 ..< perSecond (a
    /// hostile byte stream) still adds up without trapping.
    public static func from(seconds: Int64, fraction: Int64, perSecond: Int64 = 1_000_000_000) -> Int64 {
        precondition(perSecond > 0 && 1_000_000_000 % perSecond == 0, "perSecond must divide a second into nanoseconds")
        // Whole seconds of the fraction join the seconds (a sum that saturates only where the
        // result is far beyond Int64 anyway); what is left is less than a second.
        let whole = sum(seconds, fraction / perSecond)
        let part = (fraction % perSecond) * (1_000_000_000 / perSecond)
        // whole * 10^9 + part in 128 bits, then clamped: exact wherever the result fits.
        let (high, low) = whole.multipliedFullWidth(by: 1_000_000_000)
        let (sumLow, carry) = low.addingReportingOverflow(UInt64(bitPattern: part))
        let sumHigh = high &+ (part < 0 ? -1 : 0) &+ (carry ? 1 : 0)
        if sumHigh == 0, sumLow <= UInt64(Int64.max) { return Int64(sumLow) }
        if sumHigh == -1, sumLow >= UInt64(bitPattern: Int64.min) { return Int64(bitPattern: sumLow) }
        return sumHigh < 0 ? .min : .max
    }

    /// A number of seconds as nanoseconds, rounded to the nearest; NaN is zero, infinities
    /// and anything beyond `Int64` saturate.
    public static func from(seconds: Double) -> Int64 {
        let value = (seconds * 1e9).rounded()
        if value.isNaN { return 0 }
        // 2^63 is exactly representable; anything at or past it does not fit.
        if value >= 9_223_372_036_854_775_808.0 { return .max }
        if value < -9_223_372_036_854_775_808.0 { return .min }
        return Int64(value)
    }

    /// `a + b`, saturating.
    public static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        if overflow { return b > 0 ? .max : .min }
        return result
    }

    /// `a - b`, saturating.
    public static func difference(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.subtractingReportingOverflow(b)
        if overflow { return b < 0 ? .max : .min }
        return result
    }

    /// `a * b`, saturating.
    public static func product(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        if overflow { return (a < 0) != (b < 0) ? .min : .max }
        return result
    }
}

extension Instant {
    /// A timespec-like reading (`fraction` in `1 / perSecond` units), saturating.
    public init(seconds: Int64, fraction: Int64, perSecond: Int64 = 1_000_000_000) {
        self.init(nanoseconds: Nanoseconds.from(seconds: seconds, fraction: fraction, perSecond: perSecond))
    }
}

extension Duration {
    /// `seconds` (a fraction allowed) as a duration that never traps: see `Nanoseconds.from(seconds:)`.
    public static func saturating(seconds: Double) -> Duration { .nanoseconds(Nanoseconds.from(seconds: seconds)) }
}
