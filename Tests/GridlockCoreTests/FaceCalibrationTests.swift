import Testing
@testable import GridlockCore

/// The panel's face lent to `gridlock calibrate` (session protocol version 5): five crosses,
/// one tap each read with the touchscreen's calibration set aside, sent as the device's own
/// positions for root to fit.
@Suite struct FaceCalibrationTests {
    static func panelFace(rotation: Rotation = .none) -> FaceHarness {
        var settings = FaceSettings()
        settings.holdsPanel = true
        settings.panelRotation = rotation
        return FaceHarness(settings: settings)
    }

    /// Touches the frame at `fraction` of its width and height, moves a little, lifts.
    static func tap(_ h: inout FaceHarness, at fraction: Point) -> [FaceMachine.Effect] {
        let frame = h.grid.frame
        let point = Point(x: frame.x + fraction.x * frame.width, y: frame.y + fraction.y * frame.height)
        return h.send(.touch(.down(Point(x: point.x - 3, y: point.y + 2)), layout: h.grid))
            + h.send(.touch(.move(point), layout: h.grid)) + h.send(.touch(.up, layout: h.grid))
    }

    @Test("lent to gridlock calibrate: the touchscreen's calibration set aside, a cross per tap in order, the five taps sent once as the device's positions, and the calibration applied again when the lock is back")
    func calibrationThroughTheFace() {
        var h = Self.panelFace()
        let lent = h.send(.reply(.panelMode(.calibrating)))
        #expect(lent.contains(.calibrateTouch(false)))
        #expect(lent.contains(.report(.calibrationStarted)))
        #expect(lent.sent == [.watchPanel(.calibrating)])
        // The touches a miscalibrated panel reports: every tap 2 % right of its cross.
        var sent: [SessionRequest] = []
        for (index, target) in CalibrationTaps.targets.enumerated() {
            let scene = h.machine.scene(on: h.grid, now: h.now)
            #expect(scene.message == .calibrate(step: index + 1, count: 5))
            let frame = h.grid.frame
            #expect(scene.target == Point(x: frame.x + target.x * frame.width, y: frame.y + target.y * frame.height))
            let effects = Self.tap(&h, at: Point(x: target.x + 0.02, y: target.y))
            #expect(effects.contains(.report(.calibrationTapped(step: index + 1, of: 5))))
            sent += effects.sent
        }
        guard case .calibrated(let taps)? = sent.first, sent.count == 1 else {
            Issue.record("sent \(sent)")
            return
        }
        #expect(taps.rotation == .none && taps.width == Int(h.grid.frame.width) && taps.height == Int(h.grid.frame.height))
        for (touch, target) in zip(taps.touches, CalibrationTaps.targets) {
            #expect(abs(touch.x - (target.x + 0.02)) < 1e-9 && abs(touch.y - target.y) < 1e-9, "\(touch) for \(target)")
        }
        #expect(h.machine.phase == .calibrationSent)
        // Nothing more is sent for taps after the last, and nothing is checked.
        #expect(Self.tap(&h, at: Point(x: 0.5, y: 0.5)).sent.isEmpty)
        let back = h.send(.reply(.panelMode(.lock)))
        #expect(back.contains(.calibrateTouch(true)))
        #expect(back.contains(.report(.calibrationEnded)))
        #expect(back.sent == [.status, .watchPanel(.lock)])
        h.send(.reply(.status(SessionStatus(state: .ready, rows: 3, columns: 3, minimumNodes: 4))))
        #expect(h.draw([1, 2, 3, 6, 9]).sent == [.check(nodes: [0, 1, 2, 5, 8])])
    }

    @Test("on a display turned 90 degrees the taps go back through the turn: the device's own axes, which the matrix acts on")
    func calibrationUnturnsTaps() {
        var h = Self.panelFace(rotation: .clockwise90)
        h.send(.reply(.panelMode(.calibrating)))
        var sent: [SessionRequest] = []
        for target in CalibrationTaps.targets { sent += Self.tap(&h, at: target).sent }
        guard case .calibrated(let taps)? = sent.first else {
            Issue.record("sent \(sent)")
            return
        }
        #expect(taps.rotation == .clockwise90)
        for (touch, target) in zip(taps.touches, CalibrationTaps.targets) {
            let expected = Rotation.clockwise90.physical(fromLogical: target)
            #expect(abs(touch.x - expected.x) < 1e-9 && abs(touch.y - expected.y) < 1e-9)
        }
    }

    @Test("a contact cancelled while calibrating taps nothing; gridlockd lost meanwhile applies the touchscreen's calibration again")
    func calibrationCancelAndLoss() {
        var h = Self.panelFace()
        h.send(.reply(.panelMode(.calibrating)))
        h.send(.touch(.down(h.grid.center(of: 0)), layout: h.grid))
        h.send(.touch(.cancel(.eventsDropped), layout: h.grid))
        #expect(h.send(.touch(.up, layout: h.grid)).isEmpty || h.machine.phase == .calibrating(taps: []))
        #expect(h.machine.phase == .calibrating(taps: []))
        #expect(Self.tap(&h, at: CalibrationTaps.targets[0]).contains(.report(.calibrationTapped(step: 1, of: 5))))
        let lost = h.send(.serviceLost)
        #expect(lost.contains(.calibrateTouch(true)) && lost.contains(.report(.serviceLost)))
        #expect(h.machine.phase == .waitingForService)
        #expect(h.message == .serviceUnavailable)
    }

    @Test("a face in a user's session, which holds no panel, is never lent to a calibration")
    func sessionFaceIsNotCalibrated() {
        var h = FaceHarness()
        #expect(h.send(.reply(.panelMode(.calibrating))).isEmpty)
        #expect(h.machine.phase == .ready)
    }
}
