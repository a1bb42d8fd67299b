/// When a pattern may open the door: weekly windows (`Mon-Fri 07:00-09:30; Sat 08:00-12:00`)
/// and a first and last valid moment, all in local time. Outside them the pattern does not
/// match: the screen shows an ordinary wrong pattern, so an onlooker learns nothing.
///
/// They are judged on the instant, not on the wall reading: each start and end is turned
/// into an instant through the zone (`LocalTimeResolution`), so a wall time that repeats
/// when the clocks go back can neither reopen a pattern that has expired nor a window that
/// has closed, and a start or end in a skipped hour counts at the jump.
public struct PatternSchedule: Hashable, Sendable, CustomStringConvertible {
    /// Empty: any time of the week.
    public var windows: [WeeklyWindow]
    public var validFrom: LocalDateTime?
    public var validUntil: LocalDateTime?

    public init(windows: [WeeklyWindow] = [], validFrom: LocalDateTime? = nil, validUntil: LocalDateTime? = nil) {
        self.windows = windows
        self.validFrom = validFrom
        self.validUntil = validUntil
    }

    public var isUnrestricted: Bool { windows.isEmpty && validFrom == nil && validUntil == nil }

    /// Why the pattern may not be used at the instant `epochSeconds` in `zone`, or nil when
    /// it may. Throws when the instant or a limit cannot be converted: the caller fails
    /// closed. Even a pattern whose limits need no conversion is judged only on a clock
    /// whose reading is inside the calendar: a clock centuries out is a broken clock.
    public func refusal(at epochSeconds: Int64, in zone: any TimeZoneRules) throws(TimeConversionError) -> ScheduleRefusal? {
        let reading = try zone.reading(at: epochSeconds)
        if let validFrom, epochSeconds < (try zone.resolve(validFrom).asStart) { return .notYetValid(from: validFrom) }
        if let validUntil, epochSeconds >= (try zone.resolve(validUntil).afterLastSecond) { return .expired(until: validUntil) }
        if !windows.isEmpty, !(try isInAWindow(epochSeconds, reading: reading, zone: zone)) { return .outsideWindows }
        return nil
    }

    /// Whether an occurrence of a window, from its start's instant to its end's, holds the
    /// instant. The occurrences that can hold it start on the reading's day or the day
    /// before (past midnight), give or take a day for the clocks' changes.
    private func isInAWindow(_ epochSeconds: Int64, reading: LocalDateTime, zone: any TimeZoneRules) throws(TimeConversionError) -> Bool {
        guard let wall = reading.wallSeconds else { throw .outOfRange(epochSeconds: epochSeconds) }
        let today = CivilCalendar.floorDivision(wall, CivilCalendar.secondsPerDay)
        for day in (today - 2)...(today + 1) {
            let weekday = CivilCalendar.weekday(dayNumber: day)
            for window in windows where window.days.contains(weekday) {
                let (start, end) = window.wallSeconds(onDay: day)
                guard epochSeconds >= (try zone.resolve(wallSeconds: start).asStart) else { continue }
                if epochSeconds < (try zone.resolve(wallSeconds: end).asEnd) { return true }
            }
        }
        return false
    }

    public var description: String {
        var parts: [String] = []
        if !windows.isEmpty { parts.append("valid=" + windows.map(\.description).joined(separator: "; ")) }
        if let validFrom { parts.append("valid-from=\(validFrom)") }
        if let validUntil { parts.append("valid-until=\(validUntil)") }
        return parts.isEmpty ? "any time" : parts.joined(separator: " ")
    }

    /// `valid=`: windows separated by `;`.
    public static func windows(from text: String) throws(ScheduleSyntaxError) -> [WeeklyWindow] {
        let items = text.split(separator: ";", omittingEmptySubsequences: false).map { trimmed($0) }
        guard items.count <= 32 else { throw .init("at most 32 windows, found \(items.count)") }
        var windows: [WeeklyWindow] = []
        for item in items {
            guard !item.isEmpty else { throw .init("an empty window (two ';' in a row, or one at an end)") }
            windows.append(try WeeklyWindow(text: item))
        }
        return windows
    }

    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

public enum ScheduleRefusal: Hashable, Sendable, CustomStringConvertible {
    case notYetValid(from: LocalDateTime)
    case expired(until: LocalDateTime)
    case outsideWindows

