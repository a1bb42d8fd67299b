import GridlockCore
import LinuxSys

/// The daemon's sounds: the cues of a round (ticks from the selection, outcomes from the
/// lock's reports) are played after the round's frame is out, each tone ended by a named
/// deadline on the loop, never by sleeping. Without a beeper it does nothing at all.
public final class FeedbackPlayer {
    private let beeper: BeeperSource?
    private var sounds: FeedbackSounds
    private var player = TonePlayer()
    private var cues: [FeedbackCue] = []
    /// When the current step of a sound ends.
    private let step: EventLoop.Deadline
    private let loop: EventLoop

    public init(loop: EventLoop, beeper: BeeperSource?, sounds: FeedbackSounds) {
        self.beeper = beeper
        self.sounds = sounds
        self.loop = loop
        step = loop.deadline("beeper")
        // The beeper follows its device through hotplug on the loop by itself.
        beeper?.attach(to: loop)
        step.onFire { [unowned self] now in
            if let hertz = player.timerFired(at: now) { write(hertz, now: now) }
            step.due = player.deadline
        }
    }

    /// A reload may change what each cue plays (not the device: that needs a restart).
    public func setSounds(_ sounds: FeedbackSounds) { self.sounds = sounds }

    public func note(_ report: LockReport) {
        if let cue = FeedbackCue.forReport(report) { cues.append(cue) }
    }

    /// A lock face's report (the verifier's answer to its check).
    public func note(_ report: FaceReport) {
        if let cue = FeedbackCue.forFaceReport(report) { cues.append(cue) }
    }

    public func noteSelection(before: Int, after: Int) {
        if let cue = FeedbackCue.forSelection(before: before, after: after) { cues.append(cue) }
    }

    /// Plays what the round called for (several cues: one after another, a burst of ticks
    /// as one).
    public func afterRound(now: Instant) {
        var steps: [ToneStep] = []
        var played: [FeedbackCue] = []
        for cue in cues where cue != .nodeSelected || !played.contains(.nodeSelected) {
            played.append(cue)
            steps += sounds.steps(for: cue)
        }
        cues = []
        // Without a device nothing is sequenced: no deadline wakes the loop for a silent tone.
        if let beeper, beeper.devicePath != nil, let hertz = player.play(steps, at: now) {
            write(hertz, now: now)
        }
        step.due = player.deadline
    }

    /// Silence and let the device go (the daemon stops).
    public func stop() {
        if let hertz = player.stop() { beeper?.sound(hertz: hertz, now: loop.now()) }
        step.due = nil
        beeper?.close()
    }

    /// Sets the tone; its step is timed from the write, not from `now`, which was read
    /// before it (a tone must never end early).
    private func write(_ hertz: Int, now: Instant) {
        beeper?.sound(hertz: hertz, now: now)
        // After the write: the tone's time starts when the device has it.
        player.toneWritten(at: loop.now())
    }
}
