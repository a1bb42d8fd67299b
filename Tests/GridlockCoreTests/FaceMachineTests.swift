import Testing
@testable import GridlockCore

/// A lock face's machine on an injected clock: it shows what gridlockd answers and unlocks
/// the session only after an `accepted`.
struct FaceHarness {
    var machine: FaceMachine
    var now = Instant.seconds(100)
    let grid = layout()

    init(settings: FaceSettings = FaceSettings(), connected state: SessionStatus.State? = .ready) {
        machine = FaceMachine(settings: settings)
        if let state { send(.reply(.status(SessionStatus(state: state, rows: 3, columns: 3, minimumNodes: 4)))) }
    }

    @discardableResult
    mutating func send(_ event: FaceMachine.Event) -> [FaceMachine.Effect] { machine.handle(event, at: now) }

    /// Drags through `nodes` (1-based) on `on` (the harness's grid unless given) and lifts.
    @discardableResult
    mutating func draw(_ nodes: [Int], on surface: GridLayout? = nil) -> [FaceMachine.Effect] {
        let surface = surface ?? grid
        let points = samples(along: nodes.map { surface.center(of: $0 - 1) }, spacing: 5)
        var effects = send(.touch(.down(points[0]), layout: surface))
        for p in points.dropFirst() { effects += send(.touch(.move(p), layout: surface)) }
        return effects + send(.touch(.up, layout: surface))
    }

    mutating func advance(_ d: Duration) -> [FaceMachine.Effect] {
        now = now + d
        return send(.timerFired)
    }

    var message: Message { machine.scene(on: grid, now: now).message }
}

extension Array where Element == FaceMachine.Effect {
    var sent: [SessionRequest] { compactMap { if case .send(let r) = $0 { r } else { nil } } }
    var unlocks: Int { filter { $0 == .unlockSession }.count }
}

@Suite struct FaceMachineTests {
    @Test("before gridlockd answers nothing is sent, the grid says why, and the session stays locked")
    func waitsForService() {
        var h = FaceHarness(connected: nil)
        #expect(h.message == .serviceUnavailable)
        let effects = h.draw([1, 2, 3, 6, 9])
        #expect(effects.sent.isEmpty)
        #expect(effects.unlocks == 0)
        #expect(h.machine.keepsSessionLocked)
    }

    @Test("connected, the grid shows the prompt while the status is on its way, takes no stroke, and says nothing can be checked only when no answer comes")
    func asksOnConnect() {
        var h = FaceHarness(connected: nil)
        #expect(h.send(.connected).sent == [.status, .watchLock])
        #expect(h.machine.phase == .asking(since: h.now))
        #expect(h.message == .prompt)
        #expect(h.draw([1, 2, 3, 6, 9]).sent.isEmpty)
        #expect(!h.advance(FaceSettings().answerPatience - .milliseconds(1)).contains(.report(.serviceSilent)))
        #expect(h.message == .prompt)
        #expect(h.advance(.milliseconds(1)).contains(.report(.serviceSilent)))
        #expect(h.message == .serviceUnavailable)
        // A late answer still opens the way to checks.
        #expect(h.send(.reply(.status(SessionStatus(state: .ready, rows: 3, columns: 3, minimumNodes: 4)))).contains(.report(.serviceAvailable)))
        #expect(h.draw([1, 2, 3, 6, 9]).sent.count == 1)
    }

    @Test("a connection lost while asking says nothing can be checked at once")
    func lostWhileAsking() {
        var h = FaceHarness(connected: nil)
        h.send(.connected)
        #expect(h.send(.serviceLost).contains(.report(.serviceLost)))
        #expect(h.message == .serviceUnavailable)
    }

    @Test("a finished stroke is sent as a check numbered from 0, and input waits for the answer")
    func strokeIsSent() {
        var h = FaceHarness()
        #expect(h.draw([1, 2, 3, 6, 9]).sent == [.check(nodes: [0, 1, 2, 5, 8])])
        #expect(h.machine.phase == .checking(nodes: [0, 1, 2, 5, 8]))
        #expect(h.message == .verifying)
        #expect(h.draw([1, 4, 7, 8]).sent.isEmpty)
    }

    @Test("a stroke shorter than gridlockd's min-nodes is not sent, and says the minimum")
    func tooShortIsLocal() {
        var h = FaceHarness()
        #expect(h.draw([1, 2, 3]).sent.isEmpty)
        #expect(h.message == .tooShort(minimum: 4))
        #expect(h.draw([1, 2, 3, 6]).sent.count == 1)
    }

