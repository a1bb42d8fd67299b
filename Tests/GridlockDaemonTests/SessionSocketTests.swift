import Foundation
import Glibc
import GridlockCore
import GridlockDisplay
import GridlockInput
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// Answers each check at once with the matcher's verdict, or holds it until released;
/// counts every verification asked for, which is what a client must not be able to raise.
final class CountingVerifier: PatternVerifying {
    var holding = false
    private(set) var requests = 0
    private var held: [() -> Void] = []
    var onRequest: () -> Void = {}

    func verify(_ pattern: Pattern, with matcher: PatternMatcher, then done: @escaping (PatternMatch?) -> Void) {
        requests += 1
        let finish = { done(matcher.match(pattern)) }
        if holding { held.append(finish) } else { finish() }
        onRequest()
    }

    func releaseAll() {
        let released = held
        held.removeAll()
        for finish in released { finish() }
    }
}

/// A lock face in the session, as the daemon's loop sees it: a real connection to the real
/// socket, its replies read on the same loop, in order.
final class TestFace {
    let connection: SeqPacketConnection
    private let loop: EventLoop
    private var watching: EventLoop.Watching?
    private(set) var replies: [SessionReply] = []
    /// Each reply's bytes as they came, for their version byte.
    private(set) var replyBytes: [[UInt8]] = []
    private(set) var closed = false
    var onReply: (SessionReply) -> Void = { _ in }
    var onClose: () -> Void = {}

    init(path: String, loop: EventLoop) throws {
        connection = try SeqPacketConnection.connect(to: path)
        self.loop = loop
        watching = try loop.watch(connection.descriptor, as: "test face") { [unowned self] in read() }
    }

    func send(_ request: SessionRequest) { send(request.encoded) }

    func send(_ bytes: [UInt8]) {
        guard !closed else { return }
        _ = try? connection.send(bytes)
    }

    /// Drops the handlers (and what they hold); the replies stay to be read.
    func letGo() {
        onReply = { _ in }
        onClose = {}
    }

    func disconnect() {
        guard !closed else { return }
        closed = true
        if let watching { loop.unwatch(watching) }
        connection.close()
    }

    private func read() {
        while !closed {
            guard let received = try? connection.receive(limit: 256) else { return }
            switch received {
            case .nothing: return
            case .closed:
                disconnect()
                onClose()
            case .truncated(let length):
                Issue.record("a reply of \(length) bytes")
            case .message(let bytes):
                do {
                    let reply = try SessionReply(decoding: bytes)
                    replies.append(reply)
                    replyBytes.append(bytes)
                    onReply(reply)
                } catch {
                    Issue.record("a reply that does not decode: \(error)")
                }
            }
        }
    }
}

/// gridlockd with the session socket and no display or touch (verifier only), on its real
/// loop, a real SEQPACKET socket in a temporary folder, and `CountingVerifier`.
@Suite("the session socket, on the daemon's loop", .serialized)
final class SessionSocketTests {
    let directory: String
    let verifier = CountingVerifier()
    var config: GridlockConfig
    let loop: EventLoop
    private(set) var daemon: Daemon!
    private(set) var outcomes: [Daemon.Outcome] = []
    private(set) var journal: [String] = []
    /// Called with each presented scene (after the round that made it).
    var onScene: (Scene) -> Void = { _ in }
    var onOutcome: (Daemon.Outcome) -> Void = { _ in }

    static let right = [0, 1, 2, 5, 8]
    static let wrong = [6, 7, 8, 5]

    init() throws {
        directory = try makeTemporaryDirectory()
        config = try ReplayTests.config(exec: ["/bin/true"])
        config.display.backend = .off
        config.touch.backend = .off
        config.lockout.stateFile = "\(directory)/attempts"
        config.feedback.errorDuration = .zero
        config.feedback.successDuration = .zero
        config.session.enabled = true
        config.session.socket = "\(directory)/run/session.sock"
        config.session.allowUsers = [UserDatabase.currentUserID]
        loop = try EventLoop()
    }

    deinit { removeDirectory(directory) }

    var path: String { config.session.socket }

    func start() throws {
        let parts = DaemonParts(
            loop: loop, output: NullOutput(size: Size(width: 800, height: 480)), touch: NoTouchSource(),
            supervisor: ActionSupervisor(loop: loop, mode: config.action.mode),
            state: StateFile(path: config.lockout.stateFile, saved: .clean), verifier: verifier,
            sessionListener: try DaemonParts.sessionListener(for: config.session))
        daemon = try Daemon(options: .init(configPath: "\(directory)/unused.conf"), config: config, parts: parts)
        daemon.observe = { [unowned self] in
            outcomes.append($0)
            onOutcome($0)
        }
        daemon.screen.onPresent = { [unowned self] in onScene($0) }
    }

