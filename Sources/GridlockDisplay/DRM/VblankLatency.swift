import GridlockCore

/// When each input frame's picture reached the screen, counted on the CRTC's vblank clock.
///
/// Vblank +n: a page-flip event reports the sequence S and the timestamp T(S) of the vblank
/// at which the new buffer was latched; with the mode's frame period P, vblank S - j
/// happened at T(S) - j·P. An input frame read at kernel time t (CLOCK_MONOTONIC, the clock
/// of both evdev and the flip events) belongs to the last vblank at or before t, and the
/// flip that first showed its picture shows it at vblank +n, n = ceil((T(S) - t) / P).
/// +1 is the first vblank after the input: the earliest a double-buffered display can show
/// anything drawn in answer to it.
///
/// Pure bookkeeping with fixed storage: `DRMOutput` feeds it presents, flip requests and
/// flip events; nothing here allocates per frame.
public struct VblankLatency: Sendable {
    /// One input frame whose picture went out, with the vblank that showed it.
    public struct Record: Hashable, Sendable {
        public var input: Instant
        public var sequence: UInt32
        public var vblank: Instant
        /// n of vblank +n.
        public var vblanksAfter: Int
        /// When its frame was presented and when the flip that carried it was requested.
        public var presented: Instant
        public var queued: Instant
    }

    private struct Pending: Sendable {
        var input: Int64
        var presented: Int64
        /// When the flip carrying its picture was requested; 0 while it waits for one.
        var queued: Int64
        /// Where its frame drew the line's tip, if a finger was down.
        var tip: Point?
    }

    /// Frames presented and not yet on screen; more than a few means a stuck display.
    static let capacity = 64
    /// Resolved records kept for inspection (tests), oldest overwritten.
    static let historyCapacity = 256

    private var pending: [Pending]
    private var head = 0
    private var count = 0
    private var history: [Record]
    private var historyNext = 0
    private var historyCount = 0
    private var closing = false
    public private(set) var stroke = VblankStrokeReport()
    private var lag = TipLagMeter()

    public init() {
        pending = Array(repeating: Pending(input: 0, presented: 0, queued: 0, tip: nil), count: Self.capacity)
        history = Array(repeating: Record(input: .zero, sequence: 0, vblank: .zero, vblanksAfter: 0, presented: .zero, queued: .zero), count: Self.historyCapacity)
    }

    /// A frame answering `inputs` was presented at `now`, after `render` of drawing;
    /// `queued` is when its flip was requested, or nil if it waits for the pending flip.
    /// `samples` are the finger's positions read for it and `tip` where it drew the line's
    /// end, for the lag at scan-out (`TipLagMeter`).
    public mutating func presented<Inputs: Collection<Instant>>(
        answering inputs: Inputs, render: Duration, now: Instant, queued: Instant?,
        samples: [TipLagMeter.Sample] = [], tip: Point? = nil
    ) {
        for sample in samples { lag.sample(sample) }
        guard !inputs.isEmpty else { return }
        stroke.frames += 1
        stroke.render.add(render)
        if queued == nil { stroke.waitedForFlip += 1 }
        for input in inputs {
            if count == Self.capacity {
                // Nothing came back for 64 frames: the oldest is given up, and said so.
                head = (head + 1) % Self.capacity
                count -= 1
                stroke.unmeasured += 1
            }
            pending[(head + count) % Self.capacity] = Pending(
                input: input.nanoseconds, presented: now.nanoseconds, queued: queued?.nanoseconds ?? 0, tip: tip)
            count += 1
        }
    }

    /// A page flip was requested at `now`; `copy` is what copying the damage took. Every
    /// frame waiting for a flip goes out with it.
    public mutating func flipQueued(at now: Instant, copy: Duration) {
        stroke.copy.add(copy)
        for i in 0..<count where pending[(head + i) % Self.capacity].queued == 0 {
            let index = (head + i) % Self.capacity
            pending[index].queued = now.nanoseconds
            stroke.flipWait = max(stroke.flipWait, Duration.nanoseconds(now.nanoseconds - pending[index].presented))
        }
    }