    @Test("a rejection shows gridlockd's count and remaining tries, then the grid is ready again")
    func rejectionShowsServerCount() {
        var h = FaceHarness()
        h.draw([1, 2, 3, 6])
        h.send(.reply(.rejected(failures: 3, remainingBeforeLockout: 2)))
        #expect(h.message == .wrong(failures: 3, remaining: 2))
        #expect(h.draw([1, 2, 3, 6]).sent.isEmpty)
        _ = h.advance(.milliseconds(999))
        #expect(h.message == .wrong(failures: 3, remaining: 2))
        _ = h.advance(.milliseconds(1))
        #expect(h.machine.phase == .ready)
        #expect(h.draw([1, 2, 3, 6]).sent.count == 1)
    }

    @Test("a lockout answered by gridlockd counts down on the face and holds input until it ends")
    func lockoutCountsDown() {
        var h = FaceHarness()
        h.draw([1, 2, 3, 6])
        let effects = h.send(.reply(.lockedOut(seconds: 30)))
        #expect(effects.contains(.armTimer(h.now + .seconds(1))))
        #expect(h.message == .lockedOut(seconds: 30))
        _ = h.advance(.seconds(1))
        #expect(h.message == .lockedOut(seconds: 29))
        #expect(h.draw([1, 2, 3, 6]).sent.isEmpty)
        _ = h.advance(.seconds(29))
        #expect(h.machine.phase == .ready)
    }

    @Test("the refusal that starts a lockout asks gridlockd for it instead of offering the grid")
    func lastRefusalAsksStatus() {
        var h = FaceHarness()
        h.draw([1, 2, 3, 6])
        h.send(.reply(.rejected(failures: 5, remainingBeforeLockout: 0)))
        let effects = h.advance(.seconds(1))
        #expect(effects.sent == [.status])
        #expect(h.message == .wrong(failures: 5, remaining: 0))
        #expect(h.draw([1, 2, 3, 6]).sent.isEmpty)
        h.send(.reply(.status(SessionStatus(state: .lockedOut(seconds: 30), rows: 3, columns: 3, minimumNodes: 4))))
        #expect(h.message == .lockedOut(seconds: 30))
    }

    @Test("a face started during a lockout shows it from gridlockd's status")
    func lockoutFromStatus() {
        let h = FaceHarness(connected: .lockedOut(seconds: 12))
        #expect(h.message == .lockedOut(seconds: 12))
    }

    @Test("only an accepted check unlocks the session, once, after the success look")
    func acceptedUnlocks() {
        var h = FaceHarness()
        h.draw([1, 2, 3, 6, 9])
        let answered = h.send(.reply(.accepted))
        #expect(answered.unlocks == 0)
        #expect(h.message == .success)
        #expect(h.advance(.milliseconds(299)).unlocks == 0)
        #expect(h.advance(.milliseconds(1)).unlocks == 1)
        #expect(!h.machine.keepsSessionLocked)
        #expect(h.advance(.seconds(5)).unlocks == 0)
    }

    @Test("with no success look the session unlocks with the answer")
    func immediateUnlock() {
        var settings = FaceSettings()
        settings.successDuration = .zero
        var h = FaceHarness(settings: settings)
        h.draw([1, 2, 3, 6, 9])
        #expect(h.send(.reply(.accepted)).unlocks == 1)
    }

    @Test("an accepted reply to no check in flight unlocks nothing")
    func strayAcceptIsIgnored() {
        var h = FaceHarness()
        #expect(h.send(.reply(.accepted)).unlocks == 0)
        #expect(h.machine.phase == .ready)
        h.draw([1, 2, 3, 6])
        h.send(.reply(.rejected(failures: 1, remainingBeforeLockout: 4)))
        #expect(h.send(.reply(.accepted)).unlocks == 0)
        #expect(h.machine.keepsSessionLocked)
    }

    @Test("losing gridlockd mid-check grants nothing and shows that nothing can be checked")
    func lostMidCheck() {
        var h = FaceHarness()
        h.draw([1, 2, 3, 6, 9])
        let effects = h.send(.serviceLost)
        #expect(effects.unlocks == 0)
        #expect(h.machine.phase == .waitingForService)
        #expect(h.message == .serviceUnavailable)
        #expect(h.send(.reply(.accepted)).unlocks == 0)
        #expect(h.draw([1, 2, 3, 6, 9]).sent.isEmpty)
    }

