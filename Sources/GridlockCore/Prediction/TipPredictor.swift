/// Where to draw the tip of the pattern line (the segment from the last selected node to
/// the finger) at the moment a frame reaches the glass, not where the finger was at the
/// last touch sample: between the two lie the input period, the render and the wait for
/// vblank, so a tip drawn at the sample trails a moving finger.
///
/// Method: the tip is extrapolated along the finger's velocity for the time from the last
/// sample to the display time. The velocity (from consecutive samples) is smoothed by a
/// One Euro filter whose cutoff rises with the finger's speed, so a slow finger's tip does
/// not jitter and a fast one's velocity is barely late; the position it starts from is the
/// sample low-passed and carried along that velocity (level and trend, as in Holt's
/// smoothing), so the panel's sample noise is not thrown ahead with the tip. The lead is
/// at most `maxLead` (8 ms, Android's RESAMPLE_MAX_PREDICTION) and the tip at most
/// `maxDistance` from the sample (a node's radius). Prediction is off, the tip drawn at
/// the sample itself, until a stroke has three samples; when the finger turns (its last
/// two steps are more than 30° off the smoothed direction) or slows (they are slower than
/// `slowRatio` of the smoothed speed, or than `minSpeed`); and once no sample came for
/// `pauseFactor` sample intervals (a finger at rest sends none): `settlesAt` says when,
/// so the shell redraws then and the tip is back on the finger.
///
/// Only the drawn tip uses this: node hits, the pattern and everything verified come from
/// the real samples, which the predictor never changes.
public struct TipPredictor: Sendable {
    public struct Tuning: Hashable, Sendable {
        /// The furthest ahead of the last sample the tip is extrapolated.
        public var maxLead: Duration = .milliseconds(8)
        /// The furthest from the last sample the tip is drawn, in pixels.
        public var maxDistance: Double
        /// The One Euro filter on the velocity: the cutoff at rest (Hz) and its rise per
        /// pixel per second of speed. At 600 px/s (a steady unlock on a 800x480 panel, a
        /// fifth of a second per cell) the cutoff is 10 + 12 = 22 Hz, a time constant of 7 ms.
        public var minCutoff = 10.0
        public var beta = 0.02
        /// The cutoff (Hz) of the low-pass on the position the tip is extrapolated from,
        /// carried along the velocity between samples so that it does not trail: a panel's
        /// sample noise is not pushed ahead with the tip.
        public var positionCutoff = 10.0
        /// Two steps further off the smoothed direction than the angle of this cosine (30°)
        /// are a turn.
        public var turnLimitCosine = 0.866
        /// Where the lead reaches less far than this (pixels), turns are not looked for.
        public var turnCheckedFrom = 2.0
        /// Two steps slower than this fraction of the smoothed speed are a finger slowing down.
        public var slowRatio = 0.3
        /// Slower than this (pixels per second), the finger is taken to be at rest.
        public var minSpeed = 50.0
        /// No sample for this many sample intervals: the finger has stopped.
        public var pauseFactor = 1.25
        /// The bounds of that pause, whatever the sample rate: a 240 Hz panel must not
        /// settle between two samples of a moving finger, a 50 Hz one must still settle.
        public var pauseBounds: ClosedRange<Duration> = .milliseconds(4) ... .milliseconds(25)

        public init(maxDistance: Double) { self.maxDistance = maxDistance }
    }

    public var tuning: Tuning
    private var last: (point: Point, time: Instant)?
    /// The sample before `last`: the course is judged over two steps, which halves the
    /// part of the sample noise in it.
    private var previous: (point: Point, time: Instant)?
    private var samples = 0
    private var velocity: OneEuroFilter
    /// The finger's position with the sample noise smoothed out, carried along the velocity
    /// between samples so that it does not trail a moving finger.
    private var level: Point?
    /// The smoothed time between samples, in seconds.
    private var interval: Double?
    /// Whether the last sample's step keeps the finger's course (not turning, not slowing).
    private var steady = false

    public init(tuning: Tuning) {
        self.tuning = tuning
        velocity = OneEuroFilter(minCutoff: tuning.minCutoff, beta: tuning.beta)
    }

    /// Feeds a touch step of the primary finger at the kernel's time of its input frame.
    public mutating func feed(_ touch: TouchEvent, at time: Instant) {
        switch touch {
        case .down(let point):
            reset()
            sample(point, at: time)
        case .move(let point):
            if last != nil { sample(point, at: time) }
        case .up, .cancel:
            reset()
        }
    }

