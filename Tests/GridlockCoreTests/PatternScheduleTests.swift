import Testing
@testable import GridlockCore

@Suite struct PatternScheduleTests {
    private func at(_ text: String) -> LocalDateTime { LocalDateTime(iso8601: text)! }

    /// Judged in UTC, where a wall reading and its instant are the same seconds.
    private func refusal(_ schedule: PatternSchedule, _ text: String) -> ScheduleRefusal? {
        try! schedule.refusal(at: at(text).wallSeconds!, in: FixedOffsetZone.utc)
    }

    private func utc(_ text: String, synchronised: Bool = true) -> WallTime {
        WallTime(epochSeconds: at(text).wallSeconds!, zone: FixedOffsetZone.utc, synchronised: synchronised)
    }

    @Test("weekday comes from the date", arguments: [
        ("2026-11-30", Weekday.monday), ("2026-12-06", .sunday), ("2000-02-29", .tuesday),
        ("1970-01-01", .thursday), ("2027-01-01", .friday), ("2024-02-29", .thursday),
    ])
    func weekdayComesFromTheDate(date: String, weekday: Weekday) {
        #expect(at(date).weekday == weekday)
    }

    @Test("iso dates and times") func isoDatesAndTimes() {
        #expect(at("2026-12-24T18:05") == LocalDateTime(year: 2026, month: 12, day: 24, hour: 18, minute: 5))
        #expect(at("2026-12-24 18:05:30").second == 30)
        #expect(LocalDateTime(iso8601: "2026-12-31", endOfDay: true) == LocalDateTime(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        for bad in ["2026-02-30", "2026-13-01", "2026-1-01", "26-01-01", "2026-01-01T24:00", "2026-01-01T12", "2026-01-01T12:60",
                    "2026-01-01T12:00:00Z", "+2026-01-01", "2026-01-01T1:00", "", "tomorrow", "2025-02-29"] {
            #expect(LocalDateTime(iso8601: bad) == nil, "\(bad)")
        }
        #expect(LocalDateTime(iso8601: "2024-02-29") != nil)
    }

    @Test("weekday windows") func weekdayWindows() throws {
        let schedule = PatternSchedule(windows: try PatternSchedule.windows(from: "Mon-Fri 07:00-09:30; Sat 08:00-12:00"))
        #expect(refusal(schedule, "2026-11-30T07:00") == nil)  // Monday
        #expect(refusal(schedule, "2026-11-30T09:29:59") == nil)
        #expect(refusal(schedule, "2026-11-30T09:30") == .outsideWindows)  // the end is not in it
        #expect(refusal(schedule, "2026-11-30T06:59:59") == .outsideWindows)
        #expect(refusal(schedule, "2026-12-05T11:00") == nil)  // Saturday
        #expect(refusal(schedule, "2026-12-05T08:00") == nil)
        #expect(refusal(schedule, "2026-12-06T08:00") == .outsideWindows)  // Sunday
        #expect(schedule.description == "valid=Mon-Fri 07:00-09:30; Sat 08:00-12:00")
    }

    @Test("a window past midnight belongs to the day it starts on")
    func overnightWindows() throws {
        let schedule = PatternSchedule(windows: try PatternSchedule.windows(from: "Fri 22:00-06:00"))
        #expect(refusal(schedule, "2026-12-04T23:00") == nil)  // Friday night
        #expect(refusal(schedule, "2026-12-05T05:59") == nil)  // Saturday morning
        #expect(refusal(schedule, "2026-12-05T06:00") == .outsideWindows)
        #expect(refusal(schedule, "2026-12-04T05:00") == .outsideWindows)  // Friday morning: Thursday had none
        #expect(refusal(schedule, "2026-12-05T23:00") == .outsideWindows)
        let weekend = PatternSchedule(windows: try PatternSchedule.windows(from: "Fri-Mon 00:00-24:00"))
        #expect(weekend.windows[0].days == [.friday, .saturday, .sunday, .monday])
        #expect(refusal(weekend, "2026-12-07T23:59:59") == nil)  // Monday
        #expect(refusal(weekend, "2026-12-08T00:00") == .outsideWindows)  // Tuesday
        let daily = try PatternSchedule.windows(from: "daily 06:00-22:00;Sat,Sun 22:00-23:00")
        #expect(daily[0].days.count == 7 && daily[1].days == [.saturday, .sunday])
    }

    @Test("malformed windows are refused", arguments: [
        "Mon-Fri 25:00-09:00", "Mon-Fri 07:00-09:60", "Mon-Fri 07:00", "Mon-Fri", "Monday 07:00-09:00",
        "Mon-Fri 7:00-9:00", "Mon-Fri 07:00-07:00", "Mon-Fri 24:00-06:00", "Mon-Fri 07:00-09:00;", "; Mon 07:00-08:00",
        "Mon-Fri 07:00-09:00 Sat", "Mon--Fri 07:00-09:00", "", "Mon-Fri 07:00-09:00-10:00",
    ])
    func malformedWindowsAreRefused(text: String) {
        #expect(throws: ScheduleSyntaxError.self) { try PatternSchedule.windows(from: text) }
    }

    @Test("valid from and until") func validFromAndUntil() {
        let schedule = PatternSchedule(validFrom: at("2026-12-01T09:00"), validUntil: LocalDateTime(iso8601: "2026-12-02", endOfDay: true))
        #expect(refusal(schedule, "2026-12-01T08:59:59") == .notYetValid(from: at("2026-12-01T09:00")))
        #expect(refusal(schedule, "2026-12-01T09:00") == nil)
        #expect(refusal(schedule, "2026-12-02T23:59:59") == nil)
        #expect(refusal(schedule, "2026-12-03T00:00") == .expired(until: at("2026-12-02T23:59:59")))
    }

    @Test("a schedule needs a synchronised clock unless told to trust it; uses run out")
    func admission() {
        let scheduled = PatternLimits(schedule: PatternSchedule(validUntil: at("2027-01-01")))
        let unsynced = utc("2026-11-30T12:00", synchronised: false)
        let synced = utc("2026-11-30T12:00")
        #expect(scheduled.refusal(at: unsynced, used: 0, trustUnsynchronisedClock: false) == .clockUntrusted)
        #expect(scheduled.refusal(at: unsynced, used: 0, trustUnsynchronisedClock: true) == nil)
        #expect(scheduled.refusal(at: synced, used: 0, trustUnsynchronisedClock: false) == nil)
        // Without a schedule the clock does not matter.
        #expect(PatternLimits.none.refusal(at: unsynced, used: nil, trustUnsynchronisedClock: false) == nil)
        let twice = PatternLimits(uses: 2)
        #expect(twice.refusal(at: unsynced, used: 1, trustUnsynchronisedClock: false) == nil)
        #expect(twice.refusal(at: unsynced, used: 2, trustUnsynchronisedClock: false) == .usedUp(uses: 2))
        #expect(twice.refusal(at: unsynced, used: nil, trustUnsynchronisedClock: false) == .usesUnknown)
        let late = utc("2027-01-02T00:00")
        #expect(scheduled.refusal(at: late, used: 0, trustUnsynchronisedClock: false) == .schedule(.expired(until: at("2027-01-01"))))
    }
}