    @Test("an accepted check still unlocks when gridlockd goes away during the success look")
    func lostAfterAccepted() {
        var h = FaceHarness()
        h.draw([1, 2, 3, 6, 9])
        h.send(.reply(.accepted))
        #expect(h.send(.serviceLost).contains(.report(.serviceLost)))
        #expect(h.advance(.milliseconds(300)).unlocks == 1)
    }

    @Test("busy and not-recorded answers are said and not counted; a refusal closes the way to checks")
    func notCheckedAnswers() {
        var h = FaceHarness()
        h.draw([1, 2, 3, 6])
        h.send(.reply(.notChecked(.busy)))
        #expect(h.message == .busy)
        #expect(h.draw([1, 2, 3, 6]).sent.count == 1)
        h.send(.reply(.notChecked(.notRecorded)))
        #expect(h.message == .cannotRecord)
        h.draw([1, 2, 3, 6])
        h.send(.reply(.notChecked(.refusedPeer)))
        #expect(h.machine.phase == .waitingForService)
        #expect(h.message == .serviceUnavailable)
    }

    @Test("a relock waits for a fresh status before it offers the grid")
    func relockAsksStatus() {
        var settings = FaceSettings()
        settings.successDuration = .zero
        var h = FaceHarness(settings: settings)
        h.draw([1, 2, 3, 6, 9])
        h.send(.reply(.accepted))
        h.send(.serviceLost)  // gridlockd stopped while the session was unlocked
        let effects = h.send(.relocked)
        #expect(effects.sent == [.status])
        #expect(h.machine.keepsSessionLocked)
        #expect(h.message == .prompt, "the grid, not a false 'not running', while the answer comes")
        #expect(h.draw([1, 2, 3, 6, 9]).sent.isEmpty)
        h.send(.reply(.status(SessionStatus(state: .ready, rows: 3, columns: 3, minimumNodes: 4))))
        #expect(h.draw([1, 2, 3, 6, 9]).sent.count == 1)
    }

    @Test("gridlockd's grid is the one drawn: a 4x4 status changes the shape and the numbering")
    func serverGridShape() {
        var h = FaceHarness(connected: nil)
        h.send(.reply(.status(SessionStatus(state: .ready, rows: 4, columns: 4, minimumNodes: 4))))
        let four = layout(4, 4)
        #expect(h.machine.scene(on: four, now: h.now).nodes.count == 16)
        #expect(h.draw([1, 2, 3, 4], on: four).sent == [.check(nodes: [0, 1, 2, 3])])
    }

    @Test("the finger's segment shows on the surface it draws on; the selected nodes on every surface")
    func twoSurfaces() {
        var h = FaceHarness()
        let other = layout(frame: Rect(x: 0, y: 0, width: 1920, height: 1080))
        let start = h.grid.center(of: 0)
        h.send(.touch(.down(start), layout: h.grid))
        h.send(.touch(.move(Point(x: start.x + 30, y: start.y)), layout: h.grid))
        let here = h.machine.scene(on: h.grid, now: h.now)
        let there = h.machine.scene(on: other, now: h.now)
        #expect(here.finger != nil)
        #expect(there.finger == nil)
        #expect(here.nodes[0] == .selected && there.nodes[0] == .selected)
        #expect(there.path == [other.center(of: 0)])
        // A move reported on the other surface does not move this stroke.
        h.send(.touch(.move(other.center(of: 2)), layout: other))
        #expect(h.machine.scene(on: h.grid, now: h.now).nodes[2] == .idle)
    }

    @Test("a cancelled touch discards the stroke without sending it")
    func cancelDiscards() {
        var h = FaceHarness()
        let points = samples(along: [h.grid.center(of: 0), h.grid.center(of: 2)], spacing: 5)
        h.send(.touch(.down(points[0]), layout: h.grid))
        for p in points.dropFirst() { h.send(.touch(.move(p), layout: h.grid)) }
        let cancelled = h.send(.touch(.cancel(.deviceLost), layout: h.grid))
        #expect(cancelled.contains(.report(.strokeCancelled(.deviceLost))))
        #expect(h.send(.touch(.up, layout: h.grid)).sent.isEmpty)
        #expect(h.machine.phase == .ready)
    }

