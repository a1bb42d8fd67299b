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
        #expect(figures?.count == 16)
        #expect(VblankStrokeReport.figures(inLogLine: "stroke input-to-frame latency: worst 3 us") == nil)
    }
}