    /// Where to draw the tip for a frame that reaches the glass at `display`, drawn at
    /// `now`: the last sample itself whenever prediction is off; nil without a finger down.
    public func tip(at display: Instant, now: Instant) -> Point? {
        guard let last else { return nil }
        guard predicts(now: now), let v = velocity.value else { return last.point }
        let ahead = display.duration(since: last.time)
        guard ahead > .zero else { return last.point }
        let lead = Double(min(ahead, tuning.maxLead).nanoseconds) / 1e9
        let base = level ?? last.point
        var dx = base.x - last.point.x + v.x * lead, dy = base.y - last.point.y + v.y * lead
        let distance = (dx * dx + dy * dy).squareRoot()
        if distance > tuning.maxDistance {
            dx *= tuning.maxDistance / distance
            dy *= tuning.maxDistance / distance
        }
        return Point(x: last.point.x + dx, y: last.point.y + dy)
    }

    /// When a tip drawn now ahead of the finger must be drawn again on it (no sample came
    /// since: the finger rests); nil when the tip is on the last sample already.
    public var settlesAt: Instant? {
        guard let last, steady, samples >= 3, let pause else { return nil }
        return last.time + pause
    }

    private func predicts(now: Instant) -> Bool {
        guard let settlesAt else { return false }
        return now < settlesAt
    }

    private var pause: Duration? {
        guard let interval else { return nil }
        let scaled = Duration.saturating(seconds: interval * tuning.pauseFactor)
        return min(max(scaled, tuning.pauseBounds.lowerBound), tuning.pauseBounds.upperBound)
    }

    private mutating func sample(_ point: Point, at time: Instant) {
        defer {
            previous = last
            last = (point, time)
            samples += 1
        }
        guard let last else { return }
        let dt = Double(time.duration(since: last.time).nanoseconds) / 1e9
        // Two frames with one timestamp (or a clock step back) say nothing about speed.
        guard dt > 0.000_5 else {
            level = point
            return
        }
        interval = interval.map { 0.7 * $0 + 0.3 * dt } ?? dt
        let step = Point(x: (point.x - last.point.x) / dt, y: (point.y - last.point.y) / dt)
        let speed = (step.x * step.x + step.y * step.y).squareRoot()
        let before = velocity.value
        if let level, let v = before {
            let carried = Point(x: level.x + v.x * dt, y: level.y + v.y * dt)
            let a = OneEuroFilter.alpha(cutoff: tuning.positionCutoff, interval: dt)
            self.level = Point(x: carried.x + a * (point.x - carried.x), y: carried.y + a * (point.y - carried.y))
        } else {
            level = point
        }
        (velocity.minCutoff, velocity.beta) = (tuning.minCutoff, tuning.beta)
        let smoothed = velocity.filter(step, interval: dt, speed: speed)
        var course = step, courseSpeed = speed
        if let previous, case let span = Double(time.duration(since: previous.time).nanoseconds) / 1e9, span > dt {
            course = Point(x: (point.x - previous.point.x) / span, y: (point.y - previous.point.y) / span)
            courseSpeed = (course.x * course.x + course.y * course.y).squareRoot()
        }
        steady = Self.keepsCourse(step: course, speed: courseSpeed, smoothed: before ?? smoothed, tuning: tuning)
        // Off course, the smoothed position would cut the corner: it starts again on the finger.
        if !steady { level = point }
    }

    /// Whether a step of `speed` along `step` continues the smoothed motion: fast enough,
    /// not much slower than it, and not turning away from it.
    private static func keepsCourse(step: Point, speed: Double, smoothed: Point, tuning: Tuning) -> Bool {
        guard speed >= tuning.minSpeed else { return false }
        let smoothedSpeed = (smoothed.x * smoothed.x + smoothed.y * smoothed.y).squareRoot()
        guard smoothedSpeed > 0, speed >= tuning.slowRatio * smoothedSpeed else { return false }
        // Too slow for a turn to throw the tip visibly off: judging the direction of steps
        // this short, mostly sample noise, would only make the tip flicker on and off.
        let reach = smoothedSpeed * Double(tuning.maxLead.nanoseconds) / 1e9
        guard reach >= tuning.turnCheckedFrom else { return true }
        let cosine = (step.x * smoothed.x + step.y * smoothed.y) / (speed * smoothedSpeed)
        return cosine >= tuning.turnLimitCosine
    }

    private mutating func reset() {
        last = nil
        previous = nil
        samples = 0
        velocity.reset()
        interval = nil
        level = nil
        steady = false
    }
}
