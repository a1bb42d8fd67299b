import GridlockConfiguration
import GridlockCore
import GridlockDisplay
import GridlockFace
import GridlockInput
import GridlockPanel
import LinuxSys
import Testing
@testable import GridlockDaemon

/// A touchscreen a test moves: one touch step per round of the loop, as a device's frames
/// come, at the node centres it is given.
final class ScriptedTouchSource: TouchSource {
    private var emit: (TouchEvent, Instant) -> Void = { _, _ in }
    private var pending: [TouchEvent] = []
    private var step: EventLoop.Deadline?
    private unowned var loop: EventLoop?

    func attach(to loop: EventLoop, emit: @escaping (TouchEvent, Instant) -> Void) {
        self.loop = loop
        self.emit = emit
        let step = loop.deadline("test finger")
        step.onFire { [unowned self] now in
            guard !pending.isEmpty else { return }
            self.emit(pending.removeFirst(), now)
            if !pending.isEmpty { self.step?.due = now }
        }
        self.step = step
    }

    func detach() {
        step?.due = nil
        emit = { _, _ in }
    }

    /// Every grab and release asked for, in order.
    private(set) var grabs: [Bool] = []
    func setGrabbed(_ grabbed: Bool) { grabs.append(grabbed) }
    func setFrame(_ frame: Size, rotation: Rotation) {}
    /// Every change of calibration asked for, in order.
    private(set) var calibrated: [Bool] = []
    func setCalibrated(_ calibrated: Bool) { self.calibrated.append(calibrated) }

    /// The node read now; a test unplugs it by setting nil.
    var devicePath: String? = "/dev/input/event7"

    /// Drags through `nodes` (from 0) of `layout` on the next rounds.
    func draw(_ nodes: [Int], on layout: GridLayout) {
        let points = nodes.map(layout.center(of:))
        pending = [.down(points[0])] + points.dropFirst().map { .move($0) } + [.up]
        step?.due = loop?.time
    }

    /// Touches `point` and lifts, on the next rounds.
    func tap(_ point: Point) {
        pending = [.down(point), .up]
        step?.due = loop?.time
    }

    /// Puts a finger on `node` (from 0) and leaves it there, saying nothing more.
    func press(_ node: Int, on layout: GridLayout) {
        pending = [.down(layout.center(of: node))]
        step?.due = loop?.time
    }
}

/// The panel's face (`PanelFace`, as `gridlock-panel` wires it) against gridlockd's real
/// session socket and lock machine, both on one loop: the face's touchscreen a script,
/// its display nowhere (each scene taken as shown).
extension SessionSocketTests {
    final class Panel {
        let face: PanelFace
        let touch = ScriptedTouchSource()
        let layout: GridLayout
        private(set) var messages: [Message] = []
        private(set) var reports: [FaceReport] = []
        var onScene: (PanelFace) -> Void = { _ in }
        var onReport: (FaceReport) -> Void = { _ in }

        init(path: String, loop: EventLoop, adjust: (inout ThemeSettings) -> Void = { _ in }) {
            let size = Size(width: 800, height: 480)
            let screen = LockScreen(renderer: nil, output: NullOutput(size: size), clock: { [unowned loop] in loop.time })
            var settings = ThemeSettings.defaults
            settings.feedback.errorDuration = .zero
            settings.feedback.successDuration = .zero
            adjust(&settings)
            let parts = PanelParts(loop: loop, screen: screen, touch: touch, settings: settings)
            // gridlockd runs as the tests' user here.
            face = PanelFace(parts: parts, socket: path, serverUsers: [UserDatabase.currentUserID])
            // gridlockd's loop runs the rounds: each scene is shown when it is made.
            screen.coalescesFrames = false
            layout = try! GridLayout(
                shape: .standard, frame: Rect(x: 0, y: 0, width: size.width, height: size.height),
                sizeFraction: settings.grid.sizeFraction, hitRadiusFraction: settings.grid.hitRadiusFraction)
            face.onPresent = { [unowned self] scene in
                messages.append(scene.message)
                onScene(face)
            }
            face.onReport = { [unowned self] report in
                reports.append(report)
                onReport(report)
            }
            face.start()
        }

        func draw(_ nodes: [Int]) { touch.draw(nodes, on: layout) }

        /// The face's process ends: its socket closes, whatever it was waiting for.
        func end() {
            onScene = { _ in }
            onReport = { _ in }
            face.onPresent = nil
            face.onReport = { _ in }
            face.stopParts()
        }
    }

