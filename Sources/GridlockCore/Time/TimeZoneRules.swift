/// A time zone as the shell knows it: the offset from UTC in force at each instant.
/// Everything else (the wall reading of an instant, the instants of a wall reading,
/// repeated and skipped hours) is derived from it here, so the rules for daylight saving
/// are the core's, tested with real zone data, whatever the shell reads the zone from.
public protocol TimeZoneRules: Sendable {
    /// Seconds east of UTC at `epochSeconds` (Berlin in summer: 7200). Throws when the
    /// zone cannot tell, for an instant beyond what it can convert.
    func utcOffset(at epochSeconds: Int64) throws(TimeConversionError) -> Int
}

/// A zone that is always the same distance from UTC (UTC itself, or a panel set to one).
public struct FixedOffsetZone: TimeZoneRules, Hashable {
    public var secondsEast: Int

    public init(secondsEast: Int) { self.secondsEast = secondsEast }

    public static let utc = FixedOffsetZone(secondsEast: 0)

    public func utcOffset(at epochSeconds: Int64) throws(TimeConversionError) -> Int { secondsEast }
}

/// Why an instant or a wall reading could not be converted. Schedules fail closed on it.
public enum TimeConversionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The zone refused the instant (the system's: `localtime_r` and its errno).
    case zoneFailed(epochSeconds: Int64, reason: String)
    /// The instant's wall reading would lie outside `LocalDateTime.supportedYears`.
    case outOfRange(epochSeconds: Int64)
    /// A wall reading outside `LocalDateTime.supportedYears`, near the ends of the calendar.
    case wallTimeOutOfRange
    /// The zone answered something no zone does (an offset beyond a day, a gap it cannot place).
    case inconsistentZone(String)

    public var description: String {
        switch self {
        case .zoneFailed(let seconds, let reason):
            "the time zone cannot convert the clock's \(seconds) s since 1970 (\(reason))"
        case .outOfRange(let seconds):
            "the clock reads \(seconds) s since 1970, outside the years \(LocalDateTime.supportedYears.lowerBound) to \(LocalDateTime.supportedYears.upperBound)"
        case .wallTimeOutOfRange:
            "the time asked about lies outside the years \(LocalDateTime.supportedYears.lowerBound) to \(LocalDateTime.supportedYears.upperBound)"
        case .inconsistentZone(let what): "the time zone is inconsistent: \(what)"
        }
    }
}

/// The instants at which a wall clock reads a given local time.
public enum LocalTimeResolution: Hashable, Sendable {
    case unique(Int64)
    /// The clocks went back: the reading happens twice, `second - first` apart.
    case repeated(first: Int64, second: Int64)
    /// The clocks jumped forward over it: it never happens. `jump` is the first instant
    /// after the gap, the moment the clocks jumped.
    case skipped(jump: Int64)

    /// The instant a window or validity starting at this reading begins. In doubt, later:
    /// a start in a repeated hour counts at its second occurrence, one in a gap at the jump.
    public var asStart: Int64 {
        switch self {
        case .unique(let instant): instant
        case .repeated(_, let second): second
        case .skipped(let jump): jump
        }
    }

    /// The instant a window ending at this reading ends (not included). In doubt, earlier:
    /// an end in a repeated hour counts at its first occurrence, so the repeat never
    /// reopens what has closed; one in a gap at the jump.
    public var asEnd: Int64 {
        switch self {
        case .unique(let instant): instant
        case .repeated(let first, _): first
        case .skipped(let jump): jump
        }
    }

    /// The first instant after a last valid second at this reading (`valid-until`):
    /// refused from it on. A repeated last second counts at its first occurrence; one in a
    /// gap expires at the jump (every instant before it reads earlier, every one after later).
    public var afterLastSecond: Int64 {
        switch self {
        case .unique(let instant): instant + 1
        case .repeated(let first, _): first + 1
        case .skipped(let jump): jump
        }
    }
}

