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

    /// Minutes since midnight.
    public var minuteOfDay: Int { hour * 60 + minute }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.year, a.month, a.day, a.hour, a.minute, a.second) < (b.year, b.month, b.day, b.hour, b.minute, b.second)
    }

    public var description: String {
        "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))"
    }

    /// The day before, for a window that began yesterday evening and runs past midnight.
    var previousWeekday: Weekday { weekday.previous }

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

    var previous: Weekday { Weekday(rawValue: rawValue == 1 ? 7 : rawValue - 1)! }

    /// The proleptic Gregorian calendar's day of the week (Sakamoto's method).
    static func of(year: Int, month: Int, day: Int) -> Weekday {
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        let sundayBased = (y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + day) % 7
        return Weekday(rawValue: sundayBased == 0 ? 7 : sundayBased)!
    }
}
