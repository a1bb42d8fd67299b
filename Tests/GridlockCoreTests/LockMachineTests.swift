import Testing
@testable import GridlockCore

/// Drives a `LockMachine` with a fake clock and records its effects.
struct Harness {
    var machine: LockMachine
    var now = Instant.seconds(100)
    var effects: [LockEffect] = []
    /// The deadline the shell would have armed, from every effect so far.
    var armedDeadline: Instant?

    init(settings: LockSettings = LockSettings(), mode: LockMachine.Mode = .unlock, attempts: AttemptState = .clean) {
        machine = LockMachine(layout: layout(), settings: settings, mode: mode, attempts: attempts)
        effects = machine.start(at: now)
        track(effects)
    }

    private mutating func track(_ effects: [LockEffect]) {
        for effect in effects {
            switch effect {
            case .armTimer(let t): armedDeadline = t
            case .disarmTimer: armedDeadline = nil
            default: break
            }
        }
    }

    var grid: GridLayout { machine.layout }

    @discardableResult
    mutating func send(_ event: LockEvent) -> [LockEffect] {
        effects = machine.handle(event, at: now)
        track(effects)
        return effects
    }

    mutating func advance(_ duration: Duration) { now = now + duration }

    /// Draws a stroke through the centres of `nodes` (1-based) and lifts the finger.
    @discardableResult
    mutating func draw(_ nodes: [Int]) -> [LockEffect] {
        let points = samples(along: nodes.map { grid.center(of: $0 - 1) }, spacing: 20)
        var all = send(.touch(.down(points[0])))
        for p in points.dropFirst() {
            advance(.milliseconds(10))
            all += send(.touch(.move(p)))
        }
        all += send(.touch(.up))
        effects = all
        return all
    }

    /// Fires the timer at the armed deadline, as the shell would.
    mutating func fireTimer() {
        guard let deadline = armedDeadline else { Issue.record("no timer armed"); return }
        now = max(now, deadline)
        send(.timerFired)
    }

    var lastScene: Scene? {
        for effect in effects.reversed() { if case .render(let s) = effect { return s } }
        return nil
    }

    var reports: [LockReport] { effects.compactMap { if case .report(let r) = $0 { r } else { nil } } }
}

extension Array where Element == LockEffect {
    var persisted: [AttemptState] { compactMap { if case .persist(let s) = $0 { s } else { nil } } }
    var verified: [Pattern] { compactMap { if case .verify(let p) = $0 { p } else { nil } } }
    var deadlines: [Instant] { compactMap { if case .armTimer(let t) = $0 { t } else { nil } } }
}

@Suite struct LockMachineTests {
    @Test("starts ready with the prompt and no timer") func startsReadyWithThePromptAndNoTimer() {
        let h = Harness()
        #expect(h.machine.phase == .ready)
        #expect(h.lastScene?.message == .prompt)
        #expect(h.lastScene?.nodes.allSatisfy { $0 == .idle } == true)
        #expect(h.effects.deadlines.isEmpty)
    }

    @Test("drawing highlights nodes and follows the finger") func drawingHighlightsNodesAndFollowsTheFinger() {
        var h = Harness()
        h.send(.touch(.down(h.grid.center(of: 0))))
        #expect(h.machine.phase == .drawing)
        let finger = Point(x: h.grid.center(of: 0).x + 30, y: h.grid.center(of: 0).y)
        h.send(.touch(.move(finger)))
        let scene = h.lastScene!
        #expect(scene.nodes[0] == .selected)
        #expect(scene.path == [h.grid.center(of: 0)])
        #expect(scene.finger == finger)
    }

    @Test("the failure is persisted before verification starts") func theFailureIsPersistedBeforeVerificationStarts() {
        var h = Harness()
        let effects = h.draw([1, 2, 3, 6, 9])
        let persistIndex = effects.firstIndex { if case .persist = $0 { true } else { false } }
        let verifyIndex = effects.firstIndex { if case .verify = $0 { true } else { false } }
        #expect(persistIndex != nil && verifyIndex != nil && persistIndex! < verifyIndex!)
        #expect(effects.persisted == [AttemptState(failures: 1)])
        #expect(effects.verified.map(\.nodes) == [[0, 1, 2, 5, 8]])
        #expect(h.machine.phase == .verifying(nodes: [0, 1, 2, 5, 8], check: nil))
        #expect(h.lastScene?.message == .verifying)
    }

