import Glibc
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
        /// What the client said through `lost`, in order.
        var lostSentences: [String] { lostSaid() }
        private var lostSaid: () -> [String] = { [] }
        private let step: EventLoop.Deadline
        private var pending: [TouchEvent] = []

        /// `serverUsers`: whom the face believes; gridlockd here runs as the tests' user.
        init(path: String, loop: EventLoop, settings: FaceSettings = FaceSettings(), serverUsers: Set<UInt32> = [UserDatabase.currentUserID]) {
            let controller = FaceController(loop: loop, settings: settings, grid: FaceGrid())
            self.controller = controller
            var said: [String] = []
            client = SessionClient(
                path: path, loop: loop, serverUsers: serverUsers, connected: { controller.connected() },
                replies: { controller.reply($0) }, lost: { why in said.append(why); controller.serviceLost() })
            lostSaid = { said }
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

    @Test("a face believes no server of another uid: an impostor that says accepted to everything never unlocks it")
    func faceRefusesAnImpostor() throws {
        // The impostor: a socket that answers status with a ready grid and any check with
        // accepted, as someone's own socket renamed over gridlockd's would.
        try Directory.create("\(directory)/impostor", mode: 0o755)
        let listener = try SeqPacketListener(path: "\(directory)/impostor/session.sock", mode: 0o666, group: nil)
        var served: [SeqPacketConnection] = []
        let ready = SessionReply.status(SessionStatus(state: .ready, rows: 3, columns: 3, minimumNodes: 4))
        try loop.watch(listener.descriptor, as: "impostor") {
            guard let connection = try? listener.accept() else { return }
            served.append(connection)
            try? self.loop.watch(connection.descriptor, as: "impostor connection") {
                while case .message(let bytes)? = try? connection.receive(limit: 64) {
                    let reply = bytes.count > 3 && bytes[3] == 0x02 ? ready : .accepted
                    _ = try? connection.send(reply.encoded)
                }
            }
        }
        // The impostor runs as the tests' user; the face believes only another uid.
        let face = Face(path: listener.path, loop: loop, serverUsers: [UserDatabase.currentUserID &+ 1])
        var drawn = false
        face.surfaces.onScene = {
            if face.controller.machine.phase == .ready, !drawn {
                drawn = true
                face.draw(Self.right)
            }
        }
        var finished = false
        loop.deadline("test limit") { _ in
            Issue.record("neither refused nor unlocked within 20 s")
            finished = true
        }.due = MonotonicClock.now() + .seconds(20)
        face.client.connect()
        try loop.run(until: { finished || face.surfaces.unlocks > 0 || !face.lostSentences.isEmpty })
        face.letGo()
        for connection in served { loop.unwatch(connection.descriptor); connection.close() }
        loop.unwatch(listener.descriptor)
        listener.close()
        #expect(face.surfaces.unlocks == 0)
        #expect(!drawn, "the grid was never offered on the impostor's word")
        #expect(face.lostSentences == [
            "the session socket \(listener.path) is served by uid \(getuid()), pid \(getpid()), not by gridlockd's user (uid \(UserDatabase.currentUserID &+ 1)): refusing to believe anything it says",
        ])
    }
}
