import Testing
@testable import GridlockCore

@Suite struct ScreenBlankerTests {
    let start = Instant.seconds(10)
    let p = Point(x: 100, y: 100)

    @Test("blanks after the timeout without touch") func blanksAfterTheTimeoutWithoutTouch() {
        var blanker = ScreenBlanker(timeout: .seconds(60), now: start)
        #expect(blanker.deadline == start + .seconds(60))
        let early = blanker.timerFired(at: start + .seconds(59))
        let due = blanker.timerFired(at: start + .seconds(60))
        #expect(!early && due)
        #expect(blanker.isBlanked)
        #expect(blanker.deadline == nil)
    }

    @Test("touches postpone blanking") func touchesPostponeBlanking() {
        var blanker = ScreenBlanker(timeout: .seconds(60), now: start)
        let decision = blanker.filter(.down(p), at: start + .seconds(50))
        #expect(decision == .forward)
        #expect(blanker.deadline == start + .seconds(110))
    }

    @Test("the waking stroke is swallowed whole") func theWakingStrokeIsSwallowedWhole() {
        var blanker = ScreenBlanker(timeout: .seconds(60), now: start)
        _ = blanker.timerFired(at: start + .seconds(60))
        let t = start + .seconds(100)
        let decisions = [
            blanker.filter(.move(p), at: t),  // a stray move does not wake
            blanker.filter(.down(p), at: t),
            blanker.filter(.move(p), at: t),
            blanker.filter(.up, at: t),
            blanker.filter(.down(p), at: t),  // the next stroke counts
        ]
        #expect(decisions == [.swallow, .wake, .swallow, .swallow, .forward])
        #expect(!blanker.isBlanked)
        #expect(blanker.deadline == t + .seconds(60))
    }

    @Test("zero or no timeout never blanks") func zeroOrNoTimeoutNeverBlanks() {
        var blanker = ScreenBlanker(timeout: .zero, now: start)
        #expect(blanker.deadline == nil)
        let fired = blanker.timerFired(at: start + .seconds(100_000))
        #expect(!fired)
        #expect(ScreenBlanker(timeout: nil, now: start).deadline == nil)
    }
}
