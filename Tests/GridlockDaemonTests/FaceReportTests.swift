import GridlockCore
import GridlockFace
import LinuxSys
import Testing
@testable import GridlockDaemon

/// Version 2 of the session protocol: a face's `report` of its devices, answered `noted`
/// and made tamper at gridlockd; a face of version 1 answered in version 1; a face of
/// version 2 that meets a gridlockd of version 1 falls back to it.
extension SessionSocketTests {
    @Test("a face of version 1 is answered in version 1, byte for byte as before version 2")
    func versionOneFaceIsAnsweredInVersionOne() throws {
        try start()
        let face = try face()
        face.onReply = { [unowned self] _ in if face.replies.count == 2 { daemon.stop() } }
        face.send(SessionRequest.status.encoded(version: 1))
        face.send(SessionRequest.check(nodes: Self.wrong).encoded(version: 1))
        run()
        #expect(face.replyBytes.map { $0[2] } == [1, 1])
        #expect(face.replies.last == .rejected(failures: 1, remainingBeforeLockout: 4))
    }

    @Test("a report in version 1, which has none, is malformed: one reply and the connection closed, nothing tamper")
    func reportInVersionOneIsMalformed() throws {
        try start()
        let face = try face()
        face.onClose = { [unowned self] in daemon.stop() }
        face.send(SessionRequest.report(.touchscreenGone).encoded(version: 1))
        run()
        #expect(face.replies == [.notChecked(.malformed)])
        #expect(face.closed)
        #expect(!journal.contains { $0.hasPrefix("tamper:") })
    }

    @Test("a face's report that its touchscreen or display went, or held a stuck contact, is tamper at gridlockd, named by the face; back is only logged")
    func faceReportIsTamper() throws {
        try start()
        let face = try face()
        let events: [FaceEvent] = [.touchscreenGone, .touchscreenBack, .displayGone, .displayBack, .contactStuck]
        #expect(Set(events) == Set(FaceEvent.allCases))
        face.onReply = { [unowned self] _ in if face.replies.count == events.count { daemon.stop() } }
        for event in events { face.send(.report(event)) }
        run()
        #expect(face.replies == Array(repeating: .noted, count: events.count))
        #expect(face.replyBytes.allSatisfy { $0[2] == SessionProtocol.version })
        #expect(journal.contains("tamper: touch-device-removed (reported by the lock face of \(peer))"), "journal: \(journal)")
        #expect(journal.contains("tamper: display-removed (reported by the lock face of \(peer))"), "journal: \(journal)")
        #expect(journal.contains("tamper: stuck-contact (reported by the lock face of \(peer))"), "journal: \(journal)")
        #expect(journal.contains("the lock face of \(peer) has its touchscreen back"))
        #expect(journal.filter { $0.hasPrefix("tamper:") }.count == 3)
        #expect(verifier.requests == 0)
    }

    @Test("the panel's face tells gridlockd its touchscreen went, and gridlockd makes it tamper")
    func panelFaceReportsItsTouchscreenGone() throws {
        try start()
        let reported = try stopAtFirstReport()
        let panel = Panel(path: path, loop: loop)
        // Unplugged once gridlockd answers; the end of the face's round notices it (gridlockd's
        // loop runs the rounds here, so the face's end of round is called by a deadline).
        let roundEnd = loop.deadline("face round end")
        roundEnd.onFire { _ in panel.face.endRound() }
        panel.onReport = { [unowned self] report in
            guard report == .serviceAvailable else { return }
            panel.touch.devicePath = nil
            roundEnd.due = loop.time
        }
        run()
        panel.end()
        roundEnd.onFire { _ in }
        try #require(daemon.session).report = { _, _ in }
        #expect(reported.events == [.touchscreenGone])
        #expect(journal.contains("tamper: touch-device-removed (reported by the lock face of \(peer))"), "journal: \(journal)")
    }

    @Test("a finger left on the panel face's touchscreen past stuck-touch-ms: the stroke is never checked, and gridlockd makes it tamper")
    func panelFaceReportsAStuckContact() throws {
        try start()
        let reported = try stopAtFirstReport()
        // The schema's shortest: the test waits for the report, never for a length of time.
        let panel = Panel(path: path, loop: loop) { $0.touch.stuckTouch = .milliseconds(100) }
        panel.onReport = { report in
            if report == .serviceAvailable { panel.touch.press(4, on: panel.layout) }
        }
        run()
        panel.end()
        try #require(daemon.session).report = { _, _ in }
        #expect(panel.reports.contains(.strokeCancelled(.stuckTouch)))
        #expect(reported.events == [.contactStuck])
        #expect(verifier.requests == 0)
        #expect(journal.contains("tamper: stuck-contact (reported by the lock face of \(peer))"), "journal: \(journal)")
    }

