import Glibc
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockDaemon

/// The session server's bounds on a scripted clock: idle connections time out, each uid
/// has its own share of the connections, and refusals are logged once per interval.
@Suite("the session server's limits, on a scripted clock", .serialized)
final class SessionServerLimitsTests {
    let directory: String
    let scripted: ScriptedLoop
    /// Early enough that every scripted instant is long past on CLOCK_MONOTONIC.
    let start = Instant(nanoseconds: 1_000_000)
    var server: SessionServer!
    var allowed = true
    let status = SessionReply.status(SessionStatus(state: .ready, rows: 3, columns: 3, minimumNodes: 4))

    init() throws {
        directory = try makeTemporaryDirectory()
        scripted = try ScriptedLoop(at: start)
    }

    deinit {
        server?.detach()
        removeDirectory(directory)
    }

    func makeServer() throws {
        let listener = try SeqPacketListener(path: "\(directory)/session.sock", mode: 0o666, group: nil)
        server = SessionServer(listener: listener, loop: scripted.loop, allows: { [unowned self] _ in allowed }, nodeCount: { 9 })
        server.status = { [unowned self] _ in status }
        server.check = { _, _, _ in nil }
        server.attach()
    }

    func connect() throws -> SeqPacketConnection {
        try SeqPacketConnection.connect(to: "\(directory)/session.sock")
    }

    /// Every packet queued on `connection` now, and whether the server closed it.
    func read(_ connection: SeqPacketConnection) throws -> (replies: [SessionReply], closed: Bool) {
        var replies: [SessionReply] = []
        while true {
            switch try connection.receive(limit: 64) {
            case .message(let bytes): replies.append(try SessionReply(decoding: bytes))
            case .nothing: return (replies, false)
            case .closed: return (replies, true)
            case .truncated(let length): Issue.record("a reply of \(length) bytes"); return (replies, true)
            }
        }
    }

    /// Two rounds at `instant`: one accepts what connected, the next reads what they sent.
    func turn(at instant: Instant) throws {
        try scripted.turn(at: instant)
        try scripted.turn(at: instant)
    }

    @Test("a connection that sends nothing for the idle timeout is closed; one that spoke within it stays")
    func idleConnectionsTimeOut() throws {
        try makeServer()
        let quiet = try connect()
        let talking = try connect()
        defer { quiet.close(); talking.close() }
        try turn(at: start)
        #expect(server.clients.count == 2)
        let halfway = start + (SessionServer.idleTimeout - .seconds(1))
        try talking.send(SessionRequest.status.encoded)
        try turn(at: halfway)
        #expect(try read(talking).replies == [status])
        try turn(at: start + SessionServer.idleTimeout)
        #expect(try read(quiet).closed, "idle for the whole timeout")
        #expect(try !read(talking).closed, "it spoke within the timeout")
        #expect(server.clients.count == 1)
        try turn(at: halfway + SessionServer.idleTimeout)
        #expect(try read(talking).closed)
        #expect(server.clients.isEmpty)
    }

    @Test("a check waiting for its verdict is never closed as idle")
    func awaitingAVerdictIsNotIdle() throws {
        try makeServer()
        let asker = try connect()
        defer { asker.close() }
        try asker.send(SessionRequest.check(nodes: [0, 1, 2, 5]).encoded)
        try turn(at: start)
        try turn(at: start + SessionServer.idleTimeout * 3)
        #expect(try !read(asker).closed)
        let check = try #require(server.awaited.keys.first)
        server.answer(check, .accepted)
        #expect(try read(asker).replies == [.accepted])
        try turn(at: start + SessionServer.idleTimeout * 4)
        #expect(try read(asker).closed, "idle once answered")
    }

    @Test("a verdict goes to the connection that asked, by its id, whatever order they come back in")
    func verdictsGoByID() throws {
        try makeServer()
        let first = try connect()
        let second = try connect()
        defer { first.close(); second.close() }
        try turn(at: start)
        try first.send(SessionRequest.check(nodes: [0, 1, 2, 5]).encoded)
        try turn(at: start + .seconds(1))
        try second.send(SessionRequest.check(nodes: [0, 1, 2, 3]).encoded)
        try turn(at: start + .seconds(2))
        let checks = server.awaited.keys.sorted { $0.rawValue < $1.rawValue }
        #expect(checks.count == 2)
        #expect(checks.map { server.awaited[$0]?.connection } == server.clients.keys.sorted().map { Optional($0) })
        server.answer(checks[1], .notChecked(.busy))
        server.answer(checks[0], .rejected(failures: 1, remainingBeforeLockout: 4))
        #expect(try read(first).replies == [.rejected(failures: 1, remainingBeforeLockout: 4)])
        #expect(try read(second).replies == [.notChecked(.busy)])
        // Answered once: a second verdict for the same id reaches nobody.
        server.answer(checks[0], .accepted)
        #expect(try read(first).replies.isEmpty)
        #expect(server.awaited.isEmpty)
    }

    @Test("a lost reply path (the asker gone before its verdict) leaves nothing waiting: the next check is served")
    func lostReplyPathLeavesNothingWaiting() throws {
        try makeServer()
        let gone = try connect()
        try gone.send(SessionRequest.check(nodes: [0, 1, 2, 5]).encoded)
        try turn(at: start)
        let lost = try #require(server.awaited.keys.first)
        gone.close()
        try turn(at: start + .seconds(1))
        #expect(server.clients.isEmpty)
        server.answer(lost, .rejected(failures: 1, remainingBeforeLockout: 4))
        #expect(server.awaited.isEmpty)
        let next = try connect()
        defer { next.close() }
        try next.send(SessionRequest.check(nodes: [0, 1, 2, 3]).encoded)
        try turn(at: start + .seconds(2))
        let check = try #require(server.awaited.keys.first)
        #expect(check != lost)
        server.answer(check, .accepted)
        #expect(try read(next).replies == [.accepted])
    }

