import GridlockCore
import Testing

@testable import GridlockDisplay

@Suite("when the next page flip is requested")
struct FlipScheduleTests {
    static let period = Duration.nanoseconds(16_666_667)
    static func ms(_ v: Double) -> Instant { Instant(nanoseconds: Int64(v * 1_000_000)) }

    @Test("without a vblank clock, or with a stale one, the flip goes out at once")
    func noClockMeansAtOnce() {
        var schedule = FlipSchedule()
        #expect(schedule.deadline(now: Self.ms(5)) == nil)
        _ = schedule.flipLanded(at: Self.ms(1000), period: Self.period)
        #expect(schedule.deadline(now: Self.ms(1000) + FlipSchedule.staleAfter) == nil)
    }

    @Test("with a fresh clock the flip is requested the margin before the coming vblank, or at once inside it")
    func latchesBeforeTheVblank() {
        var schedule = FlipSchedule()
        _ = schedule.flipLanded(at: Self.ms(1000), period: Self.period)
        #expect(schedule.nextVblank(after: Self.ms(1020)) == Instant(nanoseconds: 1_000_000_000 + 2 * 16_666_667))
        #expect(schedule.deadline(now: Self.ms(1001)) == Instant(nanoseconds: 1_000_000_000 + 16_666_667 - 2_000_000))
        #expect(schedule.deadline(now: Self.ms(1015.5)) == nil)  // inside the 2 ms margin: at once
    }

    @Test("a flip that lands a vblank late widens the margin by 1 ms, up to half a frame")
    func lateFlipWidensTheMargin() {
        var schedule = FlipSchedule()
        _ = schedule.flipLanded(at: Self.ms(1000), period: Self.period)
        schedule.flipRequested(at: Self.ms(1014))  // aimed at 1016.67
        let onTime = schedule.flipLanded(at: Instant(nanoseconds: 1_000_000_000 + 16_666_667), period: Self.period)
        #expect(!onTime)
        #expect(schedule.margin == FlipSchedule.initialMargin)
        schedule.flipRequested(at: Self.ms(1030))  // aimed at 1033.3, lands at 1050
        let late = schedule.flipLanded(at: Instant(nanoseconds: 1_000_000_000 + 3 * 16_666_667), period: Self.period)
        #expect(late)
        #expect(schedule.margin == .milliseconds(3))
        var landed = 1050.0
        for _ in 0..<20 {  // each one aimed at the vblank after the last, each landing three later
            schedule.flipRequested(at: Self.ms(landed + 1))
            landed += 50
            let lateAgain = schedule.flipLanded(at: Self.ms(landed), period: Self.period)
            #expect(lateAgain)
        }
        #expect(schedule.margin == Self.period / 2)
    }
}
