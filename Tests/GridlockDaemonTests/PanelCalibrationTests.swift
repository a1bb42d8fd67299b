import Glibc
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockDaemon

/// `gridlock calibrate` through the panel's face (session protocol version 5): root asks
/// gridlockd, gridlockd lends the panel to the face, the face's taps come back to root.
/// Root's `calibrate` is refused to anyone else, so these run where the tests run as root
/// (CI and `make test` do).
extension SessionSocketTests {
    @Test("gridlock calibrate through the panel's face: lent the panel, the touchscreen read raw, a tap per cross reaches root's calibrate, nothing is checked meanwhile, and the lock shows again",
          .enabled(if: getuid() == 0, "root's calibrate"))
    func calibrationThroughThePanelFace() throws {
        try start()
        let panel = Panel(path: path, loop: loop)
        let asker = try face()
        let other = try face()
        let frame = Size(width: 800, height: 480)
        func tapNext() {
            guard case .calibrating(let taps) = panel.face.machine.phase, taps.count < CalibrationTaps.targets.count else { return }
            let target = CalibrationTaps.targets[taps.count]
            panel.touch.tap(Point(x: target.x * frame.width + 4, y: target.y * frame.height))
        }
        panel.onReport = { [unowned self] report in
            switch report {
            case .serviceAvailable where panel.reports.count == 1:
                asker.send(.calibrate)
            case .calibrationStarted:
                // A check from elsewhere while the panel is lent: busy, never counted.
                other.send(.check(nodes: Self.right))
                tapNext()
            case .calibrationTapped:
                tapNext()
            case .calibrationEnded:
                daemon.stop()
            default:
                break
            }
        }
        run()
        panel.end()
        guard case .calibration(let taps)? = asker.replies.first, asker.replies.count == 1 else {
            Issue.record("the asker got \(asker.replies)")
            return
        }
        #expect(taps.width == 800 && taps.height == 480 && taps.rotation == .none)
        for (touch, target) in zip(taps.touches, CalibrationTaps.targets) {
            #expect(abs(touch.x - (target.x + 4 / 800)) < 1e-6 && abs(touch.y - target.y) < 1e-6, "\(touch) for \(target)")
        }
        #expect(other.replies == [.notChecked(.busy)])
        #expect(panel.touch.calibrated == [false, true], "the touchscreen's calibration set aside, then applied again")
        #expect(panel.reports.prefix(2) == [.serviceAvailable, .calibrationStarted], "\(panel.reports)")
        #expect(panel.reports.contains(.calibrationTapped(step: 5, of: 5)) && panel.reports.contains(.calibrationEnded))
        #expect(verifier.requests == 0)
        #expect(failures == 0)
        let asked = journal.firstIndex { $0 == "session socket: \(peer) asks for calibration's crosses on the panel's face (gridlock calibrate)" }
        let lent = journal.firstIndex { $0.hasPrefix("session socket: the panel is lent to gridlock calibrate; telling the lock face of") }
        let sent = journal.firstIndex { $0.hasPrefix("session socket: the lock face of") && $0.hasSuffix("sent the taps for gridlock calibrate") }
        let back = journal.firstIndex { $0.hasPrefix("session socket: the panel is back; telling the lock face of") }
        #expect(asked != nil && lent != nil && sent != nil && back != nil && asked! < lent! && lent! < sent! && sent! < back!, "journal: \(journal)")
        #expect(panel.messages.contains(.calibrate(step: 1, count: 5)) && panel.messages.contains(.calibrate(step: 5, count: 5)))
    }

    @Test("a calibrate with no face holding the panel is answered noPanelFace; one whose asker goes away gives the panel back, its touchscreen calibrated again",
          .enabled(if: getuid() == 0, "root's calibrate"))
    func calibrationWithoutFaceOrAsker() throws {
        let (early, panel) = try loanWithoutFaceOrAsker(.calibrate, started: .calibrationStarted, ended: .calibrationEnded)
        #expect(early == [.notChecked(.noPanelFace)])
        #expect(panel?.reports.prefix(3) == [.serviceAvailable, .calibrationStarted, .calibrationEnded], "\(panel?.reports ?? [])")
        #expect(panel?.touch.calibrated == [false, true])
        #expect(journal.contains("session socket: the calibration ended without taps: gridlock calibrate went away first"),
                "journal: \(journal)")
    }

    @Test("taps no calibration asked of a face are malformed: one reply, closed, logged")
    func unaskedCalibrationIsMalformed() throws {
        try start()
        let face = try face()
        face.onClose = { [unowned self] in daemon.stop() }
        face.send(.calibrated(CalibrationTaps(rotation: .none, width: 800, height: 480, touches: CalibrationTaps.targets)))
        run()
        #expect(face.replies == [.notChecked(.malformed)])
        #expect(face.closed)
        #expect(journal.contains { $0.hasSuffix("the taps, which no calibration asked of it") }, "journal: \(journal)")
    }
}