    @Test("a contact that says nothing for stuck-touch-ms is dropped unchecked and reported once; moving keeps it alive")
    func stuckContactIsDropped() {
        var settings = FaceSettings()
        settings.stuckTouchTimeout = .milliseconds(5000)
        var h = FaceHarness(settings: settings)
        let points = samples(along: [h.grid.center(of: 0), h.grid.center(of: 1)], spacing: 5)
        let down = h.send(.touch(.down(points[0]), layout: h.grid))
        #expect(down.contains(.armTimer(h.now + .milliseconds(5000))))
        // A finger that keeps saying something is never stuck: each event moves the deadline.
        for p in points.dropFirst() {
            #expect(!h.advance(.milliseconds(4000)).contains(.report(.strokeCancelled(.stuckTouch))))
            h.send(.touch(.move(p), layout: h.grid))
        }
        #expect(!h.advance(.milliseconds(4999)).contains(.report(.strokeCancelled(.stuckTouch))))
        let stuck = h.advance(.milliseconds(1))
        #expect(stuck.filter { $0 == .report(.strokeCancelled(.stuckTouch)) }.count == 1)
        #expect(stuck.sent.isEmpty)
        #expect(h.machine.phase == .ready)
        #expect(h.machine.selectedNodeCount == 0)
        // Its late lift sends nothing; no second report comes while nothing is touched.
        #expect(h.send(.touch(.up, layout: h.grid)).sent.isEmpty)
        #expect(!h.advance(.seconds(60)).contains(.report(.strokeCancelled(.stuckTouch))))
        // The next stroke is checked as any other.
        #expect(h.draw([1, 2, 3, 6, 9]).sent == [.check(nodes: [0, 1, 2, 5, 8])])
    }

    @Test("without stuck-touch-ms (a compositor's pointer) a resting contact is never dropped")
    func noStuckTimeoutNeverDrops() {
        var h = FaceHarness()
        #expect(FaceSettings().stuckTouchTimeout == nil)
        h.send(.touch(.down(h.grid.center(of: 0)), layout: h.grid))
        #expect(!h.advance(.seconds(3600)).contains(.report(.strokeCancelled(.stuckTouch))))
        #expect(h.machine.phase == .drawing)
    }

    @Test("the panel's face watches the panel from its connection, lets it go when told it is handed over, and takes it back when told")
    func panelHandover() {
        var settings = FaceSettings()
        settings.holdsPanel = true
        var h = FaceHarness(settings: settings, connected: nil)
        #expect(h.send(.connected).sent == [.status, .watchLock, .watchPanel(.lock)])
        h.send(.reply(.status(SessionStatus(state: .ready, rows: 3, columns: 3, minimumNodes: 4))))
        #expect(h.draw([1, 2, 3, 6, 9]).sent == [.check(nodes: [0, 1, 2, 5, 8])])
        // gridlockd answers the check, then tells the watch the panel is handed over.
        #expect(h.send(.reply(.accepted)).contains(.report(.accepted)))
        let handed = h.send(.reply(.panelMode(.handedOver)))
        #expect(handed.filter { if case .holdPanel = $0 { true } else { false } } == [.holdPanel(false)])
        // Its watch for the return is its word that it let go: the action starts on it.
        #expect(handed.sent == [.watchPanel(.handedOver)])
        #expect(handed.contains(.report(.panelHandedOver)))
        #expect(h.machine.phase == .handedOver)
        // Nothing drawn meanwhile is sent, nothing unlocks, no timer runs: the panel is the action's.
        #expect(h.draw([1, 2, 3, 6, 9]).sent.isEmpty)
        #expect(h.advance(.seconds(3600)).isEmpty || h.machine.phase == .handedOver)
        #expect(h.machine.phase == .handedOver)
        let back = h.send(.reply(.panelMode(.lock)))
        #expect(back.filter { if case .holdPanel = $0 { true } else { false } } == [.holdPanel(true)])
        #expect(back.sent == [.status, .watchPanel(.lock)])
        #expect(back.contains(.report(.panelBack)))
        h.send(.reply(.status(SessionStatus(state: .ready, rows: 3, columns: 3, minimumNodes: 4))))
        #expect(h.machine.phase == .ready)
        #expect(h.draw([1, 2, 3, 6, 9]).sent == [.check(nodes: [0, 1, 2, 5, 8])])
    }