    @Test("the panel's face: a stroke on its touchscreen is checked by gridlockd, runs the action, and the lock shows again")
    func panelFaceUnlocks() throws {
        try start()
        let panel = Panel(path: path, loop: loop)
        var drawn = false
        panel.onReport = { [unowned self] report in
            if report == .serviceAvailable, !drawn {
                drawn = true
                panel.draw(Self.right)
            }
            if report == .relocked { daemon.stop() }
        }
        run()
        panel.end()
        #expect(outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))
        #expect(verifier.requests == 1)
        // Then gridlockd stopped, and the face said so.
        #expect(panel.reports.prefix(3) == [.serviceAvailable, .accepted, .relocked])
        let success = panel.messages.firstIndex(of: .success)
        #expect(success != nil && panel.messages[success!...].contains(.prompt), "the lock shown again after success: \(panel.messages)")
    }

    @Test("[action] mode=handover with the panel's face: the action starts only once the face let the panel go, and the face shows the lock when gridlockd says it is done")
    func panelFaceHandsThePanelOver() throws {
        let started = "\(directory)/action-started", done = "\(directory)/action-may-end"
        config.action.mode = .handover
        config.patterns[0].exec = ["/bin/sh", "-c", "touch \(started); while [ ! -e \(done) ]; do sleep 0.02; done"]
        try start()
        let panel = Panel(path: path, loop: loop)
        var available = 0
        panel.onReport = { [unowned self] report in
            switch report {
            case .serviceAvailable:
                available += 1
                if available == 1 { panel.draw(Self.right) } else { daemon.stop() }
            case .panelHandedOver:
                // Let go, and its word not yet sent: gridlockd has not started the action.
                #expect(panel.touch.grabs == [false])
                #expect(!fileExists(started), "the action started before the face let the panel go")
                #expect(createEmptyFile(done))
            default:
                break
            }
        }
        run()
        panel.end()
        #expect(outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))
        #expect(fileExists(started), "the action never started")
        #expect(panel.reports.prefix(5) == [.serviceAvailable, .accepted, .panelHandedOver, .panelBack, .serviceAvailable],
                "\(panel.reports)")
        #expect(panel.touch.grabs == [false, true])
        let told = journal.firstIndex { $0.hasPrefix("session socket: the panel is handed over; telling the lock face of") }
        let finished = journal.firstIndex { $0.hasPrefix("action for pattern door finished") }
        let back = journal.firstIndex { $0.hasPrefix("session socket: the panel is back; telling the lock face of") }
        #expect(told != nil && finished != nil && back != nil && told! < finished! && finished! < back!, "journal: \(journal)")
        #expect(!journal.contains { $0.contains("did not let the panel go") }, "journal: \(journal)")
        #expect(panel.messages.last == .prompt)
    }

    @Test("a face told the panel is handed over that closes instead of letting go: the action starts without waiting for it")
    func handoverFaceGoneStartsTheAction() throws {
        config.action.mode = .handover
        try start()
        let face = try face()
        face.send(.watchPanel(.lock))
        face.send(.check(nodes: Self.right))
        face.onReply = { reply in if reply == .panelMode(.handedOver) { face.disconnect() } }
        onOutcome = { [unowned self] outcome in if case .action(.tookBack) = outcome { daemon.stop() } }
        run()
        #expect(outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))
        #expect(face.replies.contains(.panelMode(.handedOver)))
        #expect(journal.contains { $0.hasPrefix("action for pattern door finished: exited with status 0") }, "journal: \(journal)")
        #expect(!journal.contains { $0.contains("did not let the panel go") }, "journal: \(journal)")
    }

    @Test("a panel face gone mid-check: gridlockd keeps the count, and the next face's wrong stroke is the second failure, not the first")
    func panelFaceGoneMidCheckKeepsTheCount() throws {
        try start()
        verifier.holding = true
        let first = Panel(path: path, loop: loop)
        var second: Panel?
        first.onReport = { report in if report == .serviceAvailable { first.draw(Self.wrong) } }
        verifier.onRequest = { [unowned self] in
            // Counted and saved before it is checked.
            #expect(failures == verifier.requests)
            guard verifier.requests == 1 else { return }
            // The face ends before the verdict.
            first.end()
            loop.deadline("verdict") { [unowned self] _ in verifier.releaseAll() }.due = loop.time
        }
        onOutcome = { [unowned self] outcome in
            guard case .lock(.rejected) = outcome, second == nil else { return }
            verifier.holding = false
            let next = Panel(path: path, loop: loop)
            next.onReport = { [unowned self] report in
                if report == .serviceAvailable { next.draw(Self.wrong) }
                if case .rejected = report { daemon.stop() }
            }
            second = next
        }
        run()
        second?.end()
        #expect(verifier.requests == 2)
        #expect(failures == 2)
        #expect(first.reports == [.serviceAvailable])
        #expect(second?.reports == [.serviceAvailable, .rejected(failures: 2)])
        #expect(journal.contains("session socket: the lock face of \(peer) disconnected before the verdict of check 1; it is only logged"),
                "journal: \(journal)")
        let saved = StateFile.open(config.lockout.stateFile, schedule: config.lockout.schedule, patterns: config.patterns, holding: nil)
        #expect(saved.saved.attempts.failures == 2)
    }
}
