import Glibc  // signal numbers
import GridlockCore
import GridlockDisplay
import GridlockInput
import LinuxSys

/// `gridlock calibrate`: five crosses in turn on the configured display, one tap each on
/// the configured touch device read *uncalibrated*, then a least-squares fit.
///
/// A small poll loop of its own (the lock screen's machine has nothing to do here), over
/// the same output and touch source the daemon would use.
public final class CalibrationSession {
    private let output: DisplayOutput
    private let touch: TouchSource
    private let renderer: SceneRenderer
    private let layout: GridLayout
    private let poller: EventPoller
    private let signals: SignalFD
    private let timer: TimerFD
    private var shown: Scene?

    public init(config: GridlockConfig) throws(DaemonError) {
        // Raw touches: an explicit identity matrix also keeps udev's matrix out.
        var raw = config
        raw.touch.calibration = [1, 0, 0, 0, 1, 0]
        do {
            signals = try SignalFD(signals: [SIGTERM, SIGINT])
            poller = try EventPoller()
            timer = try TimerFD()
        } catch {
            throw .system(error)
        }
        output = try DaemonComponents.output(for: raw, headless: false)
        touch = try DaemonComponents.touchSource(
            for: raw, frame: output.size, rotation: output.rotation, start: MonotonicClock.now())
        do {
            renderer = try SceneRenderer(size: output.size, theme: config.theme)
        } catch {
            throw .display("\(error)")
        }
        layout = config.gridLayout(frame: output.size)
    }

    public enum Outcome {
        case fitted(CalibrationFit, rotation: Rotation)
        case refused(CalibrationFitError)
        case interrupted
        case timedOut
    }

    /// Shows the targets and collects one tap per target; `timeout` per target.
    public func run(timeout: Duration) -> Outcome {
        defer { output.close() }
        let targets = CalibrationFit.targets
        var samples: [CalibrationFit.Sample] = []
        for (index, target) in targets.enumerated() {
            let frame = output.size
            show(Scene(layout: layout, message: .calibrate(step: index + 1, count: targets.count),
                       target: Point(x: target.x * frame.width, y: target.y * frame.height)))
            guard let tap = waitForTap(deadline: MonotonicClock.now() + timeout.nanoseconds) else {
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
        let damage = Damage.between(shown, scene)
        shown = scene
        renderer.render(scene, damage: damage)
        do {
            try output.present(renderer.buffer, damage: damage)
        } catch {
            Journal.log(.error, "display: \(error)")
        }
    }

    /// Where the finger was when it lifted (its last reported position), or nil.
    private func waitForTap(deadline: Int64) -> Point? {
        var last: Point?
        var tap: Point?
        var polled: [FileDescriptor] = []
        let signalToken = 1, timerToken = 2, outputBase = 100, touchBase = 200
        try? poller.add(signals.fileDescriptor, token: signalToken)
        try? poller.add(timer.fileDescriptor, token: timerToken)
        defer {
            for fd in polled { try? poller.remove(fd) }
            try? poller.remove(signals.fileDescriptor)
            try? poller.remove(timer.fileDescriptor)
        }
        let handle: (TouchEvent) -> Void = { event in
            switch event {
            case .down(let p), .move(let p): last = p
            case .up: tap = last
            case .cancel: last = nil
            }
        }
        while tap == nil, !stopped {
            for fd in polled { try? poller.remove(fd) }
            polled = output.descriptors + touch.descriptors
            let outputCount = output.descriptors.count
            for (i, fd) in polled.enumerated() {
                try? poller.add(fd, token: i < outputCount ? outputBase + i : touchBase + i - outputCount)
            }
            let next = [touch.nextDeadline, deadline].compactMap { $0 }.min()!
            try? timer.arm(atMonotonicNanoseconds: next)
            guard let ready = try? poller.wait(timeoutMilliseconds: nil) else { return nil }
            let now = MonotonicClock.now()
            for event in ready {
                switch event.token {
                case signalToken: stopped = true
                case timerToken: _ = try? timer.acknowledge()
                case touchBase...:
                    let index = event.token - touchBase + outputCount
                    if polled.indices.contains(index) { touch.handleReadable(polled[index], now: now, emit: handle) }
                default:
                    let index = event.token - outputBase
                    if polled.indices.contains(index), case .redrawAll = output.handleReadable(polled[index], buffer: renderer.buffer) {
                        try? output.present(renderer.buffer, damage: .full(renderer.buffer.frame))
                    }
                }
            }
            if let due = touch.nextDeadline, due <= now { touch.handleDeadline(now: now, emit: handle) }
            if now >= deadline { break }
        }
        return tap
    }
}