    @Test("handed over in the middle of a stroke or a check: the stroke is dropped unsent and the panel let go")
    func panelHandoverMidStroke() {
        var settings = FaceSettings()
        settings.holdsPanel = true
        var h = FaceHarness(settings: settings)
        h.send(.touch(.down(h.grid.center(of: 0)), layout: h.grid))
        h.send(.touch(.move(h.grid.center(of: 1)), layout: h.grid))
        let handed = h.send(.reply(.panelMode(.handedOver)))
        #expect(handed.contains(.holdPanel(false)))
        #expect(h.send(.touch(.up, layout: h.grid)).sent.isEmpty)
        #expect(h.machine.phase == .handedOver)
        // A status asked earlier and answered now changes nothing while handed over.
        h.send(.reply(.status(SessionStatus(state: .ready, rows: 3, columns: 3, minimumNodes: 4))))
        #expect(h.machine.phase == .handedOver)
    }

    @Test("gridlockd lost while the panel is handed over: the face takes the panel back to say nothing can be checked")
    func panelHandoverServiceLost() {
        var settings = FaceSettings()
        settings.holdsPanel = true
        var h = FaceHarness(settings: settings)
        h.send(.reply(.panelMode(.handedOver)))
        #expect(h.machine.phase == .handedOver)
        let lost = h.send(.serviceLost)
        #expect(lost.contains(.holdPanel(true)))
        #expect(lost.contains(.report(.serviceLost)))
        #expect(h.message == .serviceUnavailable)
        // A mode that comes late from nowhere changes nothing.
        #expect(h.send(.reply(.panelMode(.lock))).isEmpty)
        #expect(h.machine.phase == .waitingForService)
    }

    @Test("a face in a user's session holds no panel: it never watches it, and a handed-over status is a grid whose checks are answered busy")
    func sessionFaceIgnoresHandover() {
        var h = FaceHarness(connected: nil)
        #expect(h.send(.connected).sent == [.status, .watchLock])
        h.send(.reply(.status(SessionStatus(state: .handedOver, rows: 3, columns: 3, minimumNodes: 4))))
        #expect(h.machine.phase == .ready)
        #expect(h.send(.reply(.panelMode(.handedOver))).isEmpty)
        #expect(h.draw([1, 2, 3, 6, 9]).sent == [.check(nodes: [0, 1, 2, 5, 8])])
    }

    @Test("the panel's face lent to gridlock enroll: drawn twice (too short and a mismatch drawn anew), sent once, the lock back when gridlockd says")
    func enrolmentThroughTheFace() {
        var settings = FaceSettings()
        settings.holdsPanel = true
        var h = FaceHarness(settings: settings)
        var effects = h.send(.reply(.panelMode(.enrolling)))
        #expect(effects.contains(.report(.enrollmentStarted)))
        #expect(effects.sent == [.watchPanel(.enrolling)])
        #expect(h.message == .enrollDraw)
        // Too short: said, and the first drawing again.
        #expect(h.draw([1, 2, 3]).contains(.report(.enrollmentTooShort(nodes: 3))))
        #expect(h.message == .tooShort(minimum: 4))
        h.advance(FaceSettings().errorDuration)
        #expect(h.message == .enrollDraw)
        #expect(h.draw([1, 2, 3, 6, 9]).contains(.report(.enrollmentFirstDrawn(nodes: 5))))
        #expect(h.message == .enrollConfirm)
        // Another pattern the second time: start over.
        effects = h.draw([1, 4, 7, 8])
        #expect(effects.contains(.report(.enrollmentMismatch)) && effects.sent.isEmpty)
        h.advance(FaceSettings().errorDuration)
        #expect(h.message == .enrollDraw)
        h.draw([1, 2, 3, 6, 9])
        effects = h.draw([1, 2, 3, 6, 9])
        #expect(effects.sent == [.enrolled(nodes: [0, 1, 2, 5, 8])])
        #expect(effects.contains(.report(.enrollmentSent(nodes: 5))))
        #expect(h.message == .enrollSaved)
        // Nothing more is taken, and nothing is checked.
        #expect(h.draw([1, 2, 3, 6, 9]).sent.isEmpty)
        effects = h.send(.reply(.panelMode(.lock)))
        #expect(effects.contains(.report(.enrollmentEnded)))
        #expect(effects.sent == [.status, .watchPanel(.lock)])
        #expect(!effects.contains(.holdPanel(true)), "the devices were never let go")
        #expect(h.machine.phase == .asking(since: h.now))
    }

