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

    /// A schedule that has measured 1 ms renders and 0.5 ms copy + commit: a 2.5 ms margin.
    static func learnt() -> FlipSchedule {
        var schedule = FlipSchedule()
        for _ in 0..<LatchMargin.samplesNeeded {
            schedule.frameRendered(.milliseconds(1))
            schedule.flipRequested(at: .zero, copy: .microseconds(200), commit: .microseconds(300))
        }
        return schedule
    }

    @Test("with a fresh clock the flip is requested the margin before the coming vblank, or at once inside it")
    func latchesBeforeTheVblank() {
        var schedule = Self.learnt()
        _ = schedule.flipLanded(at: Self.ms(1000), period: Self.period)
        #expect(schedule.margin == .microseconds(2500))
        #expect(schedule.nextVblank(after: Self.ms(1020)) == Instant(nanoseconds: 1_000_000_000 + 2 * 16_666_667))
        #expect(schedule.deadline(now: Self.ms(1001)) == Instant(nanoseconds: 1_000_000_000 + 16_666_667 - 2_500_000))
        #expect(schedule.deadline(now: Self.ms(1014.5)) == nil)  // inside the 2.5 ms margin: at once
    }

    @Test("a frame is shown at the vblank its flip is latched for: the next one outside the margin, the one after inside it")
    func displayTimeIsTheLatchedVblank() {
        var schedule = Self.learnt()
        #expect(schedule.displayTime(ofFramePresentedAt: Self.ms(5)) == nil)
        _ = schedule.flipLanded(at: Self.ms(1000), period: Self.period)
        let next = Instant(nanoseconds: 1_000_000_000 + 16_666_667)
        #expect(schedule.displayTime(ofFramePresentedAt: Self.ms(1001)) == next)
        #expect(schedule.displayTime(ofFramePresentedAt: Self.ms(1014.5)) == next + Self.period)
        #expect(schedule.displayTime(ofFramePresentedAt: Self.ms(1000) + FlipSchedule.staleAfter) == nil)
    }

    @Test("before enough render and flip times are measured the margin is 7/8 of a frame")
    func conservativeStart() {
        var schedule = FlipSchedule()
        _ = schedule.flipLanded(at: Self.ms(1000), period: Self.period)
        #expect(schedule.margin == Self.period * 7 / 8)
        for _ in 0..<LatchMargin.samplesNeeded { schedule.frameRendered(.milliseconds(1)) }
        #expect(schedule.margin == Self.period * 7 / 8)  // no flip measured yet
        schedule.flipRequested(at: Self.ms(1001), copy: .zero, commit: .microseconds(500))
        #expect(schedule.margin == Self.period * 7 / 8)
    }

    @Test("a flip that lands a vblank late widens the margin by 1 ms at once; a quiet period takes it back")
    func lateFlipWidensTheMargin() {
        var schedule = Self.learnt()
        _ = schedule.flipLanded(at: Self.ms(1000), period: Self.period)
        schedule.flipRequested(at: Self.ms(1014), copy: .zero, commit: .microseconds(500))  // aimed at 1016.67
        let onTime = schedule.flipLanded(at: Instant(nanoseconds: 1_000_000_000 + 16_666_667), period: Self.period)
        #expect(!onTime)
        #expect(schedule.margin == .microseconds(2500))
        schedule.flipRequested(at: Self.ms(1030), copy: .zero, commit: .microseconds(500))  // aimed at 1033.3, lands at 1050
        let late = schedule.flipLanded(at: Instant(nanoseconds: 1_000_000_000 + 3 * 16_666_667), period: Self.period)
        #expect(late)
        #expect(schedule.margin == .microseconds(3500))
        var landed = 1050.0
        for _ in 0..<3 {  // each one aimed at the vblank after the last, each landing three later
            schedule.flipRequested(at: Self.ms(landed + 1), copy: .zero, commit: .microseconds(500))
            landed += 50
            let lateAgain = schedule.flipLanded(at: Self.ms(landed), period: Self.period)
            #expect(lateAgain)
        }
        #expect(schedule.margin == .microseconds(6500))
        for _ in 0..<(LatchMargin.quietFlips * 4 - 1) {
            schedule.flipRequested(at: Self.ms(landed + 1), copy: .zero, commit: .microseconds(500))
            landed += 1000 / 60
            _ = schedule.flipLanded(at: Self.ms(landed), period: Self.period)
        }
        #expect(schedule.margin == .microseconds(3500))  // one quiet period short of the measured figure
        schedule.flipRequested(at: Self.ms(landed + 1), copy: .zero, commit: .microseconds(500))
        landed += 1000 / 60
        _ = schedule.flipLanded(at: Self.ms(landed), period: Self.period)
        #expect(schedule.margin == .microseconds(2500))
    }

    @Test("a latch timer that wakes the loop after the vblank does not widen the margin")
    func lateWakeupIsNotALateFlip() {
        var schedule = Self.learnt()
        _ = schedule.flipLanded(at: Self.ms(1000), period: Self.period)
        // The latch was due at 1014.2; the loop woke at 1017.5, after the vblank at 1016.67,
        // so the flip aims at 1033.3 and lands there: on time.
        schedule.flipRequested(at: Self.ms(1017.5), copy: .zero, commit: .microseconds(500))
        let late = schedule.flipLanded(at: Instant(nanoseconds: 1_000_000_000 + 2 * 16_666_667), period: Self.period)
        #expect(!late)
        #expect(schedule.margin == .microseconds(2500))
    }
}

