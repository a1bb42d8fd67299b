import GridlockCore

/// Input-to-present time: from the kernel's timestamp of the input frame whose touch
/// changed the picture to the moment that picture was handed to the display; the worst
/// of a stroke is what gets logged, so a slow panel or renderer shows without noise.
struct LatencyMeter {
    /// The kernel times of the touch frames handled in this round (kept, not reallocated):
    /// the display matches them to the vblank that showed their frame.
    private(set) var roundInputs: [Instant] = []
    private var latestInput: Instant?
    private var measuredInput: Instant?
    private var strokeWorst: Duration = .zero

    mutating func beginRound() {
        roundInputs.removeAll(keepingCapacity: true)
        latestInput = nil
    }

    /// A touch handled in this round; `time` is its input frame's kernel time, if known.
    mutating func noteInput(at time: Instant?) {
        latestInput = time
        if let time { roundInputs.append(time) }
    }

    /// After the round's frame: `presented` whether a frame went to the display, `now`
    /// when that happened.
    mutating func endRound(presented: Bool, now: Instant) {
        guard presented, let latestInput, latestInput != measuredInput else { return }
        measuredInput = latestInput
        strokeWorst = max(strokeWorst, now.duration(since: latestInput))
    }

    /// The stroke ended: its worst latency, if a frame of it was measured.
    mutating func endStroke() -> Duration? {
        defer { strokeWorst = .zero }
        return strokeWorst > .zero ? strokeWorst : nil
    }
}