    public var description: String {
        switch self {
        case .notYetValid(let from): "not valid before \(from)"
        case .expired(let until): "expired at \(until)"
        case .outsideWindows: "outside its valid= windows"
        }
    }
}

/// Some days of the week and a time span on each. A span that ends at or before it starts
/// runs past midnight (`Fri 22:00-06:00` is Friday night into Saturday morning) and belongs
/// to the day it starts on.
public struct WeeklyWindow: Hashable, Sendable, CustomStringConvertible {
    public var days: Set<Weekday>
    /// Minutes since midnight; `end` may be 1440 (`24:00`).
    public var start: Int
    public var end: Int
    private let daysText: String

    /// `Mon-Fri 07:00-09:30`, `Sat,Sun 10:00-16:00`, `Daily 06:00-22:00`, `Fri 22:00-06:00`.
    public init(text: Substring) throws(ScheduleSyntaxError) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 2 else {
            throw .init("'\(text)' is not DAYS HH:MM-HH:MM (e.g. Mon-Fri 07:00-09:30)")
        }
        days = try Self.days(words[0])
        daysText = String(words[0])
        let times = words[1].split(separator: "-", omittingEmptySubsequences: false)
        guard times.count == 2 else { throw .init("'\(words[1])' is not a time span HH:MM-HH:MM") }
        start = try Self.minutes(times[0], allowingMidnightEnd: false)
        end = try Self.minutes(times[1], allowingMidnightEnd: true)
        guard start != end else { throw .init("'\(words[1])' is empty: it starts and ends at the same time") }
    }

    /// The wall readings of the occurrence that starts on `day` (days since 1970-01-01);
    /// one that runs past midnight ends on the next day.
    func wallSeconds(onDay day: Int64) -> (start: Int64, end: Int64) {
        let midnight = day * CivilCalendar.secondsPerDay
        let endMidnight = start < end ? midnight : midnight + CivilCalendar.secondsPerDay
        return (midnight + Int64(start) * 60, endMidnight + Int64(end) * 60)
    }

    public var description: String { "\(daysText) \(Self.clock(start))-\(Self.clock(end))" }

    private static func days(_ text: Substring) throws(ScheduleSyntaxError) -> Set<Weekday> {
        if text.lowercased() == "daily" { return Set(Weekday.allCases) }
        var days: Set<Weekday> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let range = item.split(separator: "-", omittingEmptySubsequences: false)
            guard range.count <= 2, let first = Weekday(abbreviation: range[0]),
                  let last = range.count == 2 ? Weekday(abbreviation: range[1]) : first
            else { throw .init("'\(item)' is not a day or a range of days (Mon Tue Wed Thu Fri Sat Sun, Mon-Fri, Daily)") }
            // Fri-Mon wraps over the weekend.
            var day = first
            days.insert(day)
            while day != last {
                day = day.next
                days.insert(day)
            }
        }
        return days
    }

    private static func minutes(_ text: Substring, allowingMidnightEnd: Bool) throws(ScheduleSyntaxError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let hour = LocalDateTime.digits(parts[0]), let minute = LocalDateTime.digits(parts[1])
        else { throw .init("'\(text)' is not a time HH:MM") }
        if allowingMidnightEnd, hour == 24, minute == 0 { return 1440 }
        guard hour < 24, minute < 60 else { throw .init("'\(text)' is not a time of day (00:00 to 23:59\(allowingMidnightEnd ? ", or 24:00" : ""))") }
        return hour * 60 + minute
    }

    private static func clock(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }
}

public struct ScheduleSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
