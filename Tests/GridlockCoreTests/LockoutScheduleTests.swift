import Testing
@testable import GridlockCore

@Suite struct LockoutScheduleTests {
    @Test("android schedule", arguments: [
        (0, 0), (1, 0), (4, 0), (5, 30), (6, 0), (9, 0), (10, 30), (29, 30),
        (30, 30), (39, 30), (40, 60), (50, 120), (130, 30 << 10), (139, 30 << 10), (140, 86_400), (100_000, 86_400),
    ])
    func androidSchedule(failures: Int, seconds: Int) {
        #expect(LockoutSchedule.android.delay(afterFailures: failures) == .seconds(seconds))
    }

    /// `{remaining}` of the wrong-pattern message: 0 when this failure itself locks out.
    @Test("android failures before the next lockout", arguments: [(1, 4), (4, 1), (5, 0), (6, 4), (9, 1), (10, 0), (11, 0), (139, 0), (140, 0), (100_000, 0)])
    func androidFailuresBeforeTheNextLockout(failures: Int, remaining: Int) {
        #expect(LockoutSchedule.android.failuresBeforeLockout(after: failures) == remaining)
    }

    @Test("custom and none schedule failures before the next lockout") func customAndNoneScheduleFailuresBeforeTheNextLockout() throws {
        let schedule = try LockoutSchedule(text: "0,0,5,0")
        #expect(schedule.failuresBeforeLockout(after: 1) == 2)
        #expect(schedule.failuresBeforeLockout(after: 3) == 0)
        // Its last entry, 0, repeats: no later failure locks out.
        #expect(schedule.failuresBeforeLockout(after: 4) == nil)
        #expect(try LockoutSchedule(text: "0,0,60").failuresBeforeLockout(after: 50) == 0)
        #expect(LockoutSchedule.none.failuresBeforeLockout(after: 3) == nil)
    }

    @Test("custom schedule repeats its last delay") func customScheduleRepeatsItsLastDelay() throws {
        let schedule = try LockoutSchedule(text: "0, 0, 5,60")
        #expect(schedule == .custom([.zero, .zero, .seconds(5), .seconds(60)]))
        #expect(schedule.delay(afterFailures: 2) == .zero)
        #expect(schedule.delay(afterFailures: 3) == .seconds(5))
        #expect(schedule.delay(afterFailures: 99) == .seconds(60))
        #expect(schedule.firstLockout! == (3, .seconds(5)))
        #expect(schedule.description == "0,0,5,60")
        #expect(LockoutSchedule.none.delay(afterFailures: 1000) == .zero)
        #expect(LockoutSchedule.none.firstLockout == nil)
        #expect(LockoutSchedule.android.firstLockout! == (5, .seconds(30)))
    }

    @Test("entries longer than a year are refused, however long (no overflow on the way)")
    func delaysAreBounded() throws {
        #expect(try LockoutSchedule(text: "31536000").delay(afterFailures: 1) == LockoutSchedule.longestDelay)
        for text in ["31536001", "9223372035", "9223372036", "99999999999999999999999", "0,0,9223372036854775807"] {
            #expect(throws: LockoutScheduleError.self) { try LockoutSchedule(text: text) }
        }
        let error = expectError(LockoutScheduleError.self) { try LockoutSchedule(text: "0,9223372036") }
        #expect(error?.description == "a delay of 9223372036 s is longer than the longest allowed, 31536000 s (a year)")
    }

    @Test("time arithmetic at the edges saturates")
    func instantsSaturate() {
        #expect(Instant(nanoseconds: .max - 5) + .seconds(1) == Instant(nanoseconds: .max))
        #expect(Instant(nanoseconds: .min + 5) + .seconds(-1) == Instant(nanoseconds: .min))
        #expect(Instant(nanoseconds: .max).duration(since: Instant(nanoseconds: .min)) == .nanoseconds(Int64.max))
        #expect(Duration.nanoseconds(Int64.max).secondsRoundedUp == 9_223_372_037)
        #expect(Duration.seconds(1).secondsRoundedUp == 1)
        #expect(Duration.nanoseconds(1_000_000_001).secondsRoundedUp == 2)
    }

    @Test("rejects malformed schedules", arguments: ["", "1,,2", "-5", "abc", "1.5", "30s"])
    func rejectsMalformedSchedules(text: String) {
        #expect(throws: LockoutScheduleError.self) { try LockoutSchedule(text: text) }
    }

    /// The least time to try every 3 x 3 pattern at the panel under the default schedule.
    @Test("brute force figure for three by three") func bruteForceFigureForThreeByThree() {
        let schedule = LockoutSchedule.android
        // Summed directly, failure by failure, to check the fast path.
        var expected: Duration = .zero
        for failures in 1..<389_112 { expected += schedule.delay(afterFailures: failures) }
        let total = schedule.minimumTimeToTry(attempts: 389_112)
        #expect(total == expected)
        let days = total.components.seconds / 86_400
        // 388,972 one-day lockouts (failures 140 ... 389,111) plus about 7 days for failures 5 ... 139.
        #expect(days == 388_979)  // about 1,065 years
        #expect(LockoutSchedule.none.minimumTimeToTry(attempts: 389_112) == .zero)
        #expect(schedule.minimumTimeToTry(attempts: 6) == .seconds(30))
    }
}