    @Test("a face of version 5 meeting a gridlockd of version 1 speaks one version older each connection until 1 is answered, and sends it no report")
    func faceFallsBackToVersionOne() throws {
        // A gridlockd of version 1: refuses any other version in version 1 and closes, as
        // its server does; answers a version 1 status with a ready 3x3 grid.
        try Directory.create("\(directory)/old", mode: 0o755)
        let listener = try SeqPacketListener(path: "\(directory)/old/session.sock", mode: 0o666, group: nil)
        var served: [SeqPacketConnection] = []
        var seen: [[UInt8]] = []
        let ready = SessionReply.status(SessionStatus(state: .ready, rows: 3, columns: 3, minimumNodes: 4))
        try loop.watch(listener.descriptor, as: "old gridlockd") {
            guard let connection = try? listener.accept() else { return }
            served.append(connection)
            try? self.loop.watch(connection.descriptor, as: "old gridlockd connection") {
                while case .message(let bytes)? = try? connection.receive(limit: 64) {
                    seen.append(bytes)
                    if bytes.count > 3, bytes[2] == 1 {
                        _ = try? connection.send(ready.encoded(version: 1))
                    } else {
                        _ = try? connection.send(SessionReply.notChecked(.unsupportedVersion).encoded(version: 1))
                        // As gridlockd refuses: what else the face queued is read and dropped,
                        // so it reads the reply, not a reset.
                        connection.discardQueued(upTo: 64)
                        self.loop.unwatch(connection.descriptor)
                        connection.close()
                        return
                    }
                }
            }
        }
        let face = Face(path: listener.path, loop: loop)
        var available = false
        face.controller.onReport = { report in
            if report == .serviceAvailable {
                available = true
                // Not sent to version 1; the status after it is, and shows what was.
                face.client.send(.report(.touchscreenGone))
                face.client.send(.status)
            }
        }
        var finished = false
        loop.deadline("test limit") { _ in
            Issue.record("the face did not find the old gridlockd within 20 s")
            finished = true
        }.due = MonotonicClock.now() + .seconds(20)
        face.client.connect()
        try loop.run(until: { finished || seen.count >= 6 })
        face.letGo()
        for connection in served where loop.isWatching(connection.descriptor) {
            loop.unwatch(connection.descriptor)
            connection.close()
        }
        loop.unwatch(listener.descriptor)
        listener.close()
        #expect(available)
        #expect(face.client.version == 1)
        #expect(seen == [[0x47, 0x4C, 5, 0x02], [0x47, 0x4C, 4, 0x02], [0x47, 0x4C, 3, 0x02], [0x47, 0x4C, 2, 0x02], [0x47, 0x4C, 1, 0x02],
                         [0x47, 0x4C, 1, 0x02]],
                "a status in version 5, refused; in 4, 3 and 2, refused; then in version 1, and no watch and no report: \(seen)")
        #expect(face.controller.machine.phase == .ready)
    }

    @Test("a report while the face's check is out is noted at once, and the check's verdict still reaches the face")
    func reportDuringACheck() throws {
        try start()
        verifier.holding = true
        let server = try #require(daemon.session)
        let heard = server.report
        let panel = Panel(path: path, loop: loop)
        let roundEnd = loop.deadline("face round end")
        roundEnd.onFire { _ in panel.face.endRound() }
        panel.onReport = { [unowned self] report in
            if report == .serviceAvailable { panel.draw(Self.wrong) }
            if case .rejected = report { daemon.stop() }
        }
        verifier.onRequest = { [unowned self] in
            // The check is out: the touchscreen goes, and the face says so before its verdict.
            panel.touch.devicePath = nil
            roundEnd.due = loop.time
        }
        server.report = { [unowned self] event, peer in
            heard(event, peer)
            // Noted first; the verdict comes after it.
            loop.deadline("verdict") { [unowned self] _ in verifier.releaseAll() }.due = loop.time
        }
        run()
        panel.end()
        roundEnd.onFire { _ in }
        try #require(daemon.session).report = { _, _ in }
        #expect(panel.reports == [.serviceAvailable, .rejected(failures: 1)])
        #expect(journal.contains("tamper: touch-device-removed (reported by the lock face of \(peer))"), "journal: \(journal)")
    }
}

/// The face events gridlockd heard, in order.
final class HeardReports {
    var events: [FaceEvent] = []
}

extension SessionSocketTests {
    /// gridlockd hears a face's reports as usual, records them, and stops at the first.
    func stopAtFirstReport() throws -> HeardReports {
        let server = try #require(daemon.session)
        let heard = server.report
        let reported = HeardReports()
        server.report = { [unowned self] event, peer in
            heard(event, peer)
            reported.events.append(event)
            daemon.stop()
        }
        return reported
    }
}