    /// Every face a test made, for `run` to let go of their handlers.
    private var faces: [TestFace] = []

    func face() throws -> TestFace {
        let face = try TestFace(path: path, loop: loop)
        faces.append(face)
        return face
    }

    /// Runs the daemon until a handler stops it (20 s is a failure, never an expectation).
    func run() {
        loop.deadline("test limit") { [unowned self] _ in
            Issue.record("the daemon did not finish within 20 s; outcomes so far: \(outcomes)")
            daemon.stop()
        }.due = MonotonicClock.now() + .seconds(20)
        let recorder = JournalRecorder()
        Journal.$recorder.withValue(recorder) { _ = daemon.run() }
        journal = recorder.messages
        // The tests' handlers hold their faces, the suite and through it the daemon, in
        // cycles (a face's onClose that makes the next face): cut them once the daemon has
        // stopped, so that nothing of a test outlives it (LeakSanitizer, `make test-asan`).
        for face in faces { face.letGo() }
        faces = []
        onScene = { _ in }
        onOutcome = { _ in }
        verifier.onRequest = {}
    }

    var peer: String { "uid \(getuid()), pid \(getpid())" }
    var failures: Int { daemon.service.machine.attempts.failures }

    @Test("the right pattern over the socket is answered accepted, and its action runs")
    func rightPatternOpens() throws {
        try start()
        let face = try face()
        onOutcome = { [unowned self] in if case .action(.finished) = $0 { daemon.stop() } }
        face.send(.check(nodes: Self.right))
        run()
        #expect(face.replies == [.accepted])
        #expect(outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))
        #expect(outcomes.last == .action(.finished(pattern: "door", duress: false, status: .exited(0))))
        #expect(verifier.requests == 1)
        let checking = journal.firstIndex(of: "session socket: checking check 1 from \(peer) (5 nodes)")
        let answered = journal.firstIndex(of: "session socket: answered check 1 of \(peer): accepted")
        #expect(checking != nil && answered != nil && checking! < answered!, "journal: \(journal)")
        #expect(!FileManager.default.fileExists(atPath: path), "the socket's name is removed at the stop")
    }

    @Test("while a reload is judged off the loop the running configuration checks strokes; once taken up, the new one does")
    func reloadServesTheRunningConfigurationUntilTakenUp() throws {
        try start()
        var next = config
        next.patterns = []
        // backend=none: the verifier draws nothing, so there is no look to prepare.
        #expect(daemon.screen is UnseenScreen)
        let prepared = ConfigReloader.Prepared(loaded: LoadedConfig(config: next, files: ["\(directory)/next.conf"]), look: nil)
        // The judging thread waits until the first check has been answered.
        let judged = DispatchSemaphore(value: 0)
        daemon.reloader.prepare = { @Sendable _, _ in
            judged.wait()
            return .success(prepared)
        }
        let face = try face()
        var takenUp = false, actionDone = false
        func checkAgain() { if takenUp, actionDone { face.send(.check(nodes: Self.right)) } }
        face.onReply = { [unowned self] reply in
            if reply == .accepted { judged.signal() } else { daemon.stop() }
        }
        onOutcome = { if case .action(.finished) = $0 { actionDone = true; checkAgain() } }
        daemon.onReloaded = { takenUp = true; checkAgain() }
        daemon.reload()
        face.send(.check(nodes: Self.right))
        run()
        let schedule = config.lockout.schedule
        #expect(face.replies == [.accepted, .rejected(failures: 1, remainingBeforeLockout: schedule.failuresBeforeLockout(after: 1))])
        #expect(daemon.config.patterns.isEmpty)
        #expect(journal.contains("configuration reloaded from \(directory)/next.conf"), "journal: \(journal)")
    }

    @Test("five wrong patterns count as five, and the sixth is answered lockedOut without a check")
    func fiveWrongThenLockedOut() throws {
        try start()
        let face = try face()
        var sent = 0
        onScene = { scene in
            // A new check only once the lock shows the prompt (ready) or the lockout.
            switch scene.message {
            case .prompt where sent < 5, .lockedOut where sent == 5:
                sent += 1
                face.send(.check(nodes: Self.wrong))
            default: break
            }
        }
        face.onReply = { [unowned self] in if case .lockedOut = $0 { daemon.stop() } }
        run()
        let schedule = config.lockout.schedule
        let rejected = (1...5).map { SessionReply.rejected(failures: $0, remainingBeforeLockout: schedule.failuresBeforeLockout(after: $0)) }
        #expect(face.replies == rejected + [.lockedOut(seconds: 30)])
        #expect(rejected.last == .rejected(failures: 5, remainingBeforeLockout: 0))
        #expect(verifier.requests == 5)
        #expect(failures == 5)
        #expect(outcomes.contains(.lock(.lockout(seconds: 30, failures: 5))))
    }

