/// The proleptic Gregorian calendar as day numbers (days since 1970-01-01), after Howard
/// Hinnant's `days_from_civil` and `civil_from_days`. Callers keep the years within
/// `LocalDateTime.supportedYears`, where no step comes near overflowing.
enum CivilCalendar {
    static let secondsPerDay: Int64 = 86_400

    static func dayNumber(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivision(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func date(dayNumber: Int64) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = floorDivision(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// 1970-01-01 was a Thursday.
    static func weekday(dayNumber: Int64) -> Weekday {
        Weekday.allCases[Int(floorModulo(dayNumber + 3, 7))]
    }

    static func floorDivision(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 {
        let remainder = a % b
        return remainder < 0 ? remainder + b : remainder
    }
}
