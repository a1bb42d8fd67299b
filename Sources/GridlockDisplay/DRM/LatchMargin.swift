/// How long before the predicted vblank `FlipSchedule` requests the flip, learnt from what
/// this machine takes to get a frame onto a flip: render, then copy and commit.
///
/// The loop is single-threaded: an input frame read just before the latch point is rendered
/// first, the latch timer fires only after that (late), and the flip then goes out at once.
/// For that frame to make the coming vblank the margin must hold its render, the copy of the
/// damage and the flip request (`drmModePageFlip` from call to return, the part of the commit
/// the daemon can time); what the driver does after the ioctl returns is not visible, and the
/// fixed `safety` covers it. So:
///
///     margin = clamp(render estimate + (copy + commit) estimate + safety + boost,
///                    floor, ceiling)
///
/// Each estimate is the larger of a long-term and a short-term figure over its own samples:
/// the long-term one the 98.5th percentile of the last 256 (the 4th largest; the two tails
/// rarely meet, so the sum is beyond the 99th percentile of the total, and the safety is on
/// top), the short-term one the largest of the last 4 (a step up in render time counts from
/// its first frame, not after a few). A percentile, not mean + k·deviation: a vCPU
/// descheduled for 35 ms once in a few hundred frames inflates the deviation enough to double
/// a fast machine's margin, and moves no percentile but the top one.
///
/// Until each stream has `samplesNeeded` samples the margin is the ceiling, 7/8 of a frame
/// (mutter's frame clock starts at 0.875 of the refresh interval): conservative, with some
/// time left after the previous vblank to read input. The ceiling is that, not half a frame,
/// because render is inside the margin: a board rendering in 8 ms needs more than half of a
/// 60 Hz frame. A flip that lands a vblank late (`FlipSchedule.flipLanded`) adds 1 ms of
/// `boost` at once, for what the samples cannot see; each `quietFlips` flips in a row
/// without one take 1 ms of it back, so the margin returns to the measured figure. A latch
/// timer that wakes the loop late is not a late flip (`FlipSchedule` aims at the vblank
/// after the actual request).
///
/// Pure value: fed Durations by `FlipTiming` (and by the scheduler model in the tests), no
/// clock of its own, fixed storage.
struct LatchMargin: Hashable, Sendable {
    static let safety = Duration.milliseconds(1)
    static let floor = Duration.milliseconds(1)
    static let ceilingEighths: Int64 = 7
    static let samplesNeeded = 16
    static let lateStep = Duration.milliseconds(1)
    static let quietFlips = 120

    /// The last samples of one duration, kept in order too, with its estimate up to date.
    struct Samples: Hashable, Sendable {
        static let capacity = 256
        static let recent = 4
        /// Of a full window, the 4th largest: about the 98.5th percentile. Below 67
        /// samples it is the largest.
        static let permille = 985

        private var values = [Int64](repeating: 0, count: capacity)
        private var next = 0
        private var sorted: [Int64] = []
        private(set) var estimate: Duration = .zero

        init() { sorted.reserveCapacity(Self.capacity) }

        var count: Int { sorted.count }

        mutating func add(_ sample: Duration) {
            let value = max(sample.nanoseconds, 0)
            if sorted.count == Self.capacity { sorted.remove(at: position(of: values[next])) }
            sorted.insert(value, at: position(of: value))
            values[next] = value
            next = (next + 1) % Self.capacity
            let longTerm = sorted[min(count - 1, count * Self.permille / 1000)]
            var shortTerm: Int64 = 0
            for back in 1...min(Self.recent, count) { shortTerm = max(shortTerm, values[(next - back + Self.capacity) % Self.capacity]) }
            estimate = .nanoseconds(max(longTerm, shortTerm))
        }

        /// The first index in `sorted` whose value is not below `value`.
        private func position(of value: Int64) -> Int {
            var low = 0, high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    private(set) var renders = Samples()
    /// Copy plus commit, one per flip requested.
    private(set) var flips = Samples()
    /// Added by late flips, taken back by quiet periods.
    private(set) var boost: Duration = .zero
    private var flipsSinceLate = 0

    /// Whether enough has been measured to leave the conservative start.
    var hasLearnt: Bool { renders.count >= Self.samplesNeeded && flips.count >= Self.samplesNeeded }

    /// The margin for a display of frame period `period`.
    func margin(period: Duration) -> Duration {
        let ceiling = max(period * Self.ceilingEighths / 8, Self.floor)
        guard hasLearnt else { return ceiling }
        return min(max(renders.estimate + flips.estimate + Self.safety + boost, Self.floor), ceiling)
    }

    /// A frame took `render` to draw (not counting copy or commit).
    mutating func rendered(_ render: Duration) { renders.add(render) }

    /// A flip was requested: `copy` to copy the damage, `commit` for the page-flip call.
    mutating func flipRequested(copy: Duration, commit: Duration) { flips.add(copy + commit) }

    /// A flip landed, `late` when a vblank after the one it was requested for.
    mutating func flipLanded(late: Bool, period: Duration) {
        if late {
            boost = min(boost + Self.lateStep, period)
            flipsSinceLate = 0
            return
        }
        flipsSinceLate += 1
        guard flipsSinceLate >= Self.quietFlips else { return }
        flipsSinceLate = 0
        boost = max(boost - Self.lateStep, .zero)
    }
}