    @Test("fail closed: an attempt whose failure cannot be recorded is not checked, and says so")
    func anUnrecordedFailureIsNotChecked() {
        var h = Harness()
        h.draw([1, 2, 3, 6, 9])
        let effects = h.send(.persistFailed)
        #expect(effects.verified.isEmpty)
        #expect(h.reports == [.notRecorded(nodes: 5)])
        #expect(h.machine.phase == .notRecorded(nodes: [0, 1, 2, 5, 8], until: h.now + LockSettings().errorDuration))
        #expect(h.lastScene?.message == .cannotRecord)
        // A late verification result (the shell never started one, but a stale one) grants nothing.
        h.send(.verified(patternName: "door"))
        #expect(h.reports.isEmpty)
        #expect(h.machine.phase != .ready)
        #expect(h.draw([1, 2, 3]).isEmpty)
        // The failure still counts in memory, so lockouts keep working while the disk is broken.
        #expect(h.machine.attempts.failures == 1)
        h.fireTimer()
        #expect(h.machine.phase == .ready)
        #expect(h.draw([1, 2, 3, 6]).persisted == [AttemptState(failures: 2)])
    }

    @Test("the failure count saturates instead of overflowing, and a saturated count still locks out")
    func theFailureCountSaturates() {
        var h = Harness(attempts: AttemptState(failures: AttemptState.maximumFailures - 1))
        #expect(h.draw([1, 4, 7, 8]).persisted == [AttemptState(failures: AttemptState.maximumFailures)])
        h.send(.verified(patternName: nil))
        h.fireTimer()
        #expect(h.reports == [.lockout(seconds: 86_400, failures: AttemptState.maximumFailures)])
        h.now = h.now + .seconds(86_400)
        h.send(.timerFired)
        #expect(h.draw([1, 4, 7, 8]).persisted == [AttemptState(failures: AttemptState.maximumFailures)])
    }

    @Test("the longest schedule entry: the deadline is a year away, not wrapped into the past")
    func theLongestLockoutDoesNotWrap() throws {
        var settings = LockSettings()
        settings.schedule = try LockoutSchedule(text: "31536000")
        var h = Harness(settings: settings)
        h.draw([1, 4, 7, 8])
        h.send(.verified(patternName: nil))
        h.fireTimer()
        #expect(h.machine.phase == .lockedOut(until: h.now + .seconds(31_536_000)))
        #expect(h.lastScene?.message == .lockedOut(seconds: 31_536_000))
        h.advance(.seconds(2))
        #expect(h.draw([1, 2, 3, 6]).verified.isEmpty)
    }

    /// Found by the touch-pipeline fuzz target (Tests/Fixtures/fuzz-regressions/touch-pipeline):
    /// near the end of `Instant` the error display and the lockout both end at `Instant.max`.
    /// The loop's timer is one-shot, so after it fired the machine must arm it again even for
    /// the same instant, or the lockout never ends.
    @Test("the timer is armed again after firing even for the same instant") func theTimerIsArmedAgainAfterFiringEvenForTheSameInstant() throws {
        let end = Instant(nanoseconds: .max)
        var settings = LockSettings()
        settings.schedule = try LockoutSchedule(text: "31536000")
        var h = Harness(settings: settings)
        h.now = Instant(nanoseconds: .max - 900_000_000)
        h.draw([1, 4, 7, 8])
        h.send(.verified(patternName: nil))
        #expect(h.machine.phase == .rejected(nodes: [0, 3, 6, 7], until: end, lockoutAfter: .seconds(31_536_000)))
        h.now = end
        #expect(h.send(.timerFired).contains(.armTimer(end)))
        #expect(h.machine.phase == .lockedOut(until: end))
        h.send(.timerFired)
        #expect(h.machine.phase == .ready)
    }

