import Testing
@testable import GridlockCore

/// Schedules on the nights the clocks change, in real zones (the system's zone data, read by
/// `TZifZone`): Europe/Berlin and America/New_York in the northern hemisphere, and
/// Australia/Sydney in the southern, where the clocks go back in April.
@Suite struct DaylightSavingTests {
    /// A night the clocks change. `hour` is the local hour that repeats or is skipped.
    struct Change: Sendable, CustomTestStringConvertible {
        var zone: String
        /// The local date of the change (a Sunday in all three zones).
        var date: String
        var hour: Int
        /// The instant the clocks change (UTC): the first of the repeated hour's second pass,
        /// or the jump over the skipped hour.
        var at: String
        var testDescription: String { "\(zone) \(date) \(hour):00 \(repeats ? "repeats" : "is skipped")" }

        var repeats: Bool
        var instant: Int64 { utc(at) }

        /// `HH:MM[:SS]` on the change's date, as config text.
        func local(_ time: String) -> LocalDateTime { LocalDateTime(iso8601: "\(date)T\(time)")! }
        /// `hh:mm` with `hh` counted from the changing hour (`clock(-1, 30)` is 01:30 in Berlin).
        func clock(_ hours: Int, _ minutes: Int, _ seconds: Int = 0) -> String {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "\(two(hour + hours)):\(two(minutes)):\(two(seconds))"
        }
    }

    static let fallBack: [Change] = [
        Change(zone: "Europe/Berlin", date: "2026-10-25", hour: 2, at: "2026-10-25T01:00", repeats: true),
        Change(zone: "America/New_York", date: "2026-11-01", hour: 1, at: "2026-11-01T06:00", repeats: true),
        Change(zone: "Australia/Sydney", date: "2026-04-05", hour: 2, at: "2026-04-04T16:00", repeats: true),
        // After the zone files' table ends (2037): the footer rule decides.
        Change(zone: "Europe/Berlin", date: "2040-10-28", hour: 2, at: "2040-10-28T01:00", repeats: true),
    ]

    static let springForward: [Change] = [
        Change(zone: "Europe/Berlin", date: "2026-03-29", hour: 2, at: "2026-03-29T01:00", repeats: false),
        Change(zone: "America/New_York", date: "2026-03-08", hour: 2, at: "2026-03-08T07:00", repeats: false),
        Change(zone: "Australia/Sydney", date: "2026-10-04", hour: 2, at: "2026-10-03T16:00", repeats: false),
        Change(zone: "Australia/Sydney", date: "2040-10-07", hour: 2, at: "2040-10-06T16:00", repeats: false),
    ]

    static func utc(_ text: String) -> Int64 { LocalDateTime(iso8601: text)!.wallSeconds! }

    private func refusal(_ schedule: PatternSchedule, at instant: Int64, in zone: TZifZone) throws -> ScheduleRefusal? {
        try schedule.refusal(at: instant, in: zone)
    }

    private func windows(_ text: String) throws -> PatternSchedule {
        PatternSchedule(windows: try PatternSchedule.windows(from: text))
    }

    @Test("a local time in a repeated hour has two instants an hour apart", arguments: fallBack)
    func repeatedHourResolvesToBoth(change: Change) throws {
        let zone = try TZifZone(change.zone)
        let half = try zone.resolve(change.local(change.clock(0, 30)))
        #expect(half == .repeated(first: change.instant - 1800, second: change.instant + 1800))
        #expect(try zone.resolve(change.local(change.clock(0, 0))) == .repeated(first: change.instant - 3600, second: change.instant))
        #expect(try zone.resolve(change.local(change.clock(1, 0))) == .unique(change.instant + 3600))
        #expect(try zone.resolve(change.local(change.clock(-1, 59, 59))) == .unique(change.instant - 3601))
    }

    @Test("a local time in a skipped hour resolves to the moment the clocks jump", arguments: springForward)
    func skippedHourResolvesToTheJump(change: Change) throws {
        let zone = try TZifZone(change.zone)
        for time in [change.clock(0, 0), change.clock(0, 30), change.clock(0, 59, 59)] {
            #expect(try zone.resolve(change.local(time)) == .skipped(jump: change.instant), "\(time)")
        }
        #expect(try zone.resolve(change.local(change.clock(1, 0))) == .unique(change.instant))
        #expect(try zone.resolve(change.local(change.clock(-1, 59, 59))) == .unique(change.instant - 1))
    }