    /// The requested flip landed at vblank `sequence`, at `vblank`; `period` is the mode's
    /// frame period and `latchMargin` how long before a vblank flips are requested
    /// (`FlipSchedule`): an input frame read later than that in its interval cannot be shown
    /// at +1 and is counted as read after the latch. Returns the stroke's report when the
    /// stroke has ended and this was its last frame.
    public mutating func flipCompleted(sequence: UInt32, vblank: Instant, period: Duration, latchMargin: Duration = .zero) -> VblankStrokeReport? {
        let p = max(period.nanoseconds, 1)
        stroke.periodNanoseconds = p
        var newest: Int64?
        var shownTip: Point?
        while count > 0, pending[head].queued != 0 {
            let entry = pending[head]
            // Entries come in the order they were presented: the last is the frame on the glass.
            shownTip = entry.tip
            head = (head + 1) % Self.capacity
            count -= 1
            let elapsed = vblank.nanoseconds - entry.input
            guard elapsed > 0 else {
                // Shown before it was read: the two clocks disagree; no figure is better than a wrong one.
                stroke.unmeasured += 1
                continue
            }
            let n = Int((elapsed + p - 1) / p)
            stroke.count(vblanksAfter: n)
            newest = max(newest ?? entry.input, entry.input)
            // Time left from the input to the first vblank after it: (elapsed - 1) mod P + 1.
            if (elapsed - 1) % p + 1 <= latchMargin.nanoseconds {
                stroke.readAfterLatch += 1
            } else if n > 1 {
                stroke.missedDeadline += 1  // read in time for the next vblank, shown at a later one
            }
            history[historyNext] = Record(
                input: Instant(nanoseconds: entry.input), sequence: sequence, vblank: vblank, vblanksAfter: n,
                presented: Instant(nanoseconds: entry.presented), queued: Instant(nanoseconds: entry.queued))
            historyNext = (historyNext + 1) % Self.historyCapacity
            historyCount = min(historyCount + 1, Self.historyCapacity)
        }
        // What this flip put on the glass is as old as the newest input drawn in it.
        if let newest { stroke.age.add(.nanoseconds(vblank.nanoseconds - newest)) }
        if newest != nil, let shownTip { lag.shown(tip: shownTip, at: vblank) }
        return finishIfDone()
    }

    /// What was presented will never be flipped (the display went away, a modeset showed
    /// it at once, the flip was refused): counted as unmeasured, never as on time.
    public mutating func abandon() -> VblankStrokeReport? {
        stroke.unmeasured += count
        head = 0
        count = 0
        return finishIfDone()
    }

    /// A flip landed a vblank later than it was requested for (`FlipSchedule`).
    public mutating func noteLateFlip() {
        stroke.lateFlips += 1
    }

    /// The finger lifted: the report comes once every frame of the stroke is on screen
    /// (now, if none is outstanding).
    public mutating func endStroke() -> VblankStrokeReport? {
        closing = true
        return finishIfDone()
    }

    /// The newest records, oldest first (at most `historyCapacity`).
    public var records: [Record] {
        (0..<historyCount).map { history[(historyNext - historyCount + $0 + Self.historyCapacity) % Self.historyCapacity] }
    }

    private mutating func finishIfDone() -> VblankStrokeReport? {
        guard closing, count == 0 else { return nil }
        closing = false
        (stroke.lag, stroke.lagUnmeasured) = lag.finish()
        defer { stroke = VblankStrokeReport() }
        return stroke.frames > 0 || stroke.inputs > 0 || stroke.unmeasured > 0 ? stroke : nil
    }
}

/// One stroke's vblank latency: how many input frames were shown at vblank +1, +2, +3 or
/// later, and what the frames cost in the process. Logged by gridlockd at debug priority as
/// one line of `key=value` words (`logLine`), which `gridlock latency` turns into JSON.
public struct VblankStrokeReport: Hashable, Sendable {
    /// Min, max and total of a per-frame duration.
    public struct Spread: Hashable, Sendable {
        public var count = 0
        public var total: Duration = .zero
        public var max: Duration = .zero
        mutating func add(_ d: Duration) {
            count += 1
            total += d
            self.max = Swift.max(self.max, d)
        }
        public var mean: Duration { count == 0 ? .zero : total / count }
    }