    @Test("input is ignored while verifying") func inputIsIgnoredWhileVerifying() {
        var h = Harness()
        h.draw([1, 2, 3, 6])
        let effects = h.send(.touch(.down(h.grid.center(of: 8))))
        #expect(effects.isEmpty)
        #expect(h.machine.phase == .verifying(nodes: [0, 1, 2, 5], check: nil))
    }

    @Test("success resets failures runs the action and relocks") func successResetsFailuresRunsTheActionAndRelocks() {
        var h = Harness(attempts: AttemptState(failures: 3))
        h.draw([1, 2, 3, 6])
        let verifiedAt = h.now
        let effects = h.send(.verified(patternName: "door"))
        #expect(effects.persisted == [.clean])
        #expect(effects.contains(.runAction(patternName: "door")))
        #expect(h.reports == [.accepted(patternName: "door", nodes: 4)])
        #expect(h.lastScene?.nodes[0] == .success)
        #expect(h.lastScene?.message == .success)
        // Input is ignored while the action runs.
        #expect(h.send(.touch(.down(h.grid.center(of: 4)))).isEmpty)
        // The action ends quickly; the success stays on screen for success-ms.
        h.advance(.milliseconds(200))
        h.send(.actionFinished)
        #expect(h.effects.deadlines == [verifiedAt + .milliseconds(1500)])
        h.fireTimer()
        #expect(h.machine.phase == .ready)
        #expect(h.lastScene?.message == .prompt)
    }

    @Test("a long action keeps the screen until it ends") func aLongActionKeepsTheScreenUntilItEnds() {
        var h = Harness()
        h.draw([1, 2, 3, 6])
        h.send(.verified(patternName: "session"))
        h.advance(.seconds(60))
        h.send(.timerFired)
        #expect(h.machine.phase != .ready)
        h.send(.actionFinished)
        #expect(h.machine.phase == .ready)
    }

    @Test("a wrong pattern shows the error then returns to ready") func aWrongPatternShowsTheErrorThenReturnsToReady() {
        var h = Harness()
        h.draw([1, 4, 7, 8])
        h.send(.verified(patternName: nil))
        #expect(h.reports == [.rejected(nodes: 4, failures: 1)])
        #expect(h.lastScene?.message == .wrong(failures: 1, remaining: 4))
        #expect(h.lastScene?.nodes[0] == .error)
        #expect(h.lastScene?.pathLook == .error)
        #expect(h.effects.deadlines == [h.now + .milliseconds(1000)])
        // Input is ignored during the error display.
        #expect(h.send(.touch(.down(h.grid.center(of: 4)))).isEmpty)
        h.fireTimer()
        #expect(h.machine.phase == .ready)
        #expect(h.machine.attempts == AttemptState(failures: 1))
    }

    @Test("five failures lock out for thirty seconds with a countdown") func fiveFailuresLockOutForThirtySecondsWithACountdown() {
        var h = Harness()
        for attempt in 1...5 {
            h.draw([1, 4, 7, 8])
            h.send(.verified(patternName: nil))
            if attempt == 5 {
                // The lockout is persisted with the rejection, before the error is even shown.
                #expect(h.effects.persisted == [AttemptState(failures: 5, lockoutPending: true)])
            }
            h.fireTimer()
        }
        guard case .lockedOut(let until) = h.machine.phase else {
            Issue.record("not locked out: \(h.machine.phase)")
            return
        }
        #expect(until == h.now + .seconds(30))
        #expect(h.reports == [.lockout(seconds: 30, failures: 5)])
        #expect(h.lastScene?.message == .lockedOut(seconds: 30))
        // Input is ignored during the lockout.
        #expect(h.draw([1, 2, 3, 6]).verified.isEmpty)
        // One wake-up per second of countdown.
        var shown: [Int] = []
        while case .lockedOut = h.machine.phase {
            let before = h.now
            h.fireTimer()
            #expect(h.now.duration(since: before) <= .seconds(1))
            if case .lockedOut(let s)? = h.lastScene?.message { shown.append(s) }
        }
        #expect(shown == Array((1...29).reversed()))
        #expect(h.effects.persisted == [AttemptState(failures: 5, lockoutPending: false)])
        #expect(h.reports == [.lockoutEnded])
        #expect(h.machine.phase == .ready)
        // The sixth attempt is allowed, counted, and does not lock out (Android's schedule).
        #expect(h.draw([1, 2, 3, 6]).persisted == [AttemptState(failures: 6, lockoutPending: false)])
    }

