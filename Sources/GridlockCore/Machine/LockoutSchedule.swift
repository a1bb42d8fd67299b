/// Failures -> how long the panel stays locked before the next attempt.
public enum LockoutSchedule: Hashable, Sendable, CustomStringConvertible {
    /// The schedule of Android's Gatekeeper: failures 1-4 free, 5: 30 s, 6-9 free,
    /// 10-29: 30 s each, 30-139: 30 s doubling every 10 failures, 140 and more: one day.
    case android
    /// Never lock out (for test benches; a door should not use it).
    case none
    /// Delay after failure 1, 2, ...; the last entry repeats for every later failure.
    case custom([Duration])

    /// The lockout that starts after the `failures`-th consecutive failure (zero: none).
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        switch self {
        case .none:
            return .zero
        case .custom(let delays):
            guard let last = delays.last else { return .zero }
            return failures <= delays.count ? delays[failures - 1] : last
        case .android:
            switch failures {
            case ..<5: return .zero
            case 5: return .seconds(30)
            case 6..<10: return .zero
            case 10..<30: return .seconds(30)
            case 30..<140: return .seconds(30 << ((failures - 30) / 10))
            default: return .seconds(24 * 60 * 60)
            }
        }
    }

    /// How many more failures may follow the `failures`-th before one starts a lockout: 0
    /// when the `failures`-th itself starts one, nil when no later failure ever will.
    public func failuresBeforeLockout(after failures: Int) -> Int? {
        // Past this count the schedule repeats one delay, so looking further finds nothing new.
        let settled: Int
        switch self {
        case .none: return nil
        case .android: settled = 140
        case .custom(let delays): settled = delays.count
        }
        let first = max(failures, 0)
        for count in first...max(first, settled) where delay(afterFailures: count) > .zero {
            return count - first
        }
        return nil
    }

    /// The fewest failures that lock out and for how long: what a corrupt state file
    /// is taken to mean, so that damaging it never earns free attempts.
    public var firstLockout: (failures: Int, delay: Duration)? {
        switch self {
        case .none: return nil
        case .android: return (5, .seconds(30))
        case .custom(let delays):
            guard let index = delays.firstIndex(where: { $0 > .zero }) else { return nil }
            return (index + 1, delays[index])
        }
    }

    /// The least wall-clock time an attacker at the panel needs to try `attempts` patterns:
    /// the sum of the lockouts after failures 1 ... attempts-1 (the drawing itself counted as free).
    public func minimumTimeToTry(attempts: Int) -> Duration {
        guard attempts > 1 else { return .zero }
        var total: Duration = .zero
        var failures = 1
        // Stretches of equal delay are summed by multiplication, so a million attempts cost nothing to compute.
        while failures < attempts {
            let delay = self.delay(afterFailures: failures)
            var end = failures + 1
            while end < attempts, end - failures < 1 << 20, self.delay(afterFailures: end) == delay, !isBoundary(end) { end += 1 }
            total += delay * (end - failures)
            failures = end
        }
        return total
    }

    private func isBoundary(_ failures: Int) -> Bool {
        if case .android = self { return failures % 10 == 0 || failures == 5 || failures == 6 || failures == 140 }
        return false
    }

    /// The longest lockout a schedule may give: a year. Longer ones are refused rather
    /// than risk arithmetic near the end of time, and no door needs them.
    public static let longestDelay = Duration.seconds(365 * 24 * 60 * 60)

    /// `android`, `none`, or delays in seconds joined by commas (`0,0,0,0,30,60`).
    public init(text: String) throws(LockoutScheduleError) {
        let trimmed = String(text.trimmingSpaces)
        switch trimmed {
        case "android": self = .android
        case "none": self = .none
        default:
            var delays: [Duration] = []
            for field in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
                let value = String(field).trimmingSpaces
                guard value.allSatisfy(\.isASCIIDigit), let seconds = Int(value) else {
                    // Digits beyond Int's range are still a number, only too long a one.
                    if !value.isEmpty, value.allSatisfy(\.isASCIIDigit) { throw .tooLong(String(value)) }
                    throw .badDelay(String(value))
                }
                guard Duration.seconds(seconds) <= Self.longestDelay else { throw .tooLong(String(value)) }
                delays.append(.seconds(seconds))
            }
            self = .custom(delays)
        }
    }

    public var description: String {
        switch self {
        case .android: "android"
        case .none: "none"
        case .custom(let delays): delays.map { String($0.components.seconds) }.joined(separator: ",")
        }
    }
}

public enum LockoutScheduleError: Error, Equatable, CustomStringConvertible {
    case badDelay(String)
    case tooLong(String)

    public var description: String {
        switch self {
        case .tooLong(let field):
            "a delay of \(field) s is longer than the longest allowed, \(LockoutSchedule.longestDelay.components.seconds) s (a year)"
        case .badDelay(let field):
            "'\(field)' is not a delay; use android, none, or whole seconds joined by commas (e.g. 0,0,0,0,30,60)"
        }
    }
}