    @Test("a check while another runs is answered busy and not counted; a disconnect mid-check keeps the count")
    func busyWhileAnotherRuns() throws {
        try start()
        verifier.holding = true
        let asker = try face()
        let other = try face()
        verifier.onRequest = { [unowned self] in
            other.send(.check(nodes: Self.right))
            other.send(.status)
        }
        other.onReply = { [unowned self] reply in
            guard case .status = reply else { return }
            // The asker goes away before its verdict: the failure is counted all the same.
            asker.disconnect()
            verifier.releaseAll()
        }
        onOutcome = { [unowned self] in if case .lock(.rejected) = $0 { daemon.stop() } }
        asker.send(.check(nodes: Self.wrong))
        run()
        // The status is answered at once; the check, queued for the lock machine, after it.
        #expect(other.replies == [
            .status(SessionStatus(state: .notChecking(.busy), rows: 3, columns: 3, minimumNodes: 4)),
            .notChecked(.busy),
        ])
        #expect(asker.replies.isEmpty)
        #expect(verifier.requests == 1)
        #expect(failures == 1)
        #expect(outcomes == [.lock(.rejected(nodes: 4, failures: 1))])
        // The verdict is logged for whoever asked; the asker is gone, so it reaches no one.
        #expect(journal.contains("session socket: answered check 1 of \(peer): rejected (1 failure(s) in a row)"), "journal: \(journal)")
    }

    @Test("a check whose asker went away before its verdict leaves no later check busy: the next face is answered")
    func lostReplyPathLeavesNoLaterCheckBusy() throws {
        try start()
        verifier.holding = true
        let gone = try face()
        let next = try face()
        verifier.onRequest = { [unowned self] in
            guard verifier.requests == 1 else { return }
            // The asker vanishes mid-check; its verdict comes once the server has closed its
            // connection (looked at every millisecond: order, not timing, decides).
            gone.disconnect()
            let release = loop.deadline("verdict after the disconnect")
            release.onFire { [unowned self, unowned release] now in
                if daemon.session?.clients.count == 1 { verifier.releaseAll() } else { release.due = now + .milliseconds(1) }
            }
            release.due = loop.now()
        }
        var rejected = false, sent = false
        onOutcome = { [unowned self] outcome in
            switch outcome {
            case .lock(.rejected(_, 1)):
                rejected = true
                verifier.holding = false
            case .action(.finished): daemon.stop()
            default: break
            }
        }
        // Once the lock shows its prompt again (its error display lasts no time here).
        onScene = { scene in
            guard rejected, !sent, scene.message == .prompt else { return }
            sent = true
            next.send(.check(nodes: Self.right))
        }
        gone.send(.check(nodes: Self.wrong))
        run()
        #expect(gone.replies.isEmpty)
        #expect(next.replies == [.accepted])
        #expect(verifier.requests == 2)
        #expect(journal.contains("session socket: the lock face of \(peer) disconnected before the verdict of check 1; it is only logged"),
                "journal: \(journal)")
    }

    @Test("a check in flight at the stop is answered stopping and stays counted, as the protocol says")
    func stoppingMidCheckKeepsTheCount() throws {
        try start()
        verifier.holding = true
        let asker = try face()
        verifier.onRequest = { [unowned self] in daemon.stop() }
        asker.send(.check(nodes: Self.wrong))
        run()
        // Sent as the daemon stopped, read after it: the loop that would have read it is done.
        guard case .message(let bytes) = try asker.connection.receive(limit: 64) else {
            Issue.record("no reply to the check in flight")
            return
        }
        #expect(try SessionReply(decoding: bytes) == .notChecked(.stopping))
        #expect(verifier.requests == 1)
        #expect(failures == 1, "counted and saved before it was verified; a stop hands no attempt back")
    }

    @Test("a peer that is not allowed gets refusedPeer, is closed and logged with its uid and pid")
    func refusedPeer() throws {
        config.session.allowUsers = [UserDatabase.currentUserID &+ 1]
        try start()
        let face = try face()
        face.onClose = { [unowned self] in daemon.stop() }
        face.send(.check(nodes: Self.right))
        run()
        #expect(face.replies == [.notChecked(.refusedPeer)])
        #expect(face.closed)
        #expect(verifier.requests == 0)
        #expect(journal.filter { $0.hasPrefix("session socket: refused a connection from \(peer)") }.count == 1)
    }

    @Test("garbage, an oversized packet and an unknown version each get one reply and close the connection, logged once per interval")
    func malformedMessagesClose() throws {
        try start()
        let cases: [([UInt8], NotCheckedReason)] = [
            ([0x00, 0x01, 0x02, 0x03, 0x04], .malformed),
            (Array(repeating: 0x47, count: 200), .malformed),
            ([0x47, 0x4C, SessionProtocol.versions.upperBound + 1, 0x02], .unsupportedVersion),
            ([0x47, 0x4C, 1, 0x01, 2, 1, 1], .malformed),
        ]
        var faces: [TestFace] = []
        for (bytes, _) in cases {
            let face = try face()
            face.onClose = { [unowned self] in if faces.allSatisfy(\.closed) { daemon.stop() } }
            face.send(bytes)
            // What follows the bad message is never read.
            face.send(.check(nodes: Self.right))
            faces.append(face)
        }
        run()
        for (face, (bytes, reason)) in zip(faces, cases) {
            #expect(face.replies == [.notChecked(reason)], "\(bytes)")
            #expect(face.closed)
        }
        #expect(faces[2].replyBytes.first?[2] == 1, "a version it does not speak is answered in version 1, which every face reads")
        // One uid within the interval: the first said, the others counted and said at the stop.
        #expect(journal.filter { $0.hasPrefix("session socket: closed the connection from \(peer)") }.count == 1)
        #expect(journal.contains("session socket: \(cases.count - 1) more like it from uid \(getuid()) within 10 s (session-closed), not logged one by one"), "journal: \(journal)")
        #expect(verifier.requests == 0)
    }

    @Test("a client flooding checks over many connections gets no more verifications than the lockout allows")
    func floodGetsNoExtraTries() throws {
        try start()
        var faces: [TestFace] = []
        var connections = 0
        var closedDuringLockout = 0
        var lockedOut = false
        var stopped = false
        onOutcome = { if case .lock(.lockout) = $0 { lockedOut = true } }
        func flood() {
            guard !stopped else { return }
            guard let face = try? face() else { Issue.record("cannot connect"); return }
            connections += 1
            faces.append(face)
            face.onClose = { [unowned self] in
                if lockedOut { closedDuringLockout += 1 }
                // Forty flooding connections into the lockout, not one more check was verified.
                if closedDuringLockout >= 40, !stopped {
                    stopped = true
                    daemon.stop()
                }
                flood()
            }
            for _ in 0..<(SessionServer.mostMessagesPerSecond + 5) { face.send(.check(nodes: Self.wrong)) }
        }
        flood()
        run()
        #expect(lockedOut)
        #expect(verifier.requests == 5)
        #expect(failures == 5)
        #expect(connections > 40, "the rate limit closed the flooding connections")
        let overloaded = faces.filter { $0.replies.last == .notChecked(.overloaded) }
        #expect(!overloaded.isEmpty)
        for face in faces {
            #expect(face.replies.filter { if case .rejected = $0 { true } else { false } }.count <= 1)
        }
    }

    @Test("status tells the grid and the state, and a uid's connection past its share replaces its idlest one")
    func statusAndConnectionShares() throws {
        try start()
        var faces: [TestFace] = []
        for _ in 0..<SessionServer.mostConnectionsPerUser { faces.append(try face()) }
        let newest = try face()
        faces[0].onClose = { newest.send(.status) }
        newest.onReply = { [unowned self] _ in daemon.stop() }
        run()
        #expect(faces[0].replies == [.notChecked(.overloaded)])
        #expect(newest.replies == [.status(SessionStatus(state: .ready, rows: 3, columns: 3, minimumNodes: 4))])
        #expect(faces.dropFirst().allSatisfy { $0.replies.isEmpty })
    }

    @Test("verifier only: backend=none builds no display and no touch device, and the socket is made with its folder and mode")
    func verifierOnlyParts() throws {
        let output = try DaemonParts.output(for: config, headless: false, clock: { MonotonicClock.now() })
        #expect(output is NullOutput)
        let touch = try DaemonParts.touchSource(for: config, frame: output.size, rotation: .none, start: MonotonicClock.now())
        #expect(touch is NoTouchSource)
        #expect(touch.devicePath == nil)
        let listener = try DaemonParts.sessionListener(for: config.session)
        defer { listener.close() }
        let status = try FileStatus(entryAt: path)
        #expect(status.isSocket)
        #expect(status.mode & 0o777 == 0o666)
        // A second start replaces the socket an earlier run left, and nothing else.
        let again = try DaemonParts.sessionListener(for: config.session)
        again.descriptor.close()
        try AtomicFile.write([1], to: "\(directory)/run/not-a-socket", mode: 0o600)
        config.session.socket = "\(directory)/run/not-a-socket"
        #expect(throws: DaemonError.self) { try DaemonParts.sessionListener(for: config.session) }
    }
}
