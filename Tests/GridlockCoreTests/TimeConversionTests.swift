import Testing
@testable import GridlockCore

/// Converting between instants and wall readings at the ends of the calendar and with zones
/// that fail: every failure is a refusal, never a trap.
@Suite struct TimeConversionTests {
    struct FailingZone: TimeZoneRules {
        func utcOffset(at epochSeconds: Int64) throws(TimeConversionError) -> Int {
            throw .zoneFailed(epochSeconds: epochSeconds, reason: "localtime_r: Value too large for defined data type")
        }
    }

    struct AbsurdZone: TimeZoneRules {
        var offset: Int
        func utcOffset(at epochSeconds: Int64) throws(TimeConversionError) -> Int { offset }
    }

    static let schedules: [PatternSchedule] = [
        PatternSchedule(windows: try! PatternSchedule.windows(from: "Daily 00:00-24:00")),
        PatternSchedule(validFrom: LocalDateTime(year: 2026, month: 1, day: 1)),
        PatternSchedule(validUntil: LocalDateTime(year: 2099, month: 12, day: 31)),
    ]

    /// Seconds since 1970 whose reading is outside the years 1 to 9999 in every zone.
    static let outOfRange: [Int64] = [
        .max, .min, .max - 1, .min + 1, 253_402_387_200 /* 10000-01-02 */, -62_135_683_200 /* year 0 */,
        1 << 62, -(1 << 62), 67_768_036_191_676_800 /* past a 32-bit tm_year */,
    ]

    @Test("a clock outside the years 1 to 9999 fails closed for every kind of schedule", arguments: outOfRange)
    func farOutClockFailsClosed(seconds: Int64) {
        for zone in [FixedOffsetZone.utc, FixedOffsetZone(secondsEast: 14 * 3600), FixedOffsetZone(secondsEast: -12 * 3600)] as [any TimeZoneRules] {
            for schedule in Self.schedules {
                let limits = PatternLimits(schedule: schedule)
                let refusal = limits.refusal(at: WallTime(epochSeconds: seconds, zone: zone, synchronised: true), used: 0, trustUnsynchronisedClock: false)
                guard case .timeUnknown(let error) = refusal else {
                    Issue.record("\(schedule) at \(seconds): \(String(describing: refusal))")
                    continue
                }
                #expect("\(refusal!)".contains("the time cannot be told"))
                #expect("\(error)".contains("\(seconds) s since 1970"))
            }
        }
        // A pattern without a schedule does not look at the clock at all.
        #expect(PatternLimits.none.refusal(at: WallTime(epochSeconds: seconds, zone: FailingZone(), synchronised: false), used: nil, trustUnsynchronisedClock: false) == nil)
    }

    @Test("the calendar's last and first seconds still convert; a zone east of UTC reads the next year sooner")
    func calendarEdges() throws {
        let last: Int64 = 253_402_300_799
        #expect(try FixedOffsetZone.utc.reading(at: last) == LocalDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(try FixedOffsetZone.utc.reading(at: -62_135_596_800) == LocalDateTime(year: 1, month: 1, day: 1))
        #expect(throws: TimeConversionError.outOfRange(epochSeconds: last - 3600)) {
            try FixedOffsetZone(secondsEast: 7200).reading(at: last - 3600)
        }
        let until = PatternSchedule(validUntil: LocalDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(try until.refusal(at: last, in: FixedOffsetZone.utc) == nil)
        #expect(throws: TimeConversionError.self) { try until.refusal(at: last + 1, in: FixedOffsetZone.utc) }
    }

    @Test("a zone that fails or answers nonsense makes a scheduled pattern refuse with the reason")
    func brokenZonesFailClosed() {
        let now = LocalDateTime(year: 2026, month: 11, day: 30, hour: 8).wallSeconds!
        for (zone, reason) in [
            (FailingZone(), "localtime_r: Value too large"), (AbsurdZone(offset: .max), "an offset of"),
            (AbsurdZone(offset: .min), "an offset of"), (AbsurdZone(offset: 27 * 3600), "an offset of"),
        ] as [(any TimeZoneRules, String)] {
            for schedule in Self.schedules {
                let refusal = PatternLimits(schedule: schedule)
                    .refusal(at: WallTime(epochSeconds: now, zone: zone, synchronised: true), used: 0, trustUnsynchronisedClock: false)
                #expect(refusal.map { "\($0)".contains(reason) } == true, "\(String(describing: refusal))")
            }
        }
    }

    @Test("the weekday of any date, a nonsense one included, is computed without trapping")
    func weekdayIsTotal() {
        for value in [Int.min, Int.min + 1, -1, 0, 13, Int.max - 1, Int.max] {
            _ = Weekday.of(year: value, month: value, day: value)
            _ = LocalDateTime(year: value, month: value, day: value, hour: value, minute: value, second: value).wallSeconds
        }
        #expect(Weekday.of(year: 1, month: 1, day: 1) == .monday)
        #expect(Weekday.of(year: -1, month: 12, day: 31) == .friday)  // proleptic: 2 BC, the day before 1 BC
        // Against day numbers, over negative years and 400-year cycles.
        for year in stride(from: -2001, through: 2401, by: 13) {
            for month in 1...12 {
                for day in [1, 15, LocalDateTime.daysIn(month: month, year: year)] {
                    let dayNumber = CivilCalendar.dayNumber(year: year, month: month, day: day)
                    #expect(Weekday.of(year: year, month: month, day: day) == CivilCalendar.weekday(dayNumber: dayNumber))
                    #expect(CivilCalendar.date(dayNumber: dayNumber) == (year, month, day))
                }
            }
        }
    }

