import GridlockCore
import Testing

@testable import GridlockDisplay

@Suite("vblank latency bookkeeping")
struct VblankLatencyTests {
    static let period = Duration.nanoseconds(16_666_667)
    static func ms(_ v: Double) -> Instant { Instant(nanoseconds: Int64(v * 1_000_000)) }

    @Test("vblank +n is ceil((flip timestamp - input time) / period)")
    func countsVblanksAfterTheInput() {
        var meter = VblankLatency()
        // Read 1 ms before vblank 100 (at 1000 ms): shown at 1000 ms is +1, one period later +2.
        meter.presented(answering: [Self.ms(999)], render: .milliseconds(1), now: Self.ms(999.5), queued: Self.ms(999.6))
        _ = meter.flipCompleted(sequence: 100, vblank: Self.ms(1000), period: Self.period)
        meter.presented(answering: [Self.ms(1001)], render: .milliseconds(1), now: Self.ms(1002), queued: Self.ms(1002))
        _ = meter.flipCompleted(sequence: 102, vblank: Self.ms(1000 + 2 * 16.666667), period: Self.period)
        // Read just after a vblank and shown four vblanks later: "+4 or later".
        meter.presented(answering: [Self.ms(1040)], render: .milliseconds(1), now: Self.ms(1041), queued: Self.ms(1041))
        _ = meter.flipCompleted(sequence: 106, vblank: Self.ms(1000 + 6 * 16.666667), period: Self.period)
        #expect(meter.records.map(\.vblanksAfter) == [1, 2, 4])
        #expect(meter.records.map(\.sequence) == [100, 102, 106])
        let report = meter.endStroke()
        #expect(report?.shown == [1, 1, 0, 1])
        #expect(report?.inputs == 3)
        #expect(report?.periodNanoseconds == 16_666_667)
    }