    @Test("the reported case: valid-until=2026-10-25T02:30 in Berlin stays expired through the repeated hour")
    func berlinValidUntilStaysExpired() throws {
        let schedule = PatternSchedule(validUntil: LocalDateTime(iso8601: "2026-10-25T02:30")!)
        let berlin = try TZifZone("Europe/Berlin")
        #expect(try schedule.refusal(at: Self.utc("2026-10-25T00:30"), in: berlin) == nil)  // 02:30:00 CEST, its last second
        #expect(try schedule.refusal(at: Self.utc("2026-10-25T00:45"), in: berlin) != nil)  // 02:45 CEST
        #expect(try schedule.refusal(at: Self.utc("2026-10-25T01:15"), in: berlin) != nil)  // 02:15 CET, later in real time
    }

    @Test("valid-until in a repeated hour is its first occurrence: the repeat never reopens the pattern", arguments: fallBack)
    func validUntilInARepeatedHour(change: Change) throws {
        let zone = try TZifZone(change.zone)
        let until = change.local(change.clock(0, 30))
        let schedule = PatternSchedule(validUntil: until)
        let first = change.instant - 1800
        #expect(try refusal(schedule, at: first - 60, in: zone) == nil)
        #expect(try refusal(schedule, at: first, in: zone) == nil)
        for later in [first + 1, change.instant, change.instant + 900, change.instant + 1800, change.instant + 7200] {
            #expect(try refusal(schedule, at: later, in: zone) == .expired(until: until), "\(later - first) s after")
        }
    }

    @Test("valid-from in a repeated hour is its second occurrence: in doubt, later", arguments: fallBack)
    func validFromInARepeatedHour(change: Change) throws {
        let zone = try TZifZone(change.zone)
        let from = change.local(change.clock(0, 30))
        let schedule = PatternSchedule(validFrom: from)
        for earlier in [change.instant - 1800, change.instant - 900, change.instant + 1799] {
            #expect(try refusal(schedule, at: earlier, in: zone) == .notYetValid(from: from))
        }
        #expect(try refusal(schedule, at: change.instant + 1800, in: zone) == nil)
    }

    @Test("valid-from and valid-until in a skipped hour both take the jump", arguments: springForward)
    func validityInASkippedHour(change: Change) throws {
        let zone = try TZifZone(change.zone)
        let time = change.local(change.clock(0, 30))
        let from = PatternSchedule(validFrom: time)
        #expect(try refusal(from, at: change.instant - 1, in: zone) == .notYetValid(from: time))
        #expect(try refusal(from, at: change.instant, in: zone) == nil)
        let until = PatternSchedule(validUntil: time)
        #expect(try refusal(until, at: change.instant - 1, in: zone) == nil)
        #expect(try refusal(until, at: change.instant, in: zone) == .expired(until: time))
    }

    @Test("a window that ends in a repeated hour closes at the first pass and stays closed", arguments: fallBack)
    func windowEndingInARepeatedHour(change: Change) throws {
        let zone = try TZifZone(change.zone)
        let schedule = try windows("Sun \(change.clock(-1, 0).prefix(5))-\(change.clock(0, 30).prefix(5))")
        let closes = change.instant - 1800
        #expect(try refusal(schedule, at: change.instant - 5400, in: zone) == nil)
        #expect(try refusal(schedule, at: closes - 1, in: zone) == nil)
        #expect(try refusal(schedule, at: closes, in: zone) == .outsideWindows)
        // The wall clock reads inside the window again, from the change to half past.
        for again in stride(from: change.instant, to: change.instant + 1800, by: 300) {
            #expect(try refusal(schedule, at: again, in: zone) == .outsideWindows, "\(again - change.instant) s into the repeat")
        }
    }

    @Test("a window that starts in a repeated hour opens at the second pass", arguments: fallBack)
    func windowStartingInARepeatedHour(change: Change) throws {
        let zone = try TZifZone(change.zone)
        let schedule = try windows("Sun \(change.clock(0, 30).prefix(5))-\(change.clock(2, 0).prefix(5))")
        let opens = change.instant + 1800
        #expect(try refusal(schedule, at: change.instant - 900, in: zone) == .outsideWindows)  // reads hh:45, first pass
        #expect(try refusal(schedule, at: opens - 1, in: zone) == .outsideWindows)
        #expect(try refusal(schedule, at: opens, in: zone) == nil)
        #expect(try refusal(schedule, at: change.instant + 7199, in: zone) == nil)
        #expect(try refusal(schedule, at: change.instant + 7200, in: zone) == .outsideWindows)
    }

