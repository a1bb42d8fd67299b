import Testing
@testable import GridlockCore

@Suite("beeper feedback: which sound, and its steps in time")
struct FeedbackTests {
    let t0 = Instant.seconds(50)

    @Test("each report calls for its cue; reports that are not an outcome stay silent")
    func cuesForReports() {
        #expect(FeedbackCue.forReport(.rejected(nodes: 5, failures: 1)) == .wrongPattern)
        #expect(FeedbackCue.forReport(.enrollmentMismatch) == .wrongPattern)
        #expect(FeedbackCue.forReport(.accepted(patternName: "door", nodes: 5)) == .accepted)
        #expect(FeedbackCue.forReport(.enrollmentConfirmed(nodes: 4)) == .accepted)
        #expect(FeedbackCue.forReport(.lockout(seconds: 30, failures: 5)) == .lockoutStarted)
        let silent: [LockReport] = [
            .tooShort(nodes: 2), .lockoutEnded, .strokeCancelled(.stuckTouch), .enrollmentFirstDrawn(nodes: 4),
            .enrollmentTooShort(nodes: 2), .notRecorded(nodes: 5),
        ]
        for report in silent { #expect(FeedbackCue.forReport(report) == nil, "\(report)") }
    }

    @Test("a tick when the selection grows, by one node or several at once; none when it empties")
    func ticks() {
        #expect(FeedbackCue.forSelection(before: 0, after: 1) == .nodeSelected)
        #expect(FeedbackCue.forSelection(before: 1, after: 3) == .nodeSelected)
        #expect(FeedbackCue.forSelection(before: 3, after: 3) == nil)
        #expect(FeedbackCue.forSelection(before: 5, after: 0) == nil)
    }

    @Test("drawing 1-2-3-6 through the machine selects four times: four ticks, then the stroke ends silently")
    func ticksFromTheMachine() {
        var harness = Harness()
        let points = samples(along: [1, 2, 3, 6].map { harness.grid.center(of: $0 - 1) }, spacing: 20)
        var ticks = 0
        var before = harness.machine.selectedNodeCount
        for (index, point) in points.enumerated() {
            harness.send(.touch(index == 0 ? .down(point) : .move(point)))
            if FeedbackCue.forSelection(before: before, after: harness.machine.selectedNodeCount) != nil { ticks += 1 }
            before = harness.machine.selectedNodeCount
            harness.advance(.milliseconds(10))
        }
        #expect(ticks == 4)
        harness.send(.touch(.up))
        #expect(FeedbackCue.forSelection(before: before, after: harness.machine.selectedNodeCount) == nil)
        #expect(harness.machine.selectedNodeCount == 0)
    }

    @Test("the rising pair: each step set when the previous one's time is up, then silence")
    func stepsInTime() {
        var player = TonePlayer()
        let sounds = FeedbackSounds.standard
        #expect(player.play(sounds.steps(for: .accepted), at: t0) == 1047)
        #expect(player.deadline == t0 + .milliseconds(90))
        // Early (or spurious) firings change nothing.
        #expect(player.timerFired(at: t0 + .milliseconds(89)) == nil)
        #expect(player.timerFired(at: t0 + .milliseconds(90)) == 1568)
        #expect(player.deadline == t0 + .milliseconds(230))
        #expect(player.timerFired(at: t0 + .milliseconds(231)) == 0)
        #expect(player.deadline == nil)
        #expect(player.sounding == 0)
        #expect(player.timerFired(at: t0 + .seconds(2)) == nil)
    }

    @Test("a step is timed from the moment its tone was written, not from when it was asked for")
    func stepsRunFromTheWrite() {
        var player = TonePlayer()
        #expect(player.play(FeedbackSounds.standard.wrong, at: t0) == 220)
        player.toneWritten(at: t0 + .microseconds(130))
        #expect(player.deadline == t0 + .milliseconds(350) + .microseconds(130))
        #expect(player.timerFired(at: t0 + .milliseconds(350)) == nil)
        #expect(player.timerFired(at: t0 + .milliseconds(350) + .microseconds(130)) == 0)
        // Silent: a late note of a write changes nothing.
        player.toneWritten(at: t0 + .seconds(1))
        #expect(player.deadline == nil)
    }

    @Test("a new sound cuts the one playing; an empty (off) sound leaves it alone")
    func newSoundCuts() {
        var player = TonePlayer()
        #expect(player.play(FeedbackSounds.standard.lockout, at: t0) == 440)
        #expect(player.play([], at: t0 + .milliseconds(10)) == nil)
        #expect(player.deadline == t0 + .milliseconds(1200))
        #expect(player.play(FeedbackSounds.standard.tick, at: t0 + .milliseconds(20)) == 2000)
        #expect(player.deadline == t0 + .milliseconds(35))
        #expect(player.timerFired(at: t0 + .milliseconds(35)) == 0)
    }

    @Test("a rest after silence writes nothing but still takes its time; the same pitch again is not rewritten")
    func restsAndRepeats() {
        var player = TonePlayer()
        let steps = [
            ToneStep(hertz: 0, duration: .milliseconds(40)), ToneStep(hertz: 900, duration: .milliseconds(10)),
            ToneStep(hertz: 900, duration: .milliseconds(10)),
        ]
        #expect(player.play(steps, at: t0) == nil)
        #expect(player.deadline == t0 + .milliseconds(40))
        #expect(player.timerFired(at: t0 + .milliseconds(40)) == 900)
        #expect(player.timerFired(at: t0 + .milliseconds(50)) == nil)
        #expect(player.deadline == t0 + .milliseconds(60))
        #expect(player.timerFired(at: t0 + .milliseconds(60)) == 0)
    }

    @Test("stop silences a tone at once and forgets the rest of the sound")
    func stop() {
        var player = TonePlayer()
        _ = player.play(FeedbackSounds.standard.success, at: t0)
        #expect(player.stop() == 0)
        #expect(player.deadline == nil)
        #expect(player.timerFired(at: t0 + .seconds(1)) == nil)
        #expect(player.stop() == nil)
    }
}
