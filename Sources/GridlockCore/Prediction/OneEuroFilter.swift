/// The One Euro filter (Casiez, Roussel and Vogel, CHI 2012) for a 2-D vector: an
/// exponential low-pass whose cutoff rises with speed, so a slow signal is smoothed hard
/// (where jitter shows) and a fast one barely (where lag shows).
///
/// Each step: τ = 1 / (2π · fc), α = 1 / (1 + τ / Δt), x̂ = x̂ + α · (x − x̂), with
/// fc = `minCutoff` + `beta` · speed. The caller says which speed raises the cutoff: the
/// tip predictor smooths the finger's velocity and raises the cutoff with the finger's speed.
public struct OneEuroFilter: Hashable, Sendable {
    /// The cutoff at rest, in Hz.
    public var minCutoff: Double
    /// How much the cutoff rises per unit of speed, in Hz per (unit per second).
    public var beta: Double
    /// The filtered value; nil before the first sample.
    public private(set) var value: Point?

    public init(minCutoff: Double, beta: Double) {
        self.minCutoff = minCutoff
        self.beta = beta
    }

    /// Filters `sample`, taken `interval` seconds after the previous one, at `speed`.
    /// The first sample is taken as it is: there is nothing to smooth it against.
    @discardableResult
    public mutating func filter(_ sample: Point, interval: Double, speed: Double) -> Point {
        guard let previous = value, interval > 0 else {
            value = sample
            return sample
        }
        let a = Self.alpha(cutoff: minCutoff + beta * max(speed, 0), interval: interval)
        let next = Point(x: previous.x + a * (sample.x - previous.x), y: previous.y + a * (sample.y - previous.y))
        value = next
        return next
    }

    public mutating func reset() { value = nil }

    /// The smoothing factor of a first-order low-pass with this cutoff (Hz) at this step (s).
    static func alpha(cutoff: Double, interval: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / interval)
    }
}