    @Test("a restart during a lockout restarts it in full") func aRestartDuringALockoutRestartsItInFull() {
        var h = Harness(attempts: AttemptState(failures: 5, lockoutPending: true))
        #expect(h.machine.phase == .lockedOut(until: h.now + .seconds(30)))
        #expect(h.reports == [.lockout(seconds: 30, failures: 5)])
        #expect(h.effects.deadlines == [h.now + .seconds(1)])
        // Failures that lock out under the restored count keep counting up.
        h.now = h.now + .seconds(30)
        h.send(.timerFired)
        #expect(h.machine.attempts == AttemptState(failures: 5, lockoutPending: false))
    }

    @Test("a restart with a failure count but no pending lockout is ready") func aRestartWithAFailureCountButNoPendingLockoutIsReady() {
        let h = Harness(attempts: AttemptState(failures: 5, lockoutPending: false))
        #expect(h.machine.phase == .ready)
    }

    @Test("a pending lockout under a schedule without delay is cleared") func aPendingLockoutUnderAScheduleWithoutDelayIsCleared() {
        var settings = LockSettings()
        settings.schedule = .none
        let h = Harness(settings: settings, attempts: AttemptState(failures: 7, lockoutPending: true))
        #expect(h.machine.phase == .ready)
        #expect(h.effects.persisted == [AttemptState(failures: 7, lockoutPending: false)])
    }

    @Test("a too short attempt is not a failure") func aTooShortAttemptIsNotAFailure() {
        var h = Harness()
        let effects = h.draw([1, 2, 3])
        #expect(effects.persisted.isEmpty)
        #expect(effects.verified.isEmpty)
        #expect(h.reports == [.tooShort(nodes: 3)])
        #expect(h.lastScene?.message == .tooShort(minimum: 4))
        // A new stroke may start at once.
        h.send(.touch(.down(h.grid.center(of: 0))))
        #expect(h.machine.phase == .drawing)
        h.send(.touch(.cancel(.deviceLost)))
        #expect(h.machine.phase == .ready)
    }

    @Test("too short feedback expires") func tooShortFeedbackExpires() {
        var h = Harness()
        h.draw([1, 2])
        h.fireTimer()
        #expect(h.machine.phase == .ready)
        #expect(h.lastScene?.message == .prompt)
    }

    @Test("a tap between nodes is nothing") func aTapBetweenNodesIsNothing() {
        var h = Harness()
        let between = Point(x: 10, y: 10)
        h.send(.touch(.down(between)))
        let effects = h.send(.touch(.up))
        // Only the stuck-touch timer armed by the touch is disarmed: no frame, no attempt.
        #expect(effects == [.disarmTimer])
        #expect(h.machine.phase == .ready)
    }

    @Test("cancel discards the stroke without counting it") func cancelDiscardsTheStrokeWithoutCountingIt() {
        var h = Harness()
        h.send(.touch(.down(h.grid.center(of: 0))))
        h.send(.touch(.move(h.grid.center(of: 1))))
        h.send(.touch(.move(h.grid.center(of: 2))))
        h.send(.touch(.move(h.grid.center(of: 5))))
        let effects = h.send(.touch(.cancel(.eventsDropped)))
        #expect(effects.persisted.isEmpty)
        #expect(h.reports == [.strokeCancelled(.eventsDropped)])
        #expect(h.lastScene?.nodes.allSatisfy { $0 == .idle } == true)
        // A release after the cancel is nothing.
        #expect(h.send(.touch(.up)).isEmpty)
    }

    @Test("a stuck touch is cancelled after its timeout") func aStuckTouchIsCancelledAfterItsTimeout() {
        var h = Harness()
        h.send(.touch(.down(h.grid.center(of: 0))))
        #expect(h.effects.deadlines == [h.now + .milliseconds(5000)])
        h.advance(.milliseconds(1000))
        h.send(.touch(.move(h.grid.center(of: 1))))
        #expect(h.effects.deadlines == [h.now + .milliseconds(5000)])
        h.fireTimer()
        #expect(h.reports == [.strokeCancelled(.stuckTouch)])
        #expect(h.machine.phase == .ready)
        #expect(h.effects.contains(.disarmTimer))
    }

