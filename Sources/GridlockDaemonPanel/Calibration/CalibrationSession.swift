import GridlockConfiguration
import GridlockCore
import GridlockDaemon
import GridlockDisplay
import GridlockRendering
import GridlockInput
import LinuxSys

/// `gridlock calibrate`: five crosses in turn on the configured display, one tap each on
/// the configured touch device read *uncalibrated*, then a least-squares fit.
///
/// The lock screen's machine has nothing to do here: a loop of its own drives the same
/// output and touch source the daemon would use.
public final class CalibrationSession {
    private let output: DisplayOutput
    private let touch: TouchSource
    private let renderer: SceneRenderer
    private let layout: GridLayout
    private let loop: EventLoop
    private let targetTimeout: EventLoop.Deadline
    /// The display and the touch source, stopped in reverse by a failed start or the end.
    private let group = PartGroup()
    /// Where the current wait sends touches.
    private var handleTouch: (TouchEvent, Instant) -> Void = { _, _ in }
    private var shown: Scene?

    public init(config: GridlockConfig) throws(DaemonError) {
        // Raw touches: an explicit identity matrix also keeps udev's matrix out.
        var raw = config
        raw.touch.calibration = .identity
        let loop: EventLoop
        do {
            loop = try EventLoop(signals: [.terminate, .interrupt])
        } catch {
            throw .system(error)
        }
        self.loop = loop
        let group = self.group
        let output = try DaemonParts.output(for: raw, headless: false, clock: { [loop] in loop.now() })
        group.add(display: output)
        let touch = try group.step { () throws(DaemonError) in
            try DaemonParts.touchSource(for: raw, frame: output.size, rotation: output.rotation, start: loop.now())
        }
        group.add(touch: touch)
        renderer = try group.step { () throws(DaemonError) in
            do {
                return try SceneRenderer(size: output.size, theme: config.theme)
            } catch {
                throw .display("\(error)")
            }
        }
        self.output = output
        self.touch = touch
        layout = config.gridLayout(frame: output.size)
        targetTimeout = loop.deadline("target timeout")
        loop.signalHandler = { [unowned self] _ in stopped = true }
        touch.attach(to: loop) { [unowned self] in handleTouch($0, $1) }
        output.attach(to: loop, newestFrame: { [unowned self] in renderer.buffer }) { [unowned self] event in
            if case .redrawAll = event {
                try? output.present(renderer.buffer, damage: .full(renderer.buffer.frame))
            }
        }
    }

    public enum Outcome {
        case fitted(CalibrationFit, rotation: Rotation)
        case refused(CalibrationFitError)
        case interrupted
        case timedOut
    }

    /// Shows the targets and collects one tap per target; `timeout` per target.
    public func run(timeout: Duration) -> Outcome {
        defer { group.stopAll(on: nil) }
        let targets = CalibrationFit.targets
        var samples: [CalibrationFit.Sample] = []
        for (index, target) in targets.enumerated() {
            let frame = output.size
            show(Scene(layout: layout, message: .calibrate(step: index + 1, count: targets.count),
                       target: Point(x: target.x * frame.width, y: target.y * frame.height)))
            guard let tap = waitForTap(deadline: loop.now() + timeout) else {
                return stopped ? .interrupted : .timedOut
            }
            // With the identity matrix the mapper only normalised and turned the touch:
            // undo the turn to get the device's own normalised position.
            let logical = Point(x: tap.x / output.size.width, y: tap.y / output.size.height)
            samples.append(.init(target: target, touch: output.rotation.physical(fromLogical: logical)))
        }
        do {
            let fit = try CalibrationFit.fit(samples: samples, rotation: output.rotation, frame: output.size)
            return .fitted(fit, rotation: output.rotation)
        } catch {
            return .refused(error)
        }
    }

    private var stopped = false

    private func show(_ scene: Scene) {
        let damage = Damage.between(shown, scene, geometry: renderer.theme.geometry)
        shown = scene
        renderer.render(scene, damage: damage)
        do {
            try output.present(renderer.buffer, damage: damage)
        } catch {
            Journal.log(.error, "display: \(error)")
        }
    }

    /// Where the finger was when it lifted (its last reported position), or nil.
    private func waitForTap(deadline: Instant) -> Point? {
        var last: Point?
        var tap: Point?
        var timedOut = false
        handleTouch = { event, _ in
            switch event {
            case .down(let p), .move(let p): last = p
            case .up: tap = last
            case .cancel: last = nil
            }
        }
        targetTimeout.onFire { _ in timedOut = true }
        targetTimeout.due = deadline
        defer { targetTimeout.due = nil }
        do {
            try loop.run(until: { tap != nil || stopped || timedOut })
        } catch {
            Journal.log(.error, "event loop: \(error)")
            return nil
        }
        return tap
    }
}