    /// Input frames shown, by n of vblank +n: index 0 is +1, 1 is +2, 2 is +3, 3 is +4 or later.
    public var shown: [Int] = [0, 0, 0, 0]
    /// Input frames whose picture was presented but never flipped (display lost, ring full).
    public var unmeasured = 0
    /// Rendered frames (each answers one or more input frames).
    public var frames = 0
    /// Frames presented while a flip was pending, which went out with the next flip.
    public var waitedForFlip = 0
    /// Render time per frame: the daemon's draw and present, less the copy.
    public var render = Spread()
    /// Copy of the damaged rectangles into the dumb buffer, per flip.
    public var copy = Spread()
    /// The longest a presented frame waited for the previous flip to land.
    public var flipWait: Duration = .zero
    public var periodNanoseconds: Int64 = 0
    /// Flips that landed a vblank later than the one they were requested for.
    public var lateFlips = 0
    /// Input frames read within the latch margin before the next vblank: too late for +1 by design.
    public var readAfterLatch = 0
    /// Input frames read before the latch point that still reached the screen a vblank (or
    /// more) later than the next one: the scheduler's misses.
    public var missedDeadline = 0
    /// Per flip during the stroke, the age of what it showed: its vblank's time less the
    /// kernel time of the newest input frame drawn in it.
    public var age = AgeHistogram()
    /// Per flip during the stroke, how far the drawn tip was from the finger at its vblank
    /// (`TipLagMeter`), and the flips that could not be measured (no sample after them).
    public var lag = LagHistogram()
    public var lagUnmeasured = 0

    public var inputs: Int { shown.reduce(0, +) }

    /// missedDeadline over the input frames read before the latch point (0 when none were).
    public var missedDeadlineRate: Double {
        let inTime = inputs - readAfterLatch
        return inTime > 0 ? Double(missedDeadline) / Double(inTime) : 0
    }

    mutating func count(vblanksAfter n: Int) {
        shown[min(n, 4) - 1] += 1
    }

    public var logLine: String {
        func us(_ d: Duration) -> Int64 { d.nanoseconds / 1000 }
        return "stroke vblank latency: inputs=\(inputs) vblank+1=\(shown[0]) vblank+2=\(shown[1]) vblank+3=\(shown[2]) "
            + "vblank+4-or-later=\(shown[3]) unmeasured=\(unmeasured) frames=\(frames) waited-for-flip=\(waitedForFlip) "
            + "period-us=\(periodNanoseconds / 1000) render-mean-us=\(us(render.mean)) render-max-us=\(us(render.max)) "
            + "copy-mean-us=\(us(copy.mean)) copy-max-us=\(us(copy.max)) flip-wait-max-us=\(us(flipWait)) late-flips=\(lateFlips) read-after-latch=\(readAfterLatch) "
            + "missed-deadline=\(missedDeadline) age-p50-us=\(us(age.percentile(50))) age-p99-us=\(us(age.percentile(99))) "
            + "lag-frames=\(lag.count) lag-unmeasured=\(lagUnmeasured) "
            + "lag-p50-cpx=\(Int((lag.percentile(50) * 100).rounded())) lag-p99-cpx=\(Int((lag.percentile(99) * 100).rounded()))"
    }

    /// The prefix of `logLine`, by which a log line is recognised.
    public static let logPrefix = "stroke vblank latency: "

    /// The `key=value` figures of a logged report, in order, from any line that holds one
    /// (a journal line with its own prefix too); nil for other lines or a damaged one.
    public static func figures(inLogLine line: String) -> [(key: String, value: Int)]? {
        guard let start = line.firstRange(of: logPrefix) else { return nil }
        var figures: [(key: String, value: Int)] = []
        for word in line[start.upperBound...].split(separator: " ") {
            let parts = word.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1]) else { return nil }
            figures.append((String(parts[0]), value))
        }
        return figures.isEmpty ? nil : figures
    }
}

/// A stroke's frame ages in bins of 100 µs from 0 to 100 ms (older ones in the last bin),
/// so that its percentiles cost fixed storage, made once per stroke, nothing per frame.
public struct AgeHistogram: Hashable, Sendable {
    static let binNanoseconds: Int64 = 100_000
    private var bins = BinnedCounts(binCount: 1000)
    public var count: Int { bins.count }

    public init() {}

    mutating func add(_ age: Duration) {
        bins.add(Int(min(max(age.nanoseconds, 0) / Self.binNanoseconds, Int64(bins.binCount - 1))))
    }

    /// The upper edge of the bin holding the `percent`th percentile (nearest rank), so the
    /// figure is never below the true one by more than the 100 µs bin; zero with no samples.
    public func percentile(_ percent: Int) -> Duration {
        .nanoseconds(Int64(bins.percentileUpperEdge(percent)) * Self.binNanoseconds)
    }
}
