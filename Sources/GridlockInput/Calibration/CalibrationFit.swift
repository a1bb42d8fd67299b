import GridlockCore

/// The pure half of `gridlock calibrate`: five targets as tslib's `ts_calibrate` shows
/// them (the corners inset by 10 % and the centre), and the least-squares affine map from
/// where the finger landed to where it should have, as a `CalibrationMatrix`.
///
/// Coordinates follow `CoordinateMapper`: a touch is the device's raw position normalised
/// to 0...1 per axis (physical, unturned); the matrix acts there, before the display
/// rotation turns the result into the logical frame. So a target shown at a logical
/// point is first turned back into physical terms, and the fit finds the matrix M with
/// `M(touch) ≈ rotation.physical(fromLogical: target)`.
public struct CalibrationFit: Hashable, Sendable {
    /// What the person was asked to touch and where the device said the finger was.
    public struct Sample: Hashable, Sendable {
        /// In the logical frame, normalised to 0...1 (as `targets` gives them).
        public var target: Point
        /// The device's position normalised to 0...1 per axis (`CoordinateMapper`'s normalisation).
        public var touch: Point

        public init(target: Point, touch: Point) {
            self.target = target
            self.touch = touch
        }
    }

    public let matrix: CalibrationMatrix
    /// Root mean square distance, in logical pixels, between each target and where the
    /// calibrated touch lands.
    public let rmsErrorPixels: Double
    /// The worst sample's distance in pixels.
    public let maxErrorPixels: Double

    /// Top-left, top-right, bottom-right, bottom-left (each 10 % in from the edges), centre;
    /// normalised logical coordinates: the crosses a panel's face shows too.
    public static let targets: [Point] = CalibrationTaps.targets

    /// The targets in pixels of a logical frame.
    public static func targets(in frame: Size) -> [Point] {
        targets.map { Point(x: $0.x * frame.width, y: $0.y * frame.height) }
    }

    /// A calibrated touch worse than this many pixels from its target (or this fraction of
    /// the frame's shorter side, whichever is larger) means a slip of the finger, not a
    /// calibration worth storing.
    static let worstAcceptablePixels = 24.0
    static let worstAcceptableFraction = 0.05

