import GridlockCore

extension FuzzTargets {
    /// Every conversion of a time reading to nanoseconds (`Nanoseconds`, `Instant`,
    /// `Duration.saturating`): file stamps, clocks, recordings and event bytes go through
    /// them. Each must agree with exact arithmetic where the result fits and saturate the
    /// right way where it does not; a trap is a finding too.
    static let timeConversion = FuzzTarget(
        name: "time-conversion",
        summary: "`Nanoseconds` on any seconds, fraction and unit, and any Double: exact where it fits, saturated the right way where not",
        maximumLength: 25,
        run: { bytes throws(FuzzFinding) in
            guard bytes.count >= 17 else { return }
            func int64(_ at: Int) -> Int64 {
                (0..<8).reduce(Int64(0)) { $0 << 8 | Int64(bytes[at + $1]) }
            }
            let seconds = int64(0), fraction = int64(8)
            let units: [Int64] = [1_000_000_000, 1_000_000, 1_000, 1]
            let perSecond = units[Int(bytes[16] % 4)]
            let result = Nanoseconds.from(seconds: seconds, fraction: fraction, perSecond: perSecond)
            // Exact in 128 bits (two halves), to compare with.
            let exact = Wide.product(seconds, 1_000_000_000) + Wide.product(fraction, 1_000_000_000 / perSecond)
            try require(exact.clamped == result, "from(seconds: \(seconds), fraction: \(fraction), perSecond: \(perSecond)) = \(result), exact \(exact)")
            let a = seconds, b = fraction
            try require(Nanoseconds.sum(a, b) == (Wide(a) + Wide(b)).clamped, "sum(\(a), \(b))")
            try require(Nanoseconds.difference(a, b) == (Wide(a) + Wide(b).negated).clamped, "difference(\(a), \(b))")
            try require(Nanoseconds.product(a, b % 10_000_000_000) == Wide.product(a, b % 10_000_000_000).clamped, "product(\(a), \(b))")
            let double = Double(bitPattern: UInt64(bitPattern: seconds))
            let converted = Nanoseconds.from(seconds: double)
            if double.isNaN {
                try require(converted == 0, "NaN gave \(converted)")
            } else if double * 1e9 >= 9.3e18 {
                try require(converted == .max, "\(double) s gave \(converted)")
            } else if double * 1e9 <= -9.3e18 {
                try require(converted == .min, "\(double) s gave \(converted)")
            } else if abs(double) < 1e6 {
                try require(abs(Double(converted) - double * 1e9) <= 1, "\(double) s gave \(converted)")
            }
        },
        seeds: { _ in
            func bytes(_ a: Int64, _ b: Int64, _ unit: UInt8) -> [UInt8] {
                func be(_ v: Int64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }
                return be(a) + be(b) + [unit]
            }
            return [
                FuzzSeed("year-2300", bytes(10_413_792_000, 0, 0)), FuzzSeed("year-1900", bytes(-2_208_988_800, 0, 0)),
                FuzzSeed("last-nanosecond", bytes(9_223_372_036, 854_775_807, 0)), FuzzSeed("timeval", bytes(1_700_000_000, 999_999, 1)),
                FuzzSeed("extremes", bytes(.max, .min, 3)), FuzzSeed("negative-fraction", bytes(5, -1, 0)),
            ]
        })
}

/// A signed 128-bit integer as two halves: just enough to check saturated results exactly.
struct Wide: CustomStringConvertible {
    var high: Int64
    var low: UInt64

    init(high: Int64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(_ value: Int64) { self.init(high: value < 0 ? -1 : 0, low: UInt64(bitPattern: value)) }

    static func product(_ a: Int64, _ b: Int64) -> Wide {
        let (high, low) = a.multipliedFullWidth(by: b)
        return Wide(high: high, low: low)
    }

    static func + (x: Wide, y: Wide) -> Wide {
        let (low, carry) = x.low.addingReportingOverflow(y.low)
        return Wide(high: x.high &+ y.high &+ (carry ? 1 : 0), low: low)
    }

    var negated: Wide { Wide(high: ~high, low: ~low) + Wide(1) }

    /// Into `Int64`, saturating.
    var clamped: Int64 {
        if high == 0, low <= UInt64(Int64.max) { return Int64(low) }
        if high == -1, low >= UInt64(bitPattern: Int64.min) { return Int64(bitPattern: low) }
        return high < 0 ? .min : .max
    }

    var description: String { "(\(high), \(low))" }
}
