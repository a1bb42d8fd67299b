import GridlockCore
import GridlockDaemon
import GridlockRendering
import LinuxSys

/// Times the benchmark scene: every frame redrawn in full, then only the damage.
public enum BenchRunner {
    public struct Timing: Sendable {
        public var total: Double  // milliseconds
        public var p50: Double
        public var p99: Double

        init(samples: [Double]) {
            let sorted = samples.sorted()
            total = samples.reduce(0, +)
            p50 = sorted[sorted.count / 2]
            // Nearest rank: the smallest sample with at least 99 % of samples at or below it.
            p99 = sorted[min(sorted.count - 1, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1)]
        }
    }

    public struct SizeResult: Sendable {
        public var size: Size
        public var full: Timing
        public var damageOnly: Timing
        /// Mean damaged area per frame, as a fraction of the canvas.
        public var damagedFraction: Double
    }

    public static func measure(size: Size, theme: Theme = Theme()) throws(RenderError) -> SizeResult {
        let (initial, frames) = BenchScene.scenes(size: size)
        let renderer = try SceneRenderer(size: size, theme: theme)

        // Warm-up: caches (font, cairo's path storage) filled as in a running daemon.
        renderer.render(initial, damage: nil)
        renderer.render(frames[frames.count / 2], damage: nil)

        var full: [Double] = []
        for scene in frames {
            let watch = Stopwatch()
            renderer.render(scene, damage: nil)
            full.append(watch.elapsedMilliseconds)
        }

        renderer.render(initial, damage: nil)
        var damaged: [Double] = []
        var area = 0.0
        var previous = initial
        for scene in frames {
            let watch = Stopwatch()
            let damage = Damage.between(previous, scene, geometry: theme.geometry)
            renderer.render(scene, damage: damage)
            damaged.append(watch.elapsedMilliseconds)
            area += damage.rects.reduce(0) { $0 + $1.area }
            previous = scene
        }
        return SizeResult(
            size: size, full: Timing(samples: full), damageOnly: Timing(samples: damaged),
            damagedFraction: area / Double(frames.count) / (size.width * size.height))
    }

    /// Draws the first `count` damage-only frames of the scene after the same warm-up as
    /// `measure`, untimed, and returns the damaged area they covered (in pixels). For
    /// instruction counters (valgrind): what `count` frames cost is the difference between
    /// a run with `count` and one with 0, which does everything else the same.
    ///
    /// `around` is handed the frames' loop, which it must call once: an in-process counter
    /// starts and stops around it, so that it counts the frames and nothing else.
    public static func drawDamageFrames(
        size: Size, count: Int, around: (_ drawFrames: () -> Void) -> Void = { $0() }
    ) throws(RenderError) -> Double {
        let (initial, frames) = BenchScene.scenes(size: size)
        let renderer = try SceneRenderer(size: size, theme: Theme())
        let geometry = Theme().geometry
        renderer.render(initial, damage: nil)
        renderer.render(frames[frames.count / 2], damage: nil)
        renderer.render(initial, damage: nil)
        var area = 0.0
        var previous = initial
        around {
            for scene in frames.prefix(count) {
                let damage = Damage.between(previous, scene, geometry: geometry)
                renderer.render(scene, damage: damage)
                area += damage.rects.reduce(0) { $0 + $1.area }
                previous = scene
            }
        }
        return area
    }
}