    @Test("late and spurious timers are harmless") func lateAndSpuriousTimersAreHarmless() {
        var h = Harness()
        #expect(h.send(.timerFired).isEmpty)
        h.send(.touch(.down(h.grid.center(of: 0))))
        h.advance(.milliseconds(10))
        h.send(.timerFired)
        #expect(h.machine.phase == .drawing)
        // Results nobody asked for are ignored.
        #expect(h.send(.verified(patternName: "door")).isEmpty)
        #expect(h.send(.actionFinished).isEmpty)
    }

    @Test("hidden path shows nothing while drawing nor on failure") func hiddenPathShowsNothingWhileDrawingNorOnFailure() {
        var settings = LockSettings()
        settings.showPath = false
        var h = Harness(settings: settings)
        h.send(.touch(.down(h.grid.center(of: 0))))
        h.send(.touch(.move(h.grid.center(of: 1))))
        // Nothing on screen changed, so nothing is rendered at all.
        #expect(h.effects.isEmpty || h.lastScene == nil)
        h.send(.touch(.move(h.grid.center(of: 2))))
        h.send(.touch(.move(h.grid.center(of: 5))))
        h.send(.touch(.up))
        h.send(.verified(patternName: nil))
        let scene = h.lastScene!
        #expect(scene.message == .wrong(failures: 1, remaining: 4))
        #expect(scene.nodes.allSatisfy { $0 == .idle })
        #expect(scene.path.isEmpty && scene.finger == nil)
    }

    @Test("reconfigure cancels the stroke and keeps the count") func reconfigureCancelsTheStrokeAndKeepsTheCount() {
        var h = Harness(attempts: AttemptState(failures: 2))
        h.send(.touch(.down(h.grid.center(of: 0))))
        let newLayout = try! GridLayout(frame: Rect(x: 0, y: 0, width: 1280, height: 800))
        let effects = h.machine.reconfigure(layout: newLayout, settings: LockSettings(), at: h.now)
        #expect(effects.contains(.report(.strokeCancelled(.displayLost))))
        #expect(h.machine.phase == .ready)
        #expect(h.machine.attempts.failures == 2)
        #expect(effects.contains { if case .render(let s) = $0 { s.layout == newLayout } else { false } })
    }

    @Test("a reload that moves the grid cancels the stroke, saying the grid changed")
    func reloadMovingTheGridCancelsTheStroke() {
        var h = Harness()
        h.send(.touch(.down(h.grid.center(of: 0))))
        let denser = layout(4, 4)
        let effects = h.machine.reconfigure(layout: denser, settings: LockSettings(), at: h.now, reason: .gridChanged)
        #expect(effects.contains(.report(.strokeCancelled(.gridChanged))))
        #expect(h.machine.phase == .ready && h.machine.selectedNodeCount == 0)
    }

    @Test("a reload that keeps the grid keeps the stroke being drawn, which then checks as drawn")
    func reloadKeepingTheGridKeepsTheStroke() {
        var h = Harness()
        let points = samples(along: [1, 2, 3].map { h.grid.center(of: $0 - 1) }, spacing: 20)
        h.send(.touch(.down(points[0])))
        for p in points.dropFirst() { h.advance(.milliseconds(10)); h.send(.touch(.move(p))) }
        #expect(h.machine.phase == .drawing && h.machine.selectedNodeCount == 3)
        let effects = h.machine.reconfigure(layout: h.grid, settings: LockSettings(), at: h.now, reason: .gridChanged)
        #expect(!effects.contains { if case .report(.strokeCancelled) = $0 { true } else { false } })
        #expect(h.machine.phase == .drawing && h.machine.selectedNodeCount == 3)
        for node in [6, 9] { h.advance(.milliseconds(10)); h.send(.touch(.move(h.grid.center(of: node - 1)))) }
        let lifted = h.send(.touch(.up))
        #expect(lifted.contains(.verify(try! Pattern(nodes: [0, 1, 2, 5, 8], shape: h.grid.shape))))
    }
}

