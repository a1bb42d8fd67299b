import GridlockCore
import Testing

@Suite("lag of the drawn tip at scan-out")
struct TipLagMeterTests {
    static func ms(_ v: Double) -> Instant { Instant(nanoseconds: Int64(v * 1_000_000)) }
    /// A finger moving right at 1 px/ms along y = 100, sampled every 4 ms from t = 0.
    static func sample(_ t: Double) -> TipLagMeter.Sample { .init(time: ms(t), position: Point(x: t, y: 100)) }

    @Test("a tip drawn from the last sample trails the finger by speed times its age at the vblank")
    func tipFromTheLastSampleTrailsBySpeedTimesAge() {
        var meter = TipLagMeter()
        // Each frame draws the sample at t and reaches the glass 10 ms later.
        for t in stride(from: 0.0, through: 96, by: 4) {
            meter.sample(Self.sample(t))
            meter.shown(tip: Point(x: t, y: 100), at: Self.ms(t + 10))
        }
        let (lags, unmeasured) = meter.finish()
        // The last three frames' vblanks (98, 102 and 106 ms) have no sample after them.
        #expect(unmeasured == 3)
        #expect(lags.count == 22)
        // 10 px, reported as its quarter-pixel bin's upper edge.
        #expect((10...10.25).contains(lags.percentile(50)))
        #expect((10...10.25).contains(lags.percentile(99)))
    }

    @Test("a tip drawn where the finger is at the vblank has no lag, between samples too")
    func aPerfectTipHasNoLag() {
        var meter = TipLagMeter()
        for t in stride(from: 0.0, through: 40, by: 4) {
            meter.sample(Self.sample(t))
            // Shown at t + 5, between samples: the finger is at x = t + 5 then.
            meter.shown(tip: Point(x: t + 5, y: 100), at: Self.ms(t + 5))
        }
        let (lags, unmeasured) = meter.finish()
        // The last two frames, shown at 41 and 45 ms, have no sample after them.
        #expect(lags.count == 9)
        #expect(unmeasured == 2)
        #expect(lags.percentile(99) == 0.25)
    }

    @Test("a flip event that comes after the next sample is measured at once, in order")
    func aLateFlipEventIsMeasuredAtOnce() {
        var meter = TipLagMeter()
        meter.sample(Self.sample(0))
        meter.sample(Self.sample(4))
        meter.sample(Self.sample(8))
        meter.shown(tip: Point(x: 0, y: 100), at: Self.ms(6))  // the finger was at 6
        #expect(meter.lags.count == 1)
        #expect((6...6.25).contains(meter.lags.percentile(50)))
        #expect(meter.unmeasured == 0)
    }

    @Test("a lift before any later sample leaves the frame unmeasured, and finish starts afresh")
    func aLiftLeavesTheFrameUnmeasured() {
        var meter = TipLagMeter()
        meter.sample(Self.sample(0))
        meter.shown(tip: Point(x: 0, y: 100), at: Self.ms(10))
        let first = meter.finish()
        #expect(first.lags.count == 0)
        #expect(first.unmeasured == 1)
        // A new stroke does not interpolate from the old one's samples.
        meter.sample(Self.sample(50))
        meter.shown(tip: Point(x: 40, y: 100), at: Self.ms(45))
        let second = meter.finish()
        #expect(second.lags.count == 0)
        #expect(second.unmeasured == 1)
    }
}
