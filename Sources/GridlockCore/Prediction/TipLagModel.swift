/// How far the drawn tip trails the finger on a model display: a stroke's samples are
/// shown at a vblank every `period`, each frame drawn `inputDelay` before its vblank from
/// the samples read by then, and compared with where the finger truly is at that vblank
/// (the samples, linearly interpolated). Measures the tip predictor against none.
public struct TipLagModel: Sendable {
    public struct Frame: Hashable, Sendable {
        /// When the frame reaches the glass.
        public var vblank: Instant
        public var drawn: Point
        public var finger: Point
        /// Whether the finger moves at the vblank: it travels at least `movingSpeed` on
        /// average over the 20 ms either side (a finger resting on a jittery panel does not).
        public var moving: Bool
        public var lag: Double { drawn.distance(to: finger) }
    }

    public var period: Duration
    public var inputDelay: Duration
    /// Slower than this (pixels per second) over 40 ms, the finger rests.
    public var movingSpeed = 100.0

    public init(period: Duration = .nanoseconds(16_666_667), inputDelay: Duration = .milliseconds(4)) {
        self.period = period
        self.inputDelay = inputDelay
    }

    /// The frames of a stroke (`samples` from the touch-down, in time order), from the
    /// first vblank that shows it to four periods after its last sample; `phase` puts the
    /// first vblank that long after the touch-down. No predictor: the tip is the sample.
    public func frames(
        of samples: [(point: Point, time: Instant)], predictor: TipPredictor.Tuning?, phase: Duration = .zero
    ) -> [Frame] {
        guard let first = samples.first, let end = samples.last?.time else { return [] }
        var predictor = predictor.map(TipPredictor.init(tuning:))
        var frames: [Frame] = []
        var fed = 0
        var vblank = first.time + phase
        while vblank.duration(since: first.time) < inputDelay { vblank = vblank + period }
        let stop = end + period + period + period + period
        while vblank <= stop {
            let drawnAt = vblank + (.zero - inputDelay)
            while fed < samples.count, samples[fed].time <= drawnAt {
                predictor?.feed(fed == 0 ? .down(samples[fed].point) : .move(samples[fed].point), at: samples[fed].time)
                fed += 1
            }
            let sample = samples[fed - 1].point
            let drawn = predictor.map { $0.tip(at: vblank, now: drawnAt) ?? sample } ?? sample
            let finger = Self.finger(at: vblank, samples)
            let window = Duration.milliseconds(20)
            let travel = Self.finger(at: vblank + window, samples).distance(to: Self.finger(at: vblank + (.zero - window), samples))
            let moving = travel >= movingSpeed * 0.040
            frames.append(Frame(vblank: vblank, drawn: drawn, finger: finger, moving: moving))
            vblank = vblank + period
        }
        return frames
    }

    /// The finger at `time`: between the two samples around it, or at the first or last one.
    static func finger(at time: Instant, _ samples: [(point: Point, time: Instant)]) -> Point {
        guard let after = samples.firstIndex(where: { $0.time > time }) else { return samples[samples.count - 1].point }
        guard after > 0 else { return samples[0].point }
        let a = samples[after - 1], b = samples[after]
        let f = Double(time.duration(since: a.time).nanoseconds) / Double(b.time.duration(since: a.time).nanoseconds)
        return Point(x: a.point.x + f * (b.point.x - a.point.x), y: a.point.y + f * (b.point.y - a.point.y))
    }

    /// The value at quantile `q` (0...1) of `values`, by the nearest rank; 0 for none.
    public static func quantile(_ q: Double, of values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