@Suite("the latch margin learnt from render, copy and commit times")
struct LatchMarginTests {
    static let period = Duration.nanoseconds(16_666_667)

    @Test("the margin is the ~99th percentile render plus copy and commit plus 1 ms, not the rare worst")
    func percentileNotWorst() {
        var learner = LatchMargin()
        for i in 0..<LatchMargin.Samples.capacity {
            // 2 ms renders; two of them 30 ms (a descheduled CPU), one 5 ms, one 4 ms.
            let render: Duration = i == 10 || i == 100 ? .milliseconds(30) : i == 50 ? .milliseconds(5) : i == 60 ? .milliseconds(4) : .milliseconds(2)
            learner.rendered(render)
            learner.flipRequested(copy: .microseconds(100), commit: .microseconds(400))
        }
        #expect(learner.renders.estimate == .milliseconds(4))  // the 4th largest of 256
        #expect(learner.margin(period: Self.period) == .microseconds(5500))
    }

    @Test("a step up in render time counts from its first frame, and stays for the window")
    func stepUpCountsAtOnce() {
        var learner = LatchMargin()
        for _ in 0..<40 {
            learner.rendered(.milliseconds(1))
            learner.flipRequested(copy: .zero, commit: .microseconds(500))
        }
        #expect(learner.margin(period: Self.period) == .microseconds(2500))
        learner.rendered(.milliseconds(6))
        #expect(learner.margin(period: Self.period) == .microseconds(7500))
        for _ in 0..<LatchMargin.Samples.recent { learner.rendered(.milliseconds(1)) }
        #expect(learner.margin(period: Self.period) == .microseconds(7500))  // below 67 samples: the largest
        for _ in 0..<LatchMargin.Samples.capacity { learner.rendered(.milliseconds(1)) }
        #expect(learner.margin(period: Self.period) == .microseconds(2500))  // out of the window
    }

    @Test("the margin stays between 1 ms and 7/8 of a frame")
    func bounded() {
        var learner = LatchMargin()
        for _ in 0..<LatchMargin.samplesNeeded {
            learner.rendered(.milliseconds(40))
            learner.flipRequested(copy: .zero, commit: .zero)
        }
        #expect(learner.margin(period: Self.period) == Self.period * 7 / 8)
        learner = LatchMargin()
        for _ in 0..<LatchMargin.samplesNeeded {
            learner.rendered(.zero)
            learner.flipRequested(copy: .zero, commit: .zero)
        }
        #expect(learner.margin(period: Self.period) == LatchMargin.floor)
        for _ in 0..<20 { learner.flipLanded(late: true, period: Self.period) }
        #expect(learner.margin(period: Self.period) == Self.period * 7 / 8)
    }
}