    @Test("each flip's drawn tip is measured against the finger at its vblank, and logged")
    func eachFlipsTipIsMeasuredAndLogged() throws {
        var meter = VblankLatency()
        // A finger moving right at 1 px/ms, read every 4 ms; each frame draws the sample it
        // answers and lands at the next vblank.
        var vblank = 1000.0
        for t in stride(from: 990.0, through: 1100, by: 4) {
            let sample = TipLagMeter.Sample(time: Self.ms(t), position: Point(x: t, y: 50))
            meter.presented(
                answering: [Self.ms(t)], render: .milliseconds(1), now: Self.ms(t + 1), queued: Self.ms(t + 1),
                samples: [sample], tip: sample.position)
            while vblank < t + 1 { vblank += 16.666667 }
            _ = meter.flipCompleted(sequence: 60, vblank: Self.ms(vblank), period: Self.period)
        }
        let ended = meter.endStroke()
        let report = try #require(ended)
        #expect(report.lag.count > 20)
        // The tip trails by the time from its sample to the vblank: up to a period and the 1 ms of drawing, at 1 px/ms.
        #expect(report.lag.percentile(50) > 1 && report.lag.percentile(99) <= 18)
        #expect(report.lag.percentile(50) <= report.lag.percentile(99))
        let figures = try #require(VblankStrokeReport.figures(inLogLine: report.logLine))
        let logged = Dictionary(figures.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(logged["lag-p50-cpx"] == Int((report.lag.percentile(50) * 100).rounded()))
        #expect(logged["lag-frames"] == report.lag.count)
    }

    @Test("an input frame read within the latch margin before a vblank is counted as read after the latch")
    func readAfterTheLatch() {
        var meter = VblankLatency()
        // Vblanks at 1000 and 1016.67; a 2 ms latch margin: 1015 is after the latch, 1014 before.
        meter.presented(answering: [Self.ms(1014), Self.ms(1015)], render: .milliseconds(1), now: Self.ms(1015.2), queued: Self.ms(1015.3))
        _ = meter.flipCompleted(sequence: 61, vblank: Self.ms(1016.666667), period: Self.period, latchMargin: .milliseconds(2))
        let report = meter.endStroke()
        #expect(report?.readAfterLatch == 1)
        #expect(report?.shown == [2, 0, 0, 0])
    }

    @Test("a flip's age is its vblank less the newest input drawn in it; the stroke's p50 and p99 come from those ages")
    func agesAtScanOut() {
        var meter = VblankLatency()
        // Vblanks every period from 1000 ms; inputs 3 ms, then 5 ms, then 9 ms before them.
        var vblank = 1000.0
        for (i, before) in [3.0, 5.0, 9.0, 3.0].enumerated() {
            meter.presented(answering: [Self.ms(vblank - before - 4), Self.ms(vblank - before)], render: .milliseconds(1),
                            now: Self.ms(vblank - before + 0.5), queued: Self.ms(vblank - before + 0.6))
            _ = meter.flipCompleted(sequence: UInt32(60 + i), vblank: Self.ms(vblank), period: Self.period)
            vblank += 16.666667
        }
        let report = meter.endStroke()
        #expect(report?.age.count == 4, "one age per flip, from its newest input")
        #expect(report?.age.percentile(50) == .microseconds(3100))
        #expect(report?.age.percentile(99) == .microseconds(9100))
        #expect(report?.logLine.contains("missed-deadline=0 age-p50-us=3100 age-p99-us=9100 lag-frames=0 ") == true)
    }

    @Test("an input read before the latch point but shown a vblank late is a missed deadline; one read after it is not")
    func missedDeadlines() {
        var meter = VblankLatency()
        // Latch margin 2 ms before the vblank at 1016.67: 1010 is in time, 1015.5 after the latch.
        meter.presented(answering: [Self.ms(1010), Self.ms(1015.5)], render: .milliseconds(1), now: Self.ms(1015.8), queued: Self.ms(1015.9))
        // Both reach the screen only at the vblank after (1033.33): the first one missed its deadline.
        _ = meter.flipCompleted(sequence: 62, vblank: Self.ms(1033.333333), period: Self.period, latchMargin: .milliseconds(2))
        let report = meter.endStroke()
        #expect(report?.readAfterLatch == 1)
        #expect(report?.missedDeadline == 1)
        #expect(report?.missedDeadlineRate == 1.0)
    }

    @Test("frames presented while a flip is pending go out with the next flip and are counted from their own input")
    func coalescedFramesWaitForTheNextFlip() {
        var meter = VblankLatency()
        meter.presented(answering: [Self.ms(990)], render: .milliseconds(2), now: Self.ms(992), queued: Self.ms(992))
        // Two rounds while that flip is pending: they wait.
        meter.presented(answering: [Self.ms(995), Self.ms(996)], render: .milliseconds(2), now: Self.ms(997), queued: nil)
        meter.presented(answering: [Self.ms(1004)], render: .milliseconds(4), now: Self.ms(1006), queued: nil)
        _ = meter.flipCompleted(sequence: 60, vblank: Self.ms(1000), period: Self.period)
        #expect(meter.records.count == 1)  // only the flipped frame's input is resolved
        meter.flipQueued(at: Self.ms(1001), copy: .microseconds(300))
        _ = meter.flipCompleted(sequence: 61, vblank: Self.ms(1016.666667), period: Self.period)
        #expect(meter.records.map(\.vblanksAfter) == [1, 2, 2, 1])
        let report = meter.endStroke()
        #expect(report?.frames == 3)
        #expect(report?.waitedForFlip == 2)
        #expect(report?.render.max == .milliseconds(4))
        #expect(report?.copy.max == .microseconds(300))
        #expect(report?.flipWait == .milliseconds(4))  // presented at 997, flip requested at 1001
    }

    @Test("the stroke is reported once its last frame is on screen, not at the lift")
    func reportWaitsForTheLastFlip() {
        var meter = VblankLatency()
        meter.presented(answering: [Self.ms(10)], render: .milliseconds(1), now: Self.ms(11), queued: Self.ms(11))
        #expect(meter.endStroke() == nil)
        let report = meter.flipCompleted(sequence: 1, vblank: Self.ms(16.7), period: Self.period)
        #expect(report?.shown == [1, 0, 0, 0])
        #expect(meter.endStroke() == nil)  // a new, empty stroke
    }

    @Test("frames that never reach a flip are unmeasured, never on time")
    func abandonedFramesAreUnmeasured() {
        var meter = VblankLatency()
        meter.presented(answering: [Self.ms(10), Self.ms(12)], render: .milliseconds(1), now: Self.ms(13), queued: nil)
        _ = meter.endStroke()
        let report = meter.abandon()
        #expect(report?.unmeasured == 2)
        #expect(report?.inputs == 0)
    }

    @Test("the log line carries every figure as key=value")
    func logLine() {
        var report = VblankStrokeReport()
        report.shown = [118, 2, 0, 0]
        report.frames = 40
        report.periodNanoseconds = 16_666_667
        #expect(report.logLine.hasPrefix(VblankStrokeReport.logPrefix + "inputs=120 vblank+1=118 vblank+2=2 vblank+3=0 vblank+4-or-later=0 "))
        #expect(report.logLine.contains(" frames=40 "))
        #expect(report.logLine.contains(" period-us=16666 "))
        let figures = VblankStrokeReport.figures(inLogLine: "<7>" + report.logLine)
        #expect(figures?.first?.key == "inputs")
        #expect(figures?.first?.value == 120)
        #expect(figures?.first { $0.key == "vblank+2" }?.value == 2)
        #expect(figures?.count == 23)
        #expect(VblankStrokeReport.figures(inLogLine: "stroke input-to-frame latency: worst 3 us") == nil)
    }
}
