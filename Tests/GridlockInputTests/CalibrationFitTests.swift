import GridlockCore
import GridlockInput
import GridlockEvdev
import Testing

@Suite("Calibration fit")
struct CalibrationFitTests {
    static let frame = Size(width: 800, height: 480)

    /// Where a finger on each target is reported by a device whose error is `truth`, i.e.
    /// whose raw positions `truth` maps back onto the screen: the inverse of `truth`
    /// applied to the target's physical position.
    static func samples(truth: [Double], rotation: Rotation, jitter: (Int) -> Point = { _ in .zero }) -> [CalibrationFit.Sample] {
        let (a, b, c, d, e, f) = (truth[0], truth[1], truth[2], truth[3], truth[4], truth[5])
        let det = a * e - b * d
        return CalibrationFit.targets.enumerated().map { index, target in
            let p = rotation.physical(fromLogical: target)
            let (u, v) = (p.x - c, p.y - f)
            let touch = Point(x: (e * u - b * v) / det, y: (a * v - d * u) / det)
            let j = jitter(index)
            return CalibrationFit.Sample(target: target, touch: Point(x: touch.x + j.x, y: touch.y + j.y))
        }
    }

    /// The distance in logical pixels between what two matrices make of a touch, at the
    /// corners and centre of the device's range.
    static func worstDifference(_ m: CalibrationMatrix, _ truth: [Double], rotation: Rotation) throws -> Double {
        let t = try CalibrationMatrix(values: truth)
        var worst = 0.0
        for p in [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 1), Point(x: 0.5, y: 0.5)] {
            let x = rotation.logical(fromPhysical: m.apply(to: p)), y = rotation.logical(fromPhysical: t.apply(to: p))
            let dx = (x.x - y.x) * frame.width, dy = (x.y - y.y) * frame.height
            worst = max(worst, (dx * dx + dy * dy).squareRoot())
        }
        return worst
    }

    static let truths: [(String, [Double])] = [
        ("identity", [1, 0, 0, 0, 1, 0]),
        ("inverted x", [-1, 0, 1, 0, 1, 0]),
        ("inverted y", [1, 0, 0, 0, -1, 1]),
        ("swapped axes", [0, 1, 0, 1, 0, 0]),
        ("turned 90", [0, -1, 1, 1, 0, 0]),
        ("turned 180", [-1, 0, 1, 0, -1, 1]),
        ("turned 270", [0, 1, 0, -1, 0, 1]),
        ("scale and offset", [1.08, 0, -0.04, 0, 0.93, 0.035]),
        ("swapped, inverted, scaled, shifted, a little sheared", [0.02, -1.1, 1.05, 0.95, 0.01, 0.03]),
    ]

    @Test("a known matrix is recovered from its five touches within half a pixel",
          arguments: truths.indices, Rotation.allCases)
    func recovers(truthIndex: Int, rotation: Rotation) throws {
        let (name, truth) = Self.truths[truthIndex]
        let fit = try CalibrationFit.fit(samples: Self.samples(truth: truth, rotation: rotation), rotation: rotation, frame: Self.frame)
        #expect(try Self.worstDifference(fit.matrix, truth, rotation: rotation) < 0.5, "\(name) at \(rotation)")
        #expect(fit.maxErrorPixels < 0.5)
    }

    @Test("with a finger's jitter the fit does no worse than the true matrix and reports the error")
    func jitter() throws {
        let truth = [0.0, 1.02, -0.01, -0.97, 0.0, 0.99]
        // About 2 px off on each corner target, in a pattern no affine map can absorb fully.
        let offsets = [Point(x: 0.002, y: -0.003), Point(x: -0.002, y: 0.003), Point(x: 0.002, y: 0.003), Point(x: -0.002, y: -0.003), .zero]
        let samples = Self.samples(truth: truth, rotation: .none, jitter: { offsets[$0] })
        let fit = try CalibrationFit.fit(samples: samples, rotation: .none, frame: Self.frame)
        let t = try CalibrationMatrix(values: truth)
        let truthSquares = samples.map { s -> Double in
            let p = t.apply(to: s.touch)
            let dx = (p.x - s.target.x) * Self.frame.width, dy = (p.y - s.target.y) * Self.frame.height
            return dx * dx + dy * dy
        }
        let truthRMS = (truthSquares.reduce(0, +) / Double(samples.count)).squareRoot()
        #expect(fit.rmsErrorPixels <= truthRMS + 1e-9)  // least squares: never worse than the truth
        #expect(fit.rmsErrorPixels > 0.3)  // and the residual is reported, not hidden
        #expect(fit.maxErrorPixels < 5)
        #expect(try Self.worstDifference(fit.matrix, truth, rotation: .none) < 4)
    }

    @Test("the centre-of-unit normalisation and this fit agree: a calibrated mapper hits the targets")
    func mapperHitsTargets() throws {
        let truth = [0.0, 1.0, 0.0, 1.0, 0.0, 0.0]  // a panel with swapped axes
        let axis = AbsInfo(minimum: 0, maximum: 4095)
        let fit = try CalibrationFit.fit(samples: Self.samples(truth: truth, rotation: .clockwise90), rotation: .clockwise90, frame: Self.frame)
        let mapper = try CoordinateMapper(x: axis, y: axis, calibration: fit.matrix, rotation: .clockwise90, frame: Self.frame)
        for (target, pixel) in zip(Self.samples(truth: truth, rotation: .clockwise90), CalibrationFit.targets(in: Self.frame)) {
            // Raw value whose normalised centre is the sample's touch.
            let raw = (x: Int32((target.touch.x * 4096 - 0.5).rounded()), y: Int32((target.touch.y * 4096 - 0.5).rounded()))
            #expect(mapper.point(x: raw.x, y: raw.y).distance(to: pixel) < 0.5)
        }
    }

    @Test("touches on one point or one line are refused as degenerate")
    func degenerate() {
        let targets = CalibrationFit.targets
        let samePoint = targets.map { CalibrationFit.Sample(target: $0, touch: Point(x: 0.4, y: 0.4)) }
        let onALine = targets.enumerated().map { CalibrationFit.Sample(target: $1, touch: Point(x: 0.1 + 0.2 * Double($0), y: 0.5)) }
        for samples in [samePoint, onALine] {
            let error = expectError(CalibrationFitError.self) {
                try CalibrationFit.fit(samples: samples, rotation: .none, frame: Self.frame)
            }
            guard case .degenerate(let reason) = error else {
                Issue.record("expected a degenerate fit, got \(String(describing: error))")
                continue
            }
            #expect(reason.contains("line or at one point"))
        }
        #expect(throws: CalibrationFitError.tooFewSamples(2)) {
            try CalibrationFit.fit(samples: Array(samePoint.prefix(2)), rotation: .none, frame: Self.frame)
        }
        var nan = Self.samples(truth: [1, 0, 0, 0, 1, 0], rotation: .none)
        nan[2].touch.x = .nan
        #expect(throws: CalibrationFitError.notFinite(sample: 3)) {
            try CalibrationFit.fit(samples: nan, rotation: .none, frame: Self.frame)
        }
    }

    @Test("a map that shrinks the panel to a quarter is implausible")
    func implausible() {
        // All touches crowded into a small square: the device is not this screen's.
        let samples = Self.samples(truth: [4, 0, -1.5, 0, 4, -1.5], rotation: .none)
        let error = expectError(CalibrationFitError.self) {
            try CalibrationFit.fit(samples: samples, rotation: .none, frame: Self.frame)
        }
        guard case .implausible = error else {
            Issue.record("expected an implausible fit, got \(String(describing: error))")
            return
        }
    }

    @Test("a slipped finger on one target is refused, naming it")
    func slip() {
        var samples = Self.samples(truth: [1, 0, 0, 0, 1, 0], rotation: .none)
        samples[1].touch = Point(x: 0.6, y: 0.35)  // target 2 is at (0.9, 0.1)
        let error = expectError(CalibrationFitError.self) {
            try CalibrationFit.fit(samples: samples, rotation: .none, frame: Self.frame)
        }
        guard case .poorFit(let sample, let pixels, _) = error else {
            Issue.record("expected a poor fit, got \(String(describing: error))")
            return
        }
        #expect(sample == 2)
        #expect(pixels > 24)
        #expect(error?.description.contains("touch") == true)
    }

    @Test("targets: corners inset by 10 % and the centre")
    func targets() {
        #expect(CalibrationFit.targets(in: Size(width: 800, height: 480)) == [
            Point(x: 80, y: 48), Point(x: 720, y: 48), Point(x: 720, y: 432), Point(x: 80, y: 432), Point(x: 400, y: 240),
        ])
    }

    @Test("the config value is six plain decimals that parse back to the matrix")
    func configValue() throws {
        let fit = try CalibrationFit.fit(
            samples: Self.samples(truth: [1.08, 0, -0.04, 0, 0.93, 0.035], rotation: .none), rotation: .none, frame: Self.frame)
        #expect(fit.configValue == "1.08 0 -0.04 0 0.93 0.035")
        let parsed = try CalibrationMatrix(parsing: fit.configValue)
        #expect(abs(parsed.a - 1.08) < 1e-9 && abs(parsed.f - 0.035) < 1e-9)
    }
}
