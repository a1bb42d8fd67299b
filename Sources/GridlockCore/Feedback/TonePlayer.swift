/// Plays a sound's steps one after another on a beeper that holds one tone until told
/// otherwise (EV_SND/SND_TONE). It never waits: it says which tone to set now and when
/// it must run again (`deadline`), and the shell's timer brings it back.
///
/// A new sound cuts the one playing: cues follow the finger, and a stale tone must not
/// delay the next one.
public struct TonePlayer: Sendable {
    private var queue: [ToneStep] = []
    /// When the current step ends; nil while silent.
    public private(set) var deadline: Instant?
    /// The tone last set (0: silent), so that a rest after silence writes nothing.
    public private(set) var sounding = 0
    /// How long the current step lasts, for `toneWritten(at:)`.
    private var stepDuration: Duration?

    public init() {}

    /// Starts `steps` now; the tone to set (nil: no change). An empty sound changes nothing.
    public mutating func play(_ steps: [ToneStep], at now: Instant) -> Int? {
        guard !steps.isEmpty else { return nil }
        queue = steps
        return next(at: now)
    }

    /// The timer fired: the tone to set once the current step is over (nil: nothing to do,
    /// as for a late or spurious firing).
    public mutating func timerFired(at now: Instant) -> Int? {
        guard let due = deadline, now >= due else { return nil }
        return next(at: now)
    }

    /// The tone just asked for was written at `now`, a little after the time it was asked
    /// for: its step lasts from here, so no tone ends early.
    public mutating func toneWritten(at now: Instant) {
        if let stepDuration { deadline = now + stepDuration }
    }

    /// Silence now (the daemon stops, the beeper went away).
    public mutating func stop() -> Int? {
        queue = []
        deadline = nil
        stepDuration = nil
        return set(0)
    }

    private mutating func next(at now: Instant) -> Int? {
        guard !queue.isEmpty else {
            deadline = nil
            stepDuration = nil
            return set(0)
        }
        let step = queue.removeFirst()
        deadline = now + step.duration
        stepDuration = step.duration
        return set(step.hertz)
    }

    private mutating func set(_ hertz: Int) -> Int? {
        guard hertz != sounding else { return nil }
        sounding = hertz
        return hertz
    }
}
