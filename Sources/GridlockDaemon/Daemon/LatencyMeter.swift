import GridlockCore

/// Input-to-present time: from the kernel's timestamp of the input frame whose touch
/// changed the picture to the moment that picture was handed to the display; the worst
/// of a stroke is what gets logged, so a slow panel or renderer shows without noise.
struct LatencyMeter {
    private var measuredInput: Instant?
    private var strokeWorst: Duration = .zero

    /// After a round of events: `latestInput` is the time of the newest touch handled in
    /// it, `presented` whether a frame went to the display, `now` when that happened.
    mutating func noteRound(latestInput: Instant?, presented: Bool, now: Instant) {
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
