import Testing
@testable import GridlockCore

/// The predicted tip on the model display: a vblank every 16.67 ms, each frame drawn 4 ms
/// before its vblank from the samples read by then.
@Suite struct TipPredictorTests {
    static let model = TipLagModel()
    /// A node's drawn radius on a 800x480 panel (0.12 of a 128-pixel cell).
    static let nodeRadius = SceneMetrics(layout: layout()).ringRadius
    static let tuning = TipPredictor.Tuning(maxDistance: nodeRadius)
    /// Every vblank phase against the samples, a millisecond apart.
    static let phases = (0..<17).map { Duration.milliseconds($0) }

    /// A finger moving through `corners` at `speed` pixels per second, sampled every `interval`.
    static func stroke(_ corners: [Point], speed: Double, interval: Duration = .milliseconds(10)) -> [(point: Point, time: Instant)] {
        var samples: [(point: Point, time: Instant)] = [(corners[0], .zero)]
        let step = speed * Double(interval.nanoseconds) / 1e9
        var time = Instant.zero
        for (a, b) in zip(corners, corners.dropFirst()) {
            let count = max(1, Int((a.distance(to: b) / step).rounded()))
            for k in 1...count {
                let f = Double(k) / Double(count)
                time = time + interval
                samples.append((Point(x: a.x + f * (b.x - a.x), y: a.y + f * (b.y - a.y)), time))
            }
        }
        return samples
    }

    static func lags(_ frames: [TipLagModel.Frame]) -> [Double] { frames.filter(\.moving).map(\.lag) }

    @Test("a straight drag at constant speed trails the finger by at most half as much with prediction")
    func straightDragHalvesTheLag() {
        let samples = Self.stroke([Point(x: 100, y: 240), Point(x: 700, y: 240)], speed: 800)
        var off: [Double] = [], on: [Double] = []
        for phase in Self.phases {
            // The first 50 ms set the velocity up; the steady drag is what is measured.
            let steady = { (frame: TipLagModel.Frame) in frame.vblank > Instant.milliseconds(50) }
            off += Self.lags(Self.model.frames(of: samples, predictor: nil, phase: phase).filter(steady))
            on += Self.lags(Self.model.frames(of: samples, predictor: Self.tuning, phase: phase).filter(steady))
        }
        let (offMedian, onMedian) = (TipLagModel.quantile(0.5, of: off), TipLagModel.quantile(0.5, of: on))
        print("straight drag 800 px/s, 100 Hz: lag p50 \(offMedian) -> \(onMedian) px, p99 \(TipLagModel.quantile(0.99, of: off)) -> \(TipLagModel.quantile(0.99, of: on)) px")
        #expect(onMedian <= offMedian / 2)
        let offMean: Double = off.reduce(0, +) / Double(off.count)
        let onMean: Double = on.reduce(0, +) / Double(on.count)
        #expect(onMean <= offMean / 2)
    }

    @Test("a finger that stops while down has the tip back on it within two frames, never a node's radius past it")
    func stopSettlesWithinTwoFrames() {
        let moving = Self.stroke([Point(x: 100, y: 240), Point(x: 400, y: 240)], speed: 800)
        let stop = moving[moving.count - 1]
        // Panels that send nothing for a finger at rest, and panels that go on sending its position.
        var resting = moving
        for k in 1...10 { resting.append((stop.point, stop.time + .milliseconds(10 * Int64(k)))) }
        for samples in [moving, resting] {
            for phase in Self.phases {
                let frames = Self.model.frames(of: samples, predictor: Self.tuning, phase: phase)
                for frame in frames where frame.vblank >= stop.time {
                    #expect(frame.drawn.distance(to: stop.point) <= Self.nodeRadius)
                    if frame.vblank >= stop.time + Self.model.period + Self.model.period {
                        #expect(frame.drawn == stop.point, "phase \(phase): at \(frame.vblank) the tip is at \(frame.drawn)")
                    }
                }
                #expect(frames.contains { $0.vblank >= stop.time + Self.model.period + Self.model.period })
            }
        }
    }

