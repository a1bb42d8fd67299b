import Glibc
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockDaemon

/// `gridlock enroll` through the panel's face (session protocol version 4): root asks
/// gridlockd, gridlockd lends the panel to the face, the face's drawing comes back to root.
/// Root's `enroll` is refused to anyone else, so these run where the tests run as root
/// (CI and `make test` do).
extension SessionSocketTests {
    @Test("gridlock enroll through the panel's face: lent the panel, the face's pattern drawn twice reaches root's enroll, nothing is checked meanwhile, and the lock shows again",
          .enabled(if: getuid() == 0, "root's enroll"))
    func enrolmentThroughThePanelFace() throws {
        try start()
        let panel = Panel(path: path, loop: loop)
        let enroller = try face()
        let other = try face()
        panel.onReport = { [unowned self] report in
            switch report {
            case .serviceAvailable where panel.reports.count == 1:
                enroller.send(.enroll)
            case .enrollmentStarted:
                // A check from elsewhere while the panel is lent: busy, never counted.
                other.send(.check(nodes: Self.right))
                panel.draw(Self.right)
            case .enrollmentFirstDrawn:
                panel.draw(Self.right)
            case .enrollmentEnded:
                daemon.stop()
            default:
                break
            }
        }
        run()
        panel.end()
        #expect(enroller.replies == [.enrollment(nodes: Self.right)])
        #expect(other.replies == [.notChecked(.busy)])
        #expect(panel.reports.prefix(5) == [.serviceAvailable, .enrollmentStarted, .enrollmentFirstDrawn(nodes: 5), .enrollmentSent(nodes: 5),
                                           .enrollmentEnded], "\(panel.reports)")
        #expect(verifier.requests == 0)
        #expect(failures == 0)
        let asked = journal.firstIndex { $0 == "session socket: \(peer) asks for a pattern drawn on the panel's face (gridlock enroll)" }
        let lent = journal.firstIndex { $0.hasPrefix("session socket: the panel is lent to gridlock enroll; telling the lock face of") }
        let sent = journal.firstIndex { $0.hasPrefix("session socket: the lock face of") && $0.hasSuffix("sent the pattern drawn for gridlock enroll (5 nodes)") }
        let back = journal.firstIndex { $0.hasPrefix("session socket: the panel is back; telling the lock face of") }
        #expect(asked != nil && lent != nil && sent != nil && back != nil && asked! < lent! && lent! < sent! && sent! < back!, "journal: \(journal)")
        #expect(!journal.contains { $0.contains("1-2-3-6-9") || $0.contains("[0, 1, 2, 5, 8]") }, "the pattern in the journal: \(journal)")
        #expect(panel.messages.contains(.enrollDraw) && panel.messages.contains(.enrollConfirm) && panel.messages.contains(.enrollSaved))
    }

    @Test("an enroll with no face holding the panel is answered noPanelFace; one whose asker goes away gives the panel back to the lock",
          .enabled(if: getuid() == 0, "root's enroll"))
    func enrolmentWithoutFaceOrAsker() throws {
        let (early, panel) = try loanWithoutFaceOrAsker(.enroll, started: .enrollmentStarted, ended: .enrollmentEnded)
        #expect(early == [.notChecked(.noPanelFace)])
        #expect(panel?.reports.prefix(3) == [.serviceAvailable, .enrollmentStarted, .enrollmentEnded], "\(panel?.reports ?? [])")
        #expect(journal.contains("session socket: the enrolment ended without a pattern: gridlock enroll went away first"),
                "journal: \(journal)")
    }

    /// Root asks for the panel (`enroll`, `calibrate`) with no face holding it; then a face
    /// starts, another asker asks and leaves once the face began. What the first asker was
    /// answered, and the face (ended).
    func loanWithoutFaceOrAsker(
        _ request: SessionRequest, started: FaceReport, ended: FaceReport
    ) throws -> (early: [SessionReply], panel: Panel?) {
        try start()
        let early = try face()
        early.send(request)
        var panel: Panel?
        early.onReply = { [unowned self] reply in
            guard reply == .notChecked(.noPanelFace) else { return }
            let face = Panel(path: path, loop: loop)
            panel = face
            let quitter = try? self.face()
            face.onReport = { [unowned self] report in
                if report == .serviceAvailable, face.reports.count == 1 { quitter?.send(request) }
                if report == started { quitter?.disconnect() }
                if report == ended { daemon.stop() }
            }
        }
        run()
        panel?.end()
        return (early.replies, panel)
    }

    @Test("a pattern no enrolment asked of a face is malformed: one reply, closed, nothing enrolled")
    func unaskedEnrolmentIsMalformed() throws {
        try start()
        let face = try face()
        face.onClose = { [unowned self] in daemon.stop() }
        face.send(.enrolled(nodes: Self.right))
        run()
        #expect(face.replies == [.notChecked(.malformed)])
        #expect(face.closed)
    }
}
