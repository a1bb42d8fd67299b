import GridlockCore
import GridlockFace
import LinuxSys
import Testing
@testable import GridlockDaemon

/// Lock surfaces as a face's controller sees them: what it was asked to draw and to unlock.
final class RecordingSurfaces: LockSurfaces {
    private(set) var scenes = 0
    private(set) var unlocks = 0
    var onScene: () -> Void = {}
    var onUnlock: () -> Void = {}

    func sceneChanged() {
        scenes += 1
        onScene()
    }

    func unlockSession() {
        unlocks += 1
        onUnlock()
    }
}

/// A lock face (its controller and session client, as `gridlock-lock` wires them) against
/// gridlockd's real session socket and lock machine, both on one loop.
extension SessionSocketTests {
    final class Face {
        let controller: FaceController
        let client: SessionClient
        let surfaces = RecordingSurfaces()
        let grid: GridLayout
        private(set) var lost: [String] = []
        private let step: EventLoop.Deadline
        private var pending: [TouchEvent] = []

        init(path: String, loop: EventLoop, settings: FaceSettings = FaceSettings()) {
            let controller = FaceController(loop: loop, settings: settings, grid: FaceGrid())
            self.controller = controller
            client = SessionClient(
                path: path, loop: loop, connected: { controller.connected() }, replies: { controller.reply($0) },
                lost: { _ in controller.serviceLost() })
            grid = controller.layout(for: Rect(x: 0, y: 0, width: 800, height: 480))!
            step = loop.deadline("test finger")
            self.loop = loop
            controller.session = client
            controller.surfaces = surfaces
            // Only through self: the init's `loop` and `controller` would be captured strongly,
            // and the loop would hold itself through its own deadline (LeakSanitizer).
            step.onFire { [unowned self] _ in
                // One touch step per round, as a controller reports them.
                guard !pending.isEmpty else { return }
                self.controller.touch(pending.removeFirst(), on: grid)
                if !pending.isEmpty { step.due = self.loop.time }
            }
        }

        private unowned let loop: EventLoop

        /// Drags through `nodes` (from 0) on the next rounds, never inside a handler.
        func draw(_ nodes: [Int]) {
            let points = nodes.map(grid.center(of:))
            pending = [.down(points[0])] + points.dropFirst().map { .move($0) } + [.up]
            step.due = loop.time
        }

        func letGo() {
            surfaces.onScene = {}
            surfaces.onUnlock = {}
            controller.onReport = { _ in }
            client.close()
            // The client's handlers hold the controller, which holds the client.
            controller.session = nil
        }
    }

    @Test("a face's right pattern is checked by gridlockd, runs the action, and only then unlocks the session")
    func faceUnlocksOnAccepted() throws {
        try start()
        let face = Face(path: path, loop: loop)
        var drawn = false
        face.surfaces.onScene = {
            if face.controller.machine.phase == .ready, !drawn {
                drawn = true
                face.draw(Self.right)
            }
        }
        face.surfaces.onUnlock = { [unowned self] in daemon.stop() }
        face.client.connect()
        run()
        face.letGo()
        #expect(face.surfaces.unlocks == 1)
        #expect(outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))
        #expect(verifier.requests == 1)
    }

    @Test("five wrong strokes on a face are five failures at gridlockd, and the face then shows its lockout")
    func faceWrongStrokesLockOut() throws {
        try start()
        var settings = FaceSettings()
        settings.errorDuration = .zero
        let face = Face(path: path, loop: loop, settings: settings)
        var strokes = 0
        face.surfaces.onScene = { [unowned self] in
            switch face.controller.machine.phase {
            case .ready where strokes < 6:
                strokes += 1
                face.draw(Self.wrong)
            case .lockedOut:
                daemon.stop()
            default: break
            }
        }
        face.client.connect()
        run()
        face.letGo()
        #expect(strokes == 5)
        #expect(failures == 5)
        #expect(verifier.requests == 5)
        // Counted down from gridlockd's 30 s by the time the check is made.
        guard case .lockedOut(let seconds) = face.controller.scene(on: face.grid).message else {
            Issue.record("the face shows \(face.controller.scene(on: face.grid).message)")
            return
        }
        #expect((1...30).contains(seconds))
        #expect(face.surfaces.unlocks == 0)
    }

    @Test("a face started before gridlockd says nothing can be checked, then finds it and offers the grid")
    func faceWaitsForService() throws {
        let face = Face(path: path, loop: loop)
        var reports: [FaceReport] = []
        face.controller.onReport = { [unowned self] report in
            reports.append(report)
            if report == .serviceAvailable { daemon.stop() }
        }
        face.client.connect()
        #expect(!face.client.isConnected)
        #expect(face.controller.scene(on: face.grid).message == .serviceUnavailable)
        try start()
        run()
        face.letGo()
        #expect(reports == [.serviceAvailable])
        #expect(face.controller.machine.phase == .ready)
    }
}