    @Test("at a stop every check still awaited is answered stopping, then its connection closes")
    func detachAnswersAwaitedChecks() throws {
        try makeServer()
        let asker = try connect()
        defer { asker.close() }
        try asker.send(SessionRequest.check(nodes: [0, 1, 2, 5]).encoded)
        try turn(at: start)
        #expect(server.awaited.count == 1)
        server.detach()
        server = nil
        let after = try read(asker)
        #expect(after.replies == [.notChecked(.stopping)])
        #expect(after.closed)
    }

    @Test("eight idle connections of the face's own user do not keep its status from being answered")
    func idleConnectionsDoNotStarveTheFace() throws {
        try makeServer()
        var idle: [SeqPacketConnection] = []
        defer { for connection in idle { connection.close() } }
        for second in 0..<8 {
            idle.append(try connect())
            try turn(at: start + .seconds(Int64(second)))
        }
        let face = try connect()
        defer { face.close() }
        try face.send(SessionRequest.status.encoded)
        try turn(at: start + .seconds(10))
        #expect(try read(face).replies == [status])
        #expect(server.clients.count == SessionServer.mostConnectionsPerUser)
        // The idlest ones made way, each told why.
        let first = try read(idle[0])
        #expect(first.replies == [.notChecked(.overloaded)] && first.closed)
    }

    @Test("refused connections from one uid are logged once per interval, then as one line with their count")
    func refusalsAreLoggedOncePerInterval() throws {
        allowed = false
        try makeServer()
        let recorder = JournalRecorder()
        var replies: [[SessionReply]] = []
        try Journal.$recorder.withValue(recorder) {
            for round in 0..<50 {
                let refused = try connect()
                // A check: root, admitted for enroll and status alone, is refused when it asks one.
                try refused.send(SessionRequest.check(nodes: [0, 1, 2, 5]).encoded)
                try turn(at: start + .milliseconds(Int64(round * 100)))
                replies.append(try read(refused).replies)
                refused.close()
            }
            try turn(at: start + SessionServer.refusalLogInterval + .seconds(1))
        }
        #expect(replies.allSatisfy { $0 == [.notChecked(.refusedPeer)] }, "each is still told why")
        let lines = recorder.messages.filter { $0.hasPrefix("session socket: refused") || $0.contains("more like it") }
        let uid = getuid()
        // 50 connections within 5 s: the first said, the other 49 counted.
        #expect(lines == [
            "session socket: refused a connection from uid \(uid), pid \(getpid()): not in [session] allow-users= or allow-group=",
            "session socket: 49 more like it from uid \(uid) within 10 s (session-refused), not logged one by one",
        ])
    }
}

@Suite struct ConnectionSharesTests {
    let shares = ConnectionShares(perUser: 2, total: 4)
    let t0 = Instant(nanoseconds: 0)

    func open(_ id: Int, uid: UInt32, at second: Int64, waiting: Bool = false) -> ConnectionShares.Open {
        .init(id: id, uid: uid, lastActive: t0 + .seconds(second), awaitingReply: waiting)
    }

    @Test("a uid at its share replaces its own idlest connection and never another uid's")
    func aUidReplacesOnlyItsOwn() {
        let all = [open(1, uid: 1000, at: 5), open(2, uid: 1000, at: 1), open(3, uid: 1001, at: 0)]
        #expect(shares.decide(newcomer: 1000, open: all) == .admitEvicting(2))
        #expect(shares.decide(newcomer: 1001, open: all) == .admit)
    }

    @Test("a connection waiting for its verdict is never evicted, and a full server refuses the newcomer")
    func waitingIsKeptAndFullRefuses() {
        let waiting = [open(1, uid: 1000, at: 1, waiting: true), open(2, uid: 1000, at: 2, waiting: true)]
        #expect(shares.decide(newcomer: 1000, open: waiting) == .refuse)
        let full = waiting + [open(3, uid: 1001, at: 0), open(4, uid: 1001, at: 0)]
        #expect(shares.decide(newcomer: 1002, open: full) == .refuse)
    }
}

@Suite struct RefusalTallyTests {
    let t0 = Instant(nanoseconds: 0)

    @Test("the first refusal of an interval is said, the rest are counted per uid and said when it ends")
    func firstSaidRestCounted() {
        var tally = RefusalTally(interval: .seconds(10))
        let alice = RefusalTally.Key(uid: 1000, kind: "session-refused")
        let bob = RefusalTally.Key(uid: 1001, kind: "session-refused")
        let said = [
            tally.note(alice, at: t0), tally.note(alice, at: t0 + .seconds(3)), tally.note(alice, at: t0 + .seconds(9)),
            tally.note(bob, at: t0 + .seconds(4)),
        ]
        #expect(said == [true, false, false, true], "another uid has its own interval")
        #expect(tally.nextClose == t0 + .seconds(10))
        let early = tally.closeWindows(at: t0 + .seconds(9))
        let atTen = tally.closeWindows(at: t0 + .seconds(10))
        let later = tally.closeWindows(at: t0 + .seconds(14))
        #expect(early.isEmpty)
        #expect(atTen == [.init(key: alice, suppressed: 2)])
        #expect(later.isEmpty, "bob had nothing more to say")
        #expect(tally.nextClose == nil)
        let again = tally.note(alice, at: t0 + .seconds(20))
        #expect(again)
    }
}