extension TimeZoneRules {
    /// An offset beyond this is a broken zone: the widest today are -12 h and +14 h, the
    /// widest ever (a local mean time) about 16 h, and POSIX TZ strings stop at 24:59:59.
    static var offsetLimit: Int { 26 * 3600 }

    /// How far around a wall reading the offsets in force are sought: transitions are
    /// never this close together, and the widest jump (Samoa skipping a day) fits in it.
    static var probeSpan: Int64 { 2 * CivilCalendar.secondsPerDay }

    /// Instants the zone is asked about stay in the calendar and a little around it, so
    /// that no arithmetic on them can overflow and an absurd clock never reaches libc.
    private static var probeRange: ClosedRange<Int64> {
        let margin = Int64(offsetLimit) + 2 * probeSpan
        return (LocalDateTime.earliestWallSeconds - margin)...(LocalDateTime.latestWallSeconds + margin)
    }

    /// The wall reading at `epochSeconds`.
    public func reading(at epochSeconds: Int64) throws(TimeConversionError) -> LocalDateTime {
        guard let reading = LocalDateTime(wallSeconds: try wallSeconds(at: epochSeconds)) else {
            throw .outOfRange(epochSeconds: epochSeconds)
        }
        return reading
    }

    /// The instants at which the wall clock reads `local`.
    public func resolve(_ local: LocalDateTime) throws(TimeConversionError) -> LocalTimeResolution {
        guard let wall = local.wallSeconds else { throw .wallTimeOutOfRange }
        return try resolve(wallSeconds: wall)
    }

    func resolve(wallSeconds wall: Int64) throws(TimeConversionError) -> LocalTimeResolution {
        guard (LocalDateTime.earliestWallSeconds...LocalDateTime.latestWallSeconds).contains(wall) else {
            throw .wallTimeOutOfRange
        }
        // Every offset in force near the reading; the instant `wall - offset` is a
        // candidate, and a real one if that offset is the one in force at it.
        var offsets: [Int] = []
        for probe in [wall - Self.probeSpan, wall, wall + Self.probeSpan] {
            let offset = try checkedOffset(at: probe)
            if !offsets.contains(offset) { offsets.append(offset) }
        }
        var instants: [Int64] = []
        for offset in offsets {
            let candidate = wall - Int64(offset)
            if try checkedOffset(at: candidate) == offset { instants.append(candidate) }
        }
        if let first = instants.min(), let last = instants.max() {
            return first == last ? .unique(first) : .repeated(first: first, second: last)
        }
        // In a gap: the jump is the first instant whose reading is at or after `wall`.
        // Every instant from `wall - largest offset` reads before `wall` until the jump.
        guard let smallest = offsets.min(), let largest = offsets.max() else {
            throw .inconsistentZone("no offset near \(wall)")
        }
        var before = wall - Int64(largest)
        var after = wall - Int64(smallest)
        guard try wallSeconds(at: before) < wall, try wallSeconds(at: after) >= wall else {
            throw .inconsistentZone("no instant reads \(LocalDateTime(wallSeconds: wall).map { "\($0)" } ?? "\(wall)"), and no jump over it")
        }
        while after - before > 1 {
            let middle = before + (after - before) / 2
            if try wallSeconds(at: middle) >= wall { after = middle } else { before = middle }
        }
        return .skipped(jump: after)
    }

    func wallSeconds(at epochSeconds: Int64) throws(TimeConversionError) -> Int64 {
        epochSeconds + Int64(try checkedOffset(at: epochSeconds))
    }

    private func checkedOffset(at epochSeconds: Int64) throws(TimeConversionError) -> Int {
        guard Self.probeRange.contains(epochSeconds) else { throw .outOfRange(epochSeconds: epochSeconds) }
        let offset = try utcOffset(at: epochSeconds)
        guard (-Self.offsetLimit...Self.offsetLimit).contains(offset) else {
            throw .inconsistentZone("an offset of \(offset) s from UTC at \(epochSeconds) s since 1970")
        }
        return offset
    }
}
