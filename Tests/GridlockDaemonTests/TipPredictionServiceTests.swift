import GridlockCore
import GridlockDisplay
import GridlockRendering
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// `[feedback] predict=` in the daemon's drawing path: the tip drawn moves, the nodes do not.
@Suite struct TipPredictionServiceTests {
    static let size = Size(width: 800, height: 480)
    static let period = Duration.nanoseconds(16_666_667)

    /// An output whose vblanks come every 16.67 ms from time zero, latched 4 ms before.
    final class VblankOutput: DisplayOutput {
        let size = TipPredictionServiceTests.size
        func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError) {}
        func displayTime(ofFramePresentedAt now: Instant) -> Instant? {
            let p = TipPredictionServiceTests.period.nanoseconds
            return Instant(nanoseconds: ((now.nanoseconds + 4_000_000) / p + 1) * p)
        }
    }

    final class Shell: LockShell {
        var checked: [Pattern] = []
        var tipDeadline: Instant?
        func beginVerification(of pattern: Pattern) { checked.append(pattern) }
        func beginAction(for patternName: String) {}
        func setDeadline(_ deadline: Instant?) {}
        func report(_ report: LockReport, at time: Instant) {}
        func setTipDeadline(_ deadline: Instant?) { tipDeadline = deadline }
    }

    struct Run {
        /// Per frame presented while the finger was down: the tip drawn, the sample, the path.
        var drawn: [(tip: Point, sample: Point, path: [Point])] = []
        var checked: [Pattern] = []
        /// The tip drawn when the tip deadline came with the finger resting.
        var settled: Point?
        var rest: Point?
    }

    /// Nodes 1, 2, 3 then 6 on a 800x480 panel, dragged at 800 px/s with a sample every 10 ms,
    /// each handled 1 ms after its kernel time; the finger rests on node 6, then lifts.
    static func drag(predicting: Bool) throws -> Run {
        let layout = try GridLayout(frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        var now = Instant.zero
        let screen = LockScreen(renderer: try SceneRenderer(size: size, theme: Theme()), output: VblankOutput(), clock: { now })
        let service = LockService(machine: LockMachine(layout: layout, settings: LockSettings()), screen: screen, stateFile: nil)
        let shell = Shell()
        service.shell = shell
        screen.predictsTip = predicting
        var run = Run()
        screen.onPresent = { [unowned service] scene in
            if let tip = scene.finger, let sample = service.machine.scene(now: now).finger {
                run.drawn.append((tip, sample, scene.path))
            }
        }
        let corners = [0, 1, 2, 5].map(layout.center(of:))
        var points = [corners[0]]
        for (a, b) in zip(corners, corners.dropFirst()) {
            let steps = Int((a.distance(to: b) / 8).rounded(.up))
            points += (1...steps).map { k in
                Point(x: a.x + (b.x - a.x) * Double(k) / Double(steps), y: a.y + (b.y - a.y) * Double(k) / Double(steps))
            }
        }
        for (index, point) in points.enumerated() {
            let time = Instant.milliseconds(Int64(10 * index))
            now = time + .milliseconds(1)
            service.handle(.touch(index == 0 ? .down(point) : .move(point)), at: time)
        }
        if let deadline = shell.tipDeadline {
            now = deadline
            screen.settleTip()
            let count = run.drawn.count
            screen.flush()
            // The settled frame is kept apart: the frames of the drag are compared as they are.
            if run.drawn.count > count { run.settled = run.drawn.removeLast().tip }
        }
        run.rest = points.last
        now = now + .milliseconds(100)
        service.handle(.touch(.up), at: now)
        run.checked = shell.checked
        return run
    }

    @Test("predict=on moves the drawn tip ahead of a moving finger; the nodes and the pattern checked are the same")
    func predictionMovesOnlyTheTip() throws {
        let off = try Self.drag(predicting: false)
        let on = try Self.drag(predicting: true)
        #expect(off.drawn.allSatisfy { $0.tip == $0.sample })
        let ahead = on.drawn.filter { $0.tip != $0.sample }
        #expect(ahead.count > on.drawn.count / 2, "\(ahead.count) of \(on.drawn.count) frames predicted")
        // Ahead along the drag: towards the next sample, never further than a node's radius.
        let radius = SceneMetrics(layout: try GridLayout(frame: Rect(x: 0, y: 0, width: 800, height: 480))).ringRadius
        #expect(ahead.allSatisfy { $0.tip.distance(to: $0.sample) <= radius + 1e-9 })
        #expect(on.drawn.map(\.path) == off.drawn.map(\.path))
        #expect(on.checked == off.checked)
        #expect(on.checked.map(\.nodes) == [[0, 1, 2, 5]])
        #expect(off.settled == nil)
        #expect(on.settled != nil && on.settled == on.rest, "the tip goes back on the resting finger")
    }

    @Test("predict= is on by default and predicts on the panel and in enrollment, never in a replay's or a benchmark's frames")
    func predictionFollowsTheConfigOnThePanel() throws {
        var config = GridlockConfig()
        #expect(config.feedback.predictsTip)
        #expect(Daemon.Role.lock.predictsTip(config))
        #expect(Daemon.Role.enroll(giveUpAfter: nil).predictsTip(config))
        #expect(!Daemon.Role.replay(untimedHookLimit: .seconds(1)).predictsTip(config))
        #expect(!Daemon.Role.benchStroke.predictsTip(config))
        #expect(!Daemon.Role.benchStartup.predictsTip(config))
        config.feedback.predictsTip = false
        #expect(!Daemon.Role.lock.predictsTip(config))
    }
}
