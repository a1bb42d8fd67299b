/// Input-to-present time: from the kernel's timestamp of the input frame whose touch
/// changed the picture to the moment that picture was handed to the display; the worst
/// of a stroke is what gets logged, so a slow panel or renderer shows without noise. One
/// for every program that draws the lock on a panel (gridlockd's own face, gridlock-panel).
public struct LatencyMeter {
    /// The kernel times of the touch frames handled in this round (kept, not reallocated):
    /// the display matches them to the vblank that showed their frame.
    public private(set) var roundInputs: [Instant] = []
    /// Where the finger was at those times (downs and moves), for the lag at scan-out.
    public private(set) var roundSamples: [TipLagMeter.Sample] = []
    private var latestInput: Instant?
    private var measuredInput: Instant?
    private var strokeWorst: Duration = .zero

    public init() {}

    public mutating func beginRound() {
        roundInputs.removeAll(keepingCapacity: true)
        roundSamples.removeAll(keepingCapacity: true)
        latestInput = nil
    }

    /// A touch handled in this round; `time` is its input frame's kernel time, if known.
    public mutating func noteInput(_ touch: TouchEvent, at time: Instant?) {
        latestInput = time
        guard let time else { return }
        roundInputs.append(time)
        switch touch {
        case .down(let position), .move(let position): roundSamples.append(.init(time: time, position: position))
        case .up, .cancel: break
        }
    }

    /// After the round's frame: `presented` whether a frame went to the display, `now`
    /// when that happened.
    public mutating func endRound(presented: Bool, now: Instant) {
        guard presented, let latestInput, latestInput != measuredInput else { return }
        measuredInput = latestInput
        strokeWorst = max(strokeWorst, now.duration(since: latestInput))
    }

    /// The stroke ended: its worst latency, if a frame of it was measured.
    public mutating func endStroke() -> Duration? {
        defer { strokeWorst = .zero }
        return strokeWorst > .zero ? strokeWorst : nil
    }
}