    @Test("a window inside a repeated hour opens once, on the second pass, or not at all", arguments: fallBack)
    func windowInsideARepeatedHour(change: Change) throws {
        let zone = try TZifZone(change.zone)
        // 10 to 20 past: the start counts at the second pass, the end at the first: in
        // doubt closed, and never twice.
        let schedule = try windows("Sun \(change.clock(0, 10).prefix(5))-\(change.clock(0, 20).prefix(5))")
        for minute in stride(from: -60, through: 60, by: 1) {
            #expect(try refusal(schedule, at: change.instant + Int64(minute) * 60, in: zone) == .outsideWindows, "\(minute) min")
        }
    }

    @Test("a window in a skipped hour never opens; one across it closes or opens at the jump", arguments: springForward)
    func windowsAcrossASkippedHour(change: Change) throws {
        let zone = try TZifZone(change.zone)
        let inside = try windows("Sun \(change.clock(0, 15).prefix(5))-\(change.clock(0, 45).prefix(5))")
        for minute in stride(from: -90, through: 90, by: 1) {
            #expect(try refusal(inside, at: change.instant + Int64(minute) * 60, in: zone) == .outsideWindows, "\(minute) min")
        }
        let ending = try windows("Sun \(change.clock(-1, 30).prefix(5))-\(change.clock(0, 30).prefix(5))")
        #expect(try refusal(ending, at: change.instant - 1, in: zone) == nil)
        #expect(try refusal(ending, at: change.instant, in: zone) == .outsideWindows)
        let starting = try windows("Sun \(change.clock(0, 30).prefix(5))-\(change.clock(2, 0).prefix(5))")
        #expect(try refusal(starting, at: change.instant - 1, in: zone) == .outsideWindows)
        #expect(try refusal(starting, at: change.instant, in: zone) == nil)
        #expect(try refusal(starting, at: change.instant + 3599, in: zone) == nil)
        #expect(try refusal(starting, at: change.instant + 3600, in: zone) == .outsideWindows)
    }

    @Test("a window past midnight on the night of a change runs to its end's own instant")
    func overnightWindowOnAChangeNight() throws {
        let newYork = try TZifZone("America/New_York")
        let schedule = try windows("Sat 23:00-03:00")
        // Saturday 23:00 EDT to Sunday 03:00 EST: five hours of real time.
        #expect(try schedule.refusal(at: Self.utc("2026-11-01T02:59:59"), in: newYork) == .outsideWindows)
        #expect(try schedule.refusal(at: Self.utc("2026-11-01T03:00"), in: newYork) == nil)
        #expect(try schedule.refusal(at: Self.utc("2026-11-01T07:59:59"), in: newYork) == nil)
        #expect(try schedule.refusal(at: Self.utc("2026-11-01T08:00"), in: newYork) == .outsideWindows)
        let berlin = try TZifZone("Europe/Berlin")
        // Saturday 23:00 CET to Sunday 03:00 CEST: three hours.
        #expect(try schedule.refusal(at: Self.utc("2026-03-28T22:00"), in: berlin) == nil)
        #expect(try schedule.refusal(at: Self.utc("2026-03-29T00:59:59"), in: berlin) == nil)
        #expect(try schedule.refusal(at: Self.utc("2026-03-29T01:00"), in: berlin) == .outsideWindows)
    }

    /// Away from a change the instant's verdict is the wall reading's, as a person reads the schedule.
    @Test("away from the changes, windows follow the wall clock to the minute", arguments: ["Europe/Berlin", "America/New_York", "Australia/Sydney"])
    func windowsFollowTheWallClock(zone: String) throws {
        let rules = try TZifZone(zone)
        let schedule = try windows("Mon-Fri 07:00-09:30; Sat 22:00-02:00; Sun 12:00-24:00")
        for week in ["2026-01-12T00:00", "2026-07-13T00:00"] {
            let monday = try rules.resolve(LocalDateTime(iso8601: week)!).asStart
            for minute in stride(from: Int64(0), to: 7 * 24 * 60, by: 5) {
                let instant = monday + minute * 60
                let reading = try rules.reading(at: instant)
                let inside = Self.wallReadingIsInside(reading)
                #expect(try schedule.refusal(at: instant, in: rules) == (inside ? nil : .outsideWindows), "\(reading)")
            }
        }
    }

    /// The windows of `windowsFollowTheWallClock`, read off the wall clock.
    static func wallReadingIsInside(_ reading: LocalDateTime) -> Bool {
        let minute = reading.hour * 60 + reading.minute
        switch reading.weekday {
        case .monday, .tuesday, .wednesday, .thursday, .friday: return (7 * 60..<9 * 60 + 30).contains(minute)
        case .saturday: return minute >= 22 * 60
        case .sunday: return minute < 2 * 60 || minute >= 12 * 60
        }
    }
}