@Suite struct EnrollmentTests {
    @Test("draw confirm and save") func drawConfirmAndSave() {
        var h = Harness(mode: .enroll)
        #expect(h.lastScene?.message == .enrollDraw)
        h.draw([1, 2, 3, 6, 9])
        #expect(h.reports == [.enrollmentFirstDrawn(nodes: 5)])
        #expect(h.lastScene?.message == .enrollConfirm)
        h.draw([1, 2, 3, 6, 9])
        #expect(h.effects.contains(.enrolled(try! Pattern(text: "1-2-3-6-9", shape: .standard))))
        #expect(h.lastScene?.message == .enrollSaved)
        // Enrollment never counts failures or verifies anything.
        #expect(h.effects.persisted.isEmpty && h.effects.verified.isEmpty)
    }

    @Test("a mismatch starts over") func aMismatchStartsOver() {
        var h = Harness(mode: .enroll)
        h.draw([1, 2, 3, 6, 9])
        h.draw([1, 2, 3, 6])
        #expect(h.reports == [.enrollmentMismatch])
        #expect(h.lastScene?.message == .enrollMismatch)
        #expect(h.send(.touch(.down(h.grid.center(of: 0)))).isEmpty)
        h.fireTimer()
        #expect(h.machine.phase == .enrollFirst)
        #expect(h.lastScene?.message == .enrollDraw)
    }

    @Test("a too short drawing is refused with the message and the step is kept") func aTooShortDrawingIsRefusedWithTheMessageAndTheStepIsKept() {
        var h = Harness(mode: .enroll)
        h.draw([1, 2])
        #expect(h.reports == [.enrollmentTooShort(nodes: 2)])
        #expect(h.lastScene?.message == .tooShort(minimum: 4))
        h.fireTimer()
        #expect(h.machine.phase == .enrollFirst)
        h.draw([1, 2, 3, 6])
        h.draw([5])
        h.fireTimer()
        #expect(h.machine.phase == .enrollConfirm(first: [0, 1, 2, 5]))
    }
}

@Suite struct ClearFailuresTests {
    @Test("clearing during a lockout ends it at once") func clearingDuringALockoutEndsItAtOnce() {
        var h = Harness(attempts: AttemptState(failures: 5, lockoutPending: true))
        let effects = h.machine.clearFailures(at: h.now)
        #expect(h.machine.phase == .ready)
        #expect(h.machine.attempts == .clean)
        #expect(effects.contains(.report(.lockoutEnded)))
        #expect(effects.contains(.disarmTimer))
        #expect(effects.contains { if case .render(let s) = $0 { s.message == .prompt } else { false } })
    }

    /// Found by the touch-pipeline fuzz target (Tests/Fixtures/fuzz-regressions/touch-pipeline):
    /// a reset during the error display of the failure that locks out still locked out, with
    /// no failures counted, once the error display ended.
    @Test("clearing during the error before a lockout cancels the lockout") func clearingDuringTheErrorBeforeALockoutCancelsTheLockout() {
        var h = Harness(attempts: AttemptState(failures: 4))
        h.draw([1, 4, 7, 8])
        h.send(.verified(patternName: nil))
        #expect(h.machine.attempts == AttemptState(failures: 5, lockoutPending: true))
        h.advance(.milliseconds(500))
        _ = h.machine.clearFailures(at: h.now)
        h.fireTimer()
        #expect(h.machine.phase == .ready)
        #expect(h.reports.isEmpty)
        #expect(h.machine.attempts == .clean)
    }

    @Test("clearing while ready only resets the count") func clearingWhileReadyOnlyResetsTheCount() {
        var h = Harness(attempts: AttemptState(failures: 3))
        let effects = h.machine.clearFailures(at: h.now)
        #expect(effects.isEmpty)
        #expect(h.machine.attempts == .clean)
        // The next failure is the first again.
        #expect(h.draw([1, 4, 7, 8]).persisted == [AttemptState(failures: 1)])
    }
}
