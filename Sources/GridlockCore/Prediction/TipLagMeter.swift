/// How far the drawn tip of the line trailed the finger when each frame reached the glass,
/// measured on a running panel.
///
/// When a frame is drawn nobody knows where the finger will be at its vblank, so the lag is
/// measured afterwards: each frame shown at vblank T with its tip drawn at D waits until a
/// real touch sample at or after T arrives; the finger at T is then the straight line
/// between the last sample before T and the first after it, and the lag is the distance
/// from D to that point. A frame the finger lifted after, before any later sample, is not
/// measured rather than guessed.
///
/// Fixed storage: the recent samples and the frames waiting for one are small rings, and
/// the lags go into a histogram.
public struct TipLagMeter: Sendable {
    /// A touch sample: where the finger was (in the frame the scene is drawn in) at its
    /// input frame's kernel time.
    public struct Sample: Hashable, Sendable {
        public var time: Instant
        public var position: Point

        public init(time: Instant, position: Point) {
            self.time = time
            self.position = position
        }
    }

    /// Samples kept to bracket a vblank; a flip event arrives well within this many
    /// samples of its input at any touch rate a panel has.
    static let sampleCapacity = 32
    /// Frames waiting for a later sample; more means the finger stopped (or the stroke ended).
    static let shownCapacity = 16

    private var samples: [Sample] = []
    private var shown: [(vblank: Instant, tip: Point)] = []
    public private(set) var lags = LagHistogram()
    /// Frames shown whose finger position at the vblank could not be known.
    public private(set) var unmeasured = 0

    public init() {
        samples.reserveCapacity(Self.sampleCapacity)
        shown.reserveCapacity(Self.shownCapacity)
    }

    /// A real sample, in the order they were read.
    public mutating func sample(_ sample: Sample) {
        if samples.count == Self.sampleCapacity { samples.removeFirst() }
        samples.append(sample)
        resolve()
    }

    /// A frame with its tip drawn at `tip` reached the glass at `vblank`.
    public mutating func shown(tip: Point, at vblank: Instant) {
        if shown.count == Self.shownCapacity {
            shown.removeFirst()
            unmeasured += 1
        }
        shown.append((vblank, tip))
        resolve()
    }

    /// The stroke ended: frames still waiting are unmeasured. Returns the stroke's figures
    /// and starts afresh.
    public mutating func finish() -> (lags: LagHistogram, unmeasured: Int) {
        defer {
            samples.removeAll(keepingCapacity: true)
            shown.removeAll(keepingCapacity: true)
            lags = LagHistogram()
            unmeasured = 0
        }
        return (lags, unmeasured + shown.count)
    }

    private mutating func resolve() {
        guard let newest = samples.last else { return }
        while let frame = shown.first, newest.time >= frame.vblank {
            shown.removeFirst()
            if let finger = fingerPosition(at: frame.vblank) {
                lags.add(frame.tip.distance(to: finger))
            } else {
                unmeasured += 1  // older than every sample kept
            }
        }
    }

    /// The finger at `time`, between the samples on either side of it.
    private func fingerPosition(at time: Instant) -> Point? {
        guard let after = samples.firstIndex(where: { $0.time >= time }) else { return nil }
        let b = samples[after]
        if b.time == time { return b.position }
        guard after > 0 else { return nil }
        let a = samples[after - 1]
        let span = Double(b.time.nanoseconds - a.time.nanoseconds)
        let f = Double(time.nanoseconds - a.time.nanoseconds) / span
        return Point(x: a.position.x + (b.position.x - a.position.x) * f, y: a.position.y + (b.position.y - a.position.y) * f)
    }
}

/// Lags in bins of a quarter pixel from 0 to 256 px (longer ones in the last bin).
public struct LagHistogram: Hashable, Sendable {
    static let binsPerPixel = 4.0
    private var bins = BinnedCounts(binCount: 1024)
    public var count: Int { bins.count }

    public init() {}

    mutating func add(_ pixels: Double) {
        bins.add(Int(min(max(pixels, 0) * Self.binsPerPixel, Double(bins.binCount - 1))))
    }

    /// The upper edge of the bin holding the `percent`th percentile (nearest rank), in
    /// pixels: never below the true figure by more than a quarter pixel; zero with no samples.
    public func percentile(_ percent: Int) -> Double {
        Double(bins.percentileUpperEdge(percent)) / Self.binsPerPixel
    }
}

/// Counts in equal bins from zero, fixed storage made once, for percentiles that cost
/// nothing per sample: a stroke's frame ages, the drawn tip's lags.
public struct BinnedCounts: Hashable, Sendable {
    private var bins: [Int]
    public private(set) var count = 0
    public var binCount: Int { bins.count }

    public init(binCount: Int) {
        bins = [Int](repeating: 0, count: binCount)
    }

    /// One sample in bin `index`, clamped into the bins.
    public mutating func add(_ index: Int) {
        bins[min(max(index, 0), bins.count - 1)] += 1
        count += 1
    }

    /// The upper edge, in bins, of the bin holding the `percent`th percentile (nearest
    /// rank): the bin's index plus one; zero with no samples.
    public func percentileUpperEdge(_ percent: Int) -> Int {
        guard count > 0 else { return 0 }
        let rank = max(1, (count * percent + 99) / 100)
        var seen = 0
        for (index, n) in bins.enumerated() {
            seen += n
            if seen >= rank { return index + 1 }
        }
        return bins.count
    }
}
