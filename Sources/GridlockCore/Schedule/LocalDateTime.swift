/// A wall-clock reading in the system's time zone, as a person at the door reads it.
/// The shell converts the kernel's clock (`LinuxSys.WallClock`); the core only compares.
public struct LocalDateTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Derived from the date (Gregorian calendar), so it can never disagree with it.
    public var weekday: Weekday

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        weekday = Weekday.of(year: year, month: month, day: day)
    }

    /// The seconds since 1970-01-01T00:00:00 this reading would be if it were UTC: a zone's
    /// offset at an instant is this minus the instant, which in a zone that counts leap
    /// seconds (`right/`) includes them, as the reading does.
    public var secondsSinceEpochAsIfUTC: Int64 {
        CivilCalendar.dayNumber(year: year, month: month, day: day) * CivilCalendar.secondsPerDay
            + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.year, a.month, a.day, a.hour, a.minute, a.second) < (b.year, b.month, b.day, b.hour, b.minute, b.second)
    }

    public var description: String {
        "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))"
    }

    /// The years a config can name and a clock is believed in: a reading outside them
    /// is a clock gone wrong, and schedules fail closed on it.
    public static let supportedYears = 1...9999
    static let earliestWallSeconds: Int64 = -62_135_596_800  // 0001-01-01T00:00:00
    static let latestWallSeconds: Int64 = 253_402_300_799  // 9999-12-31T23:59:59

    /// Seconds from 1970-01-01T00:00 to this reading, every day counted as 86,400 s (what
    /// the reading would be as UTC): wall-clock arithmetic, not an instant. Nil outside
    /// `supportedYears` or for a field out of its range.
    public var wallSeconds: Int64? {
        guard Self.supportedYears.contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day),
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second)
        else { return nil }
        let days = CivilCalendar.dayNumber(year: year, month: month, day: day)
        return days * CivilCalendar.secondsPerDay + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The reading `wallSeconds` seconds after 1970-01-01T00:00; nil outside `supportedYears`.
    public init?(wallSeconds: Int64) {
        guard (Self.earliestWallSeconds...Self.latestWallSeconds).contains(wallSeconds) else { return nil }
        let days = CivilCalendar.floorDivision(wallSeconds, CivilCalendar.secondsPerDay)
        let secondOfDay = Int(wallSeconds - days * CivilCalendar.secondsPerDay)
        let date = CivilCalendar.date(dayNumber: days)
        self.init(
            year: date.year, month: date.month, day: date.day,
            hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
    }

    /// `2026-12-24` or `2026-12-24T18:00` / `2026-12-24 18:00:30`; nil for anything else,
    /// impossible dates (February 30) included. `endOfDay` reads a bare date as its last
    /// second (`valid-until=2026-12-31` includes New Year's Eve).
    public init?(iso8601 text: String, endOfDay: Bool = false) {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
              let year = Self.digits(date[0]), let month = Self.digits(date[1]), let day = Self.digits(date[2]),
              (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var (hour, minute, second) = endOfDay ? (23, 59, 59) : (0, 0, 0)
        if parts.count == 2 {
            let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard time.count == 2 || time.count == 3, time.allSatisfy({ $0.count == 2 }),
                  let h = Self.digits(time[0]), let m = Self.digits(time[1]),
                  let s = time.count == 3 ? Self.digits(time[2]) : 0,
                  h < 24, m < 60, s < 60
            else { return nil }
            (hour, minute, second) = (h, m, s)
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }

    private func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

public enum Weekday: Int, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The three-letter English names the config uses (`Mon-Fri`).
    public var description: String { ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][rawValue - 1] }

    public init?(abbreviation: Substring) {
        guard let found = Weekday.allCases.first(where: { $0.description.lowercased() == abbreviation.lowercased() }) else {
            return nil
        }
        self = found
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }

    /// The day after (Sunday is followed by Monday).
    var next: Weekday { Weekday.allCases[rawValue % 7] }

    /// The proleptic Gregorian calendar's day of the week. Defined for every input, even a
    /// nonsense reading from a broken clock, and never traps: the calendar repeats every
    /// 400 years (146,097 days, whole weeks) and every month every 7 days, so the arithmetic
    /// runs on a year in 0...399 and a day in 0...6. A month outside 1...12 is taken modulo 12.
    static func of(year: Int, month: Int, day: Int) -> Weekday {
        let cycleYear = Int(CivilCalendar.floorModulo(Int64(year), 400))
        // (m - 1) mod n without computing m - 1, which overflows for Int.min.
        let monthInYear = Int((CivilCalendar.floorModulo(Int64(month), 12) + 11) % 12) + 1
        let firstOfMonth = CivilCalendar.dayNumber(year: cycleYear, month: monthInYear, day: 1)
        let daysIn = (CivilCalendar.floorModulo(Int64(day), 7) + 6) % 7
        return CivilCalendar.weekday(dayNumber: firstOfMonth + daysIn)
    }
}