    @Test("wall seconds and readings convert both ways within the calendar, and not beyond it")
    func wallSecondsRoundTrip() {
        for seconds: Int64 in [-62_135_596_800, -1, 0, 951_782_400 /* 2000-02-29 */, 1_764_489_600, 253_402_300_799] {
            let reading = LocalDateTime(wallSeconds: seconds)
            #expect(reading?.wallSeconds == seconds)
        }
        #expect(LocalDateTime(wallSeconds: -1) == LocalDateTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(LocalDateTime(wallSeconds: -1)?.weekday == .wednesday)
        for seconds: Int64 in [.min, -62_135_596_801, 253_402_300_800, .max] {
            #expect(LocalDateTime(wallSeconds: seconds) == nil)
        }
        #expect(LocalDateTime(year: 2026, month: 2, day: 29).wallSeconds == nil)
        #expect(LocalDateTime(year: 10000, month: 1, day: 1).wallSeconds == nil)
    }

    @Test("an instant made from an absurd count of seconds or milliseconds clamps to the ends of time")
    func instantsSaturate() {
        #expect(Instant.seconds(.max) == Instant(nanoseconds: .max))
        #expect(Instant.seconds(.min) == Instant(nanoseconds: .min))
        #expect(Instant.milliseconds(.max / 1000) == Instant(nanoseconds: .max))
        #expect(Instant.milliseconds(-(1 << 60)) == Instant(nanoseconds: .min))
        #expect(Instant.seconds(9_223_372_036) == Instant(nanoseconds: 9_223_372_036_000_000_000))
        #expect(Instant.milliseconds(-1500) == Instant(nanoseconds: -1_500_000_000))
    }
}

/// `Nanoseconds`: every conversion of a reading to nanoseconds saturates, none traps.
@Suite struct NanosecondsTests {
    @Test("seconds and a fraction convert exactly where they fit and saturate at both ends of Int64")
    func timespecsSaturate() {
        #expect(Nanoseconds.from(seconds: 1, fraction: 5) == 1_000_000_005)
        #expect(Nanoseconds.from(seconds: 2, fraction: 3, perSecond: 1_000_000) == 2_000_003_000)
        #expect(Nanoseconds.from(seconds: -1, fraction: 999_999_999) == -1)
        // 2262-04-11T23:47:16.854775807Z is the last nanosecond Int64 holds.
        #expect(Nanoseconds.from(seconds: 9_223_372_036, fraction: 854_775_807) == .max)
        #expect(Nanoseconds.from(seconds: 9_223_372_036, fraction: 854_775_808) == .max)
        #expect(Nanoseconds.from(seconds: 10_413_792_000, fraction: 0) == .max)
        #expect(Nanoseconds.from(seconds: -10_413_792_000, fraction: 0) == .min)
        #expect(Nanoseconds.from(seconds: .max, fraction: .max, perSecond: 1_000_000) == .max)
        #expect(Nanoseconds.from(seconds: .min, fraction: .min) == .min)
        #expect(Instant(seconds: .max, fraction: 0) == Instant(nanoseconds: .max))
    }

    @Test("seconds as a Double round to the nearest nanosecond; NaN is zero and anything beyond Int64 saturates")
    func doublesSaturate() {
        #expect(Nanoseconds.from(seconds: 0.5) == 500_000_000)
        #expect(Nanoseconds.from(seconds: -1.25) == -1_250_000_000)
        #expect(Nanoseconds.from(seconds: .nan) == 0)
        #expect(Nanoseconds.from(seconds: .infinity) == .max)
        #expect(Nanoseconds.from(seconds: -.infinity) == .min)
        #expect(Nanoseconds.from(seconds: 9.3e9) == .max)
        #expect(Nanoseconds.from(seconds: -9.3e9) == .min)
        #expect(Duration.saturating(seconds: 1e300) == .nanoseconds(Int64.max))
    }

    @Test("sums, differences and products saturate in the direction they overflow")
    func arithmeticSaturates() {
        #expect(Nanoseconds.sum(.max, 1) == .max)
        #expect(Nanoseconds.sum(.min, -1) == .min)
        #expect(Nanoseconds.sum(.max, .min) == -1)
        #expect(Nanoseconds.difference(.min, 1) == .min)
        #expect(Nanoseconds.difference(.max, -1) == .max)
        #expect(Nanoseconds.difference(0, .min) == .max)
        #expect(Nanoseconds.product(.max, 2) == .max)
        #expect(Nanoseconds.product(.min, 2) == .min)
        #expect(Nanoseconds.product(.min, -1) == .max)
        #expect(Nanoseconds.product(-3, 1_000_000_000) == -3_000_000_000)
    }
}