    @Test("an enrolment's second drawing too short keeps the first; gridlockd lost mid-enrolment ends it with nothing sent")
    func enrolmentTooShortConfirmAndLoss() {
        var settings = FaceSettings()
        settings.holdsPanel = true
        var h = FaceHarness(settings: settings)
        h.send(.reply(.panelMode(.enrolling)))
        h.draw([1, 2, 3, 6, 9])
        h.draw([1, 2])
        h.advance(FaceSettings().errorDuration)
        #expect(h.message == .enrollConfirm)
        #expect(h.machine.phase == .enrollConfirm(first: [0, 1, 2, 5, 8]))
        let effects = h.send(.serviceLost)
        #expect(effects.contains(.report(.serviceLost)))
        #expect(h.machine.phase == .waitingForService)
        #expect(h.draw([1, 2, 3, 6, 9]).sent.isEmpty)
    }

    @Test("a face in a user's session is never lent to an enrolment")
    func sessionFaceIgnoresEnrolment() {
        var h = FaceHarness()
        #expect(h.send(.reply(.panelMode(.enrolling))).isEmpty)
        #expect(h.draw([1, 2, 3, 6, 9]).sent == [.check(nodes: [0, 1, 2, 5, 8])])
    }

    private static func changed(_ state: SessionStatus.State, rows: Int = 3, columns: Int = 3, minimum: Int = 4) -> FaceMachine.Event {
        .reply(.lockChanged(SessionStatus(state: state, rows: rows, columns: columns, minimumNodes: minimum)))
    }

    @Test("a lockout ended early (gridlock reset-lockout) frees the grid at once, and the face watches again")
    func lockoutEndedEarly() {
        var h = FaceHarness(connected: .lockedOut(seconds: 300))
        #expect(h.message == .lockedOut(seconds: 300))
        #expect(h.draw([1, 2, 3, 6, 9]).sent.isEmpty)
        h.advance(.seconds(10))
        let effects = h.send(Self.changed(.ready))
        #expect(effects.contains(.report(.lockoutEnded)))
        #expect(effects.sent == [.watchLock])
        #expect(h.machine.phase == .ready)
        #expect(h.message == .prompt)
        #expect(h.draw([1, 2, 3, 6, 9]).sent == [.check(nodes: [0, 1, 2, 5, 8])])
    }

    @Test("a lockout begun by another face stops a waiting grid with gridlockd's countdown; one renewed restarts it quietly")
    func lockoutBegunElsewhere() {
        var h = FaceHarness()
        let effects = h.send(Self.changed(.lockedOut(seconds: 30)))
        #expect(effects.contains(.report(.lockedOut(seconds: 30))))
        #expect(effects.sent == [.watchLock])
        #expect(h.message == .lockedOut(seconds: 30))
        #expect(h.draw([1, 2, 3, 6, 9]).sent.isEmpty)
        h.advance(.seconds(20))
        let renewed = h.send(Self.changed(.lockedOut(seconds: 60)))
        #expect(!renewed.contains { if case .report = $0 { true } else { false } })
        #expect(h.message == .lockedOut(seconds: 60))
    }

    @Test("a reload's new grid is taken at once: a stroke drawn on the old one is dropped, never sent")
    func gridChangedMidStroke() throws {
        var h = FaceHarness()
        let points = [1, 2, 3].map { h.grid.center(of: $0 - 1) }
        h.send(.touch(.down(points[0]), layout: h.grid))
        h.send(.touch(.move(points[2]), layout: h.grid))
        #expect(h.machine.phase == .drawing)
        let effects = h.send(Self.changed(.ready, rows: 4, columns: 4, minimum: 5))
        #expect(effects.contains(.report(.strokeCancelled(.gridChanged))))
        let four = try GridShape(rows: 4, columns: 4)
        #expect(h.machine.shape == four)
        #expect(h.machine.minimumNodes == 5)
        #expect(h.machine.phase == .ready)
        // The old grid's finger lifts: nothing is sent.
        #expect(h.send(.touch(.up, layout: h.grid)).sent.isEmpty)
    }

    @Test("news of the lock while a check is out or a verdict shows waits for them: the check's answer decides")
    func lockChangedDuringCheck() {
        var h = FaceHarness()
        #expect(h.draw([1, 2, 3, 6, 9]).sent == [.check(nodes: [0, 1, 2, 5, 8])])
        let effects = h.send(Self.changed(.lockedOut(seconds: 30)))
        #expect(effects.sent == [.watchLock])
        #expect(h.machine.phase == .checking(nodes: [0, 1, 2, 5, 8]))
        // Its answer comes as before, and is the check's.
        #expect(h.send(.reply(.accepted)).contains(.report(.accepted)))
    }
}