    @Test("a sharp turn or a reversal is never overshot by more than the lead's bound")
    func sharpTurnStaysWithinTheBound() {
        let speed = 800.0
        // Eight milliseconds of travel (the samples' spacing is rounded: 1 % spare).
        let bound = min(1.01 * speed * 0.008, Self.nodeRadius)
        let turns: [[Point]] = [
            [Point(x: 100, y: 100), Point(x: 400, y: 100), Point(x: 400, y: 400)],
            [Point(x: 100, y: 240), Point(x: 500, y: 240), Point(x: 200, y: 240)],
            [Point(x: 100, y: 100), Point(x: 400, y: 100), Point(x: 150, y: 300)],
        ]
        for corners in turns {
            let samples = Self.stroke(corners, speed: speed)
            // Once a step after the corner was read, the turn is seen: the old direction is
            // not followed off the path (a third of the bound leaves the filter's tail),
            // until the finger stops at the end (the stop's own overshoot is bounded above).
            let turnSeen = samples[samples.firstIndex { $0.point == corners[1] }! + 1].time
            for phase in Self.phases {
                for frame in Self.model.frames(of: samples, predictor: Self.tuning, phase: phase) {
                    let off = Self.distance(from: frame.drawn, toPath: corners)
                    #expect(off <= bound + 1e-9, "phase \(phase): \(frame.drawn) is \(off) px off the path")
                    let drawnAt = frame.vblank + (.zero - Self.model.inputDelay)
                    if drawnAt >= turnSeen, drawnAt < samples[samples.count - 1].time {
                        #expect(off <= bound / 3, "phase \(phase): after the turn \(frame.drawn) is \(off) px off the path")
                    }
                }
            }
        }
    }

    @Test("prediction never moves the tip further than its bounds from the last sample")
    func predictionIsBoundedInTimeAndDistance() {
        var predictor = TipPredictor(tuning: Self.tuning)
        let samples = Self.stroke([Point(x: 0, y: 240), Point(x: 800, y: 240)], speed: 5000)
        for sample in samples.prefix(8) { predictor.feed(.move(sample.point), at: sample.time) }
        #expect(predictor.tip(at: .zero, now: .zero) == nil, "moves without a touch-down are not a finger")
        predictor.feed(.down(samples[0].point), at: samples[0].time)
        for sample in samples.dropFirst().prefix(7) { predictor.feed(.move(sample.point), at: sample.time) }
        let last = samples[7]
        let far = predictor.tip(at: last.time + .seconds(1), now: last.time)
        #expect(far.map { abs($0.distance(to: last.point) - Self.nodeRadius) < 1e-9 } == true)
        var slow = TipPredictor.Tuning(maxDistance: 1000)
        slow.maxLead = .milliseconds(8)
        var unbounded = TipPredictor(tuning: slow)
        unbounded.feed(.down(samples[0].point), at: samples[0].time)
        for sample in samples.dropFirst().prefix(7) { unbounded.feed(.move(sample.point), at: sample.time) }
        let ahead = unbounded.tip(at: last.time + .seconds(1), now: last.time).map { $0.x - last.point.x } ?? 0
        #expect(ahead > 0 && ahead <= 5000 * 0.008 + 1e-9)
        predictor.feed(.up, at: last.time)
        #expect(predictor.tip(at: last.time, now: last.time) == nil)
    }

    @Test("a slow finger's predicted tip wobbles within a tenth of the samples' own wobble; unfiltered it would by half as much again")
    func slowNoisyDragDoesNotJitter() {
        // 100 px/s with a sample every 10 ms, each off by up to 1.5 px (a fixed sequence).
        var seed: UInt64 = 1
        func noise() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53) * 3 - 1.5
        }
        let samples = (0..<100).map { k in
            (point: Point(x: 200 + Double(k) + noise(), y: 240 + noise()), time: Instant.milliseconds(Int64(10 * k)))
        }
        var unfiltered = Self.tuning
        (unfiltered.minCutoff, unfiltered.beta, unfiltered.positionCutoff) = (1e6, 0, 1e6)
        func wobble(_ tuning: TipPredictor.Tuning?) -> Double {
            // The spread of the drawn tip about the finger's noise-free line, its mean lag
            // taken out: what the eye sees shake.
            let frames = Self.model.frames(of: samples, predictor: tuning).filter(\.moving)
            let offsets = frames.map { frame in
                Point(x: frame.drawn.x - (200 + Double(frame.vblank.nanoseconds) / 1e7), y: frame.drawn.y - 240)
            }
            let mean = Point(x: offsets.map(\.x).reduce(0, +) / Double(offsets.count), y: offsets.map(\.y).reduce(0, +) / Double(offsets.count))
            let squares = offsets.map { ($0.x - mean.x) * ($0.x - mean.x) + ($0.y - mean.y) * ($0.y - mean.y) }
            return (squares.reduce(0, +) / Double(squares.count)).squareRoot()
        }
        let (off, on, raw) = (wobble(nil), wobble(Self.tuning), wobble(unfiltered))
        print("slow noisy drag: tip wobble \(off) px at the samples, \(on) px predicted, \(raw) px predicted unfiltered")
        #expect(on <= off * 1.1)
        #expect(raw > off * 1.5)
    }

    /// How far `point` is from the polyline through `corners`.
    static func distance(from point: Point, toPath corners: [Point]) -> Double {
        zip(corners, corners.dropFirst()).map { a, b in
            let dx = b.x - a.x, dy = b.y - a.y
            let t = max(0, min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / (dx * dx + dy * dy)))
            return point.distance(to: Point(x: a.x + t * dx, y: a.y + t * dy))
        }.min() ?? .infinity
    }
}