    /// Fits the matrix. `frame` is the logical frame in pixels (for the error figures).
    ///
    /// Refused: fewer than three samples, non-finite values, touches that do not span an
    /// area (a finger that never moved, one axis dead), a map that would stretch or shrink
    /// the panel by more than a factor of two or shift it by more than its own size (the
    /// touches do not belong to this screen), and a fit that leaves a sample far from its target.
    public static func fit(samples: [Sample], rotation: Rotation, frame: Size) throws(CalibrationFitError) -> CalibrationFit {
        guard samples.count >= 3 else { throw .tooFewSamples(samples.count) }
        for (index, s) in samples.enumerated()
        where ![s.target.x, s.target.y, s.touch.x, s.touch.y].allSatisfy(\.isFinite) {
            throw .notFinite(sample: index + 1)
        }
        guard frame.width > 0, frame.height > 0 else { throw .degenerate("the frame \(frame.width)x\(frame.height) is empty") }

        // Normal equations of the least-squares problem [x y 1] p = u, centred on the mean
        // touch so that the spread test below is independent of where the touches are.
        let n = Double(samples.count)
        let mx = samples.reduce(0) { $0 + $1.touch.x } / n
        let my = samples.reduce(0) { $0 + $1.touch.y } / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for s in samples {
            let dx = s.touch.x - mx, dy = s.touch.y - my
            sxx += dx * dx
            sxy += dx * dy
            syy += dy * dy
        }
        let det = sxx * syy - sxy * sxy
        // The smaller eigenvalue of the touches' scatter: how far they spread in their
        // narrowest direction. Under ~2 % of the panel means they lie on a line (or a point).
        let trace = sxx + syy
        let narrowest = (trace - (trace * trace - 4 * det).squareRoot()) / 2
        guard narrowest / n > 0.02 * 0.02, det > 0 else {
            throw .degenerate("the touches lie on a line or at one point; touch each target where it is shown")
        }

        let physicalTargets = samples.map { rotation.physical(fromLogical: $0.target) }
        func solve(_ value: (Point) -> Double) -> (Double, Double, Double) {
            let mu = physicalTargets.reduce(0) { $0 + value($1) } / n
            var sxu = 0.0, syu = 0.0
            for (s, t) in zip(samples, physicalTargets) {
                sxu += (s.touch.x - mx) * (value(t) - mu)
                syu += (s.touch.y - my) * (value(t) - mu)
            }
            let a = (sxu * syy - syu * sxy) / det
            let b = (syu * sxx - sxu * sxy) / det
            return (a, b, mu - a * mx - b * my)
        }
        let (a, b, c) = solve(\.x)
        let (d, e, f) = solve(\.y)

        // A touch panel overlays its display: the map may swap and invert axes and correct
        // a modest scale and offset, nothing more.
        let column1 = (a * a + d * d).squareRoot(), column2 = (b * b + e * e).squareRoot()
        let area = abs(a * e - b * d)
        guard (0.5...2).contains(column1), (0.5...2).contains(column2), area >= 0.25, abs(c) <= 2, abs(f) <= 2 else {
            throw .implausible(
                "the touches would need the matrix \(format([a, b, c, d, e, f])), which stretches or shifts the panel too far; is this touch device on this display?")
        }
        let matrix: CalibrationMatrix
        do {
            matrix = try CalibrationMatrix(values: [a, b, c, d, e, f])
        } catch {
            throw .degenerate("\(error)")
        }

        var sumSquares = 0.0, worst = 0.0, worstIndex = 0
        for (index, s) in samples.enumerated() {
            let landed = rotation.logical(fromPhysical: matrix.apply(to: s.touch))
            let dx = (landed.x - s.target.x) * frame.width, dy = (landed.y - s.target.y) * frame.height
            let distance = (dx * dx + dy * dy).squareRoot()
            sumSquares += distance * distance
            if distance > worst { (worst, worstIndex) = (distance, index) }
        }
        let limit = max(worstAcceptablePixels, worstAcceptableFraction * min(frame.width, frame.height))
        guard worst <= limit else {
            throw .poorFit(sample: worstIndex + 1, errorPixels: worst, limitPixels: limit)
        }
        return CalibrationFit(matrix: matrix, rmsErrorPixels: (sumSquares / n).squareRoot(), maxErrorPixels: worst)
    }

    /// The config line: `calibration=a b c d e f` (six decimals: a thousandth of a pixel on any panel).
    public var configValue: String {
        Self.format([matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f])
    }

    static func format(_ values: [Double]) -> String {
        values.map { value in
            let scaled = (value * 1_000_000).rounded()
            let negative = scaled < 0
            let magnitude = Int(abs(scaled))
            let fraction = String(magnitude % 1_000_000)
            let padded = String(repeating: "0", count: 6 - fraction.count) + fraction
            var text = "\(negative ? "-" : "")\(magnitude / 1_000_000).\(padded)"
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text == "-0" ? "0" : text
        }.joined(separator: " ")
    }
}

public enum CalibrationFitError: Error, Hashable, CustomStringConvertible {
    case tooFewSamples(Int)
    case notFinite(sample: Int)
    case degenerate(String)
    case implausible(String)
    case poorFit(sample: Int, errorPixels: Double, limitPixels: Double)

    public var description: String {
        switch self {
        case .tooFewSamples(let count):
            "calibration needs at least 3 touches (5 targets are shown), got \(count)"
        case .notFinite(let sample):
            "calibration touch \(sample) is not a finite position"
        case .degenerate(let reason):
            "cannot calibrate: \(reason)"
        case .implausible(let reason):
            "refusing the calibration: \(reason)"
        case .poorFit(let sample, let error, let limit):
            "refusing the calibration: touch \(sample) lands \(Int(error.rounded())) px from its target even after the best fit (limit \(Int(limit.rounded())) px); try again, touching the centre of each target"
        }
    }
}
