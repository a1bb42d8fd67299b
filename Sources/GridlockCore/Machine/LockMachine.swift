/// The whole behaviour of the lock screen as a state machine: events in, effects out.
///
/// It never reads a clock, touches a file or draws: every event comes with the time it
/// happened, and everything to be done is returned as `LockEffect`s for the shell.
public struct LockMachine: Sendable {
    public enum Mode: Hashable, Sendable {
        case unlock
        case enroll
    }

    public enum Phase: Hashable, Sendable {
        /// Waiting for a stroke (the tracker may be following a finger that has not reached a node).
        case ready
        /// A finger is down and at least one node is selected.
        case drawing
        /// The pattern is being checked; input is ignored. `check` names the face that
        /// asked, nil for the panel's own finger.
        case verifying(nodes: [Int], check: CheckID?)
        /// The action runs; input is ignored until it ends and the success has been shown.
        case accepted(patternName: String, nodes: [Int], showUntil: Instant, actionRunning: Bool)
        /// The wrong pattern is shown in the error look; input is ignored. A lockout may follow.
        case rejected(nodes: [Int], until: Instant, lockoutAfter: Duration)
        /// The attempt could not be recorded, so it was not checked: said until `until`.
        case notRecorded(nodes: [Int], until: Instant)
        /// Too few nodes: shown in the error look until `until` or the next touch.
        case tooShort(nodes: [Int], until: Instant)
        /// No input until `until`.
        case lockedOut(until: Instant)
        /// Enrollment: waiting for the first drawing (or drawing it).
        case enrollFirst
        /// Enrollment: waiting for the confirming drawing.
        case enrollConfirm(first: [Int])
        /// Enrollment: the two drawings differed or one was too short; shown until `until`.
        case enrollRetry(nodes: [Int], until: Instant, message: Message, backToConfirm: [Int]?)
        /// Enrollment done.
        case enrolled(nodes: [Int])
    }

    public private(set) var settings: LockSettings
    public private(set) var mode: Mode
    public private(set) var phase: Phase
    public private(set) var attempts: AttemptState
    private var tracker: PatternTracker
    private var lastTouchAt: Instant?
    private var timer = ShellTimer()
    private var shownScene: Scene?

    public var layout: GridLayout { tracker.layout }

    /// Nodes the finger has selected in the stroke being drawn (0 between strokes).
    public var selectedNodeCount: Int { tracker.selected.count }

    /// When the lockout in force ends; nil while none is.
    public var lockoutEnds: Instant? {
        if case .lockedOut(let until) = phase { until } else { nil }
    }

    public init(layout: GridLayout, settings: LockSettings, mode: Mode = .unlock, attempts: AttemptState = .clean) {
        self.settings = settings
        self.mode = mode
        self.attempts = attempts
        self.tracker = PatternTracker(layout: layout)
        self.phase = mode == .enroll ? .enrollFirst : .ready
    }

    /// The first effects: the initial frame, and the restart of a lockout that was in force
    /// when the process stopped (in full: a power cycle never shortens a lockout).
    public mutating func start(at now: Instant) -> [LockEffect] {
        var effects: [LockEffect] = []
        if mode == .unlock, attempts.lockoutPending {
            let delay = settings.schedule.delay(afterFailures: attempts.failures)
            if delay > .zero {
                phase = .lockedOut(until: now + delay)
                effects.append(.report(.lockout(seconds: Int(delay.secondsRoundedUp), failures: attempts.failures)))
            } else {
                attempts.lockoutPending = false
                effects.append(.persist(attempts))
            }
        }
        finish(&effects, now: now)
        return effects
    }

    public mutating func handle(_ event: LockEvent, at now: Instant) -> [LockEffect] {
        var effects: [LockEffect] = []
        switch event {
        case .touch(let touch): handleTouch(touch, now: now, &effects)
        case .stroke(let nodes, let check): handleStroke(nodes, check: check, now: now, &effects)
        case .verified(let name): handleVerified(name, now: now, &effects)
        case .actionFinished: handleActionFinished(now: now, &effects)
        case .timerFired: handleTimer(now: now, &effects)
        case .persistFailed: handlePersistFailed(now: now, &effects)
        }
        finish(&effects, now: now, timerFired: event == .timerFired)
        return effects
    }

    /// A new display size or a reloaded config; the state is kept. A stroke being drawn is
    /// kept too unless the grid moved (`reason` says why it went): with the same layout the
    /// selected nodes still mean what the finger meant, so a reload that changed only the
    /// look, the timings or the patterns never costs the person at the panel their stroke.
    public mutating func reconfigure(
        layout: GridLayout, settings: LockSettings, at now: Instant, reason: CancelReason = .displayLost
    ) -> [LockEffect] {
        self.settings = settings
        var effects: [LockEffect] = []
        if layout != tracker.layout {
            if tracker.isTouching || phase == .drawing {
                effects.append(.report(.strokeCancelled(reason)))
            }
            tracker.relayout(layout)
            if phase == .drawing { phase = .ready }
        }
        shownScene = nil
        finish(&effects, now: now)
        return effects
    }

    /// An administrator reset the failure count (`gridlock reset-lockout`): a lockout in
    /// force ends now, and one about to start after an error display does not start.
    public mutating func clearFailures(at now: Instant) -> [LockEffect] {
        var effects: [LockEffect] = []
        attempts = .clean
        switch phase {
        case .lockedOut:
            phase = .ready
            effects.append(.report(.lockoutEnded))
        case .rejected(let nodes, let until, _):
            // The lockout that was to follow the error display is cancelled as well.
            phase = .rejected(nodes: nodes, until: until, lockoutAfter: .zero)
        default:
            break
        }
        finish(&effects, now: now)
        return effects
    }

    // MARK: - Touch

    private var acceptsTouch: Bool {
        switch phase {
        case .ready, .drawing, .tooShort, .enrollFirst, .enrollConfirm: true
        case .verifying, .accepted, .rejected, .notRecorded, .lockedOut, .enrollRetry, .enrolled: false
        }
    }

    private mutating func handleTouch(_ touch: TouchEvent, now: Instant, _ effects: inout [LockEffect]) {
        guard acceptsTouch else { return }
        switch touch {
        case .down(let point):
            if case .tooShort = phase { phase = .ready }
            lastTouchAt = now
            tracker.down(at: point)
            noteSelection()
        case .move(let point):
            guard tracker.isTouching else { return }
            lastTouchAt = now
            tracker.move(to: point)
            noteSelection()
        case .up:
            guard tracker.isTouching else { return }
            lastTouchAt = nil
            let nodes = tracker.up()
            if phase == .drawing { phase = .ready }
            guard !nodes.isEmpty else { return }
            strokeEnded(nodes, check: nil, now: now, &effects)
        case .cancel(let reason):
            guard tracker.isTouching else { return }
            lastTouchAt = nil
            tracker.cancel()
            if phase == .drawing { phase = .ready }
            effects.append(.report(.strokeCancelled(reason)))
        }
    }

    /// Whether a stroke from another face is checked now: the one judge of it, for a check
    /// (`handleStroke`) and for a face's `status` alike. The panel's finger goes first:
    /// while it is down, the panel's own stroke is the one that will be checked.
    public func strokeAdmission(at now: Instant) -> StrokeAdmission {
        guard mode == .unlock, !tracker.isTouching else { return .busy }
        switch phase {
        case .ready, .tooShort: return .ready
        case .lockedOut(let until): return .lockedOut(seconds: max(1, Int(until.duration(since: now).secondsRoundedUp)))
        default: return .busy
        }
    }

    /// The same way to a check as a lifted finger: counted, persisted, verified, or too
    /// short. Every way out answers `check`, now or when its verification ends.
    private mutating func handleStroke(_ nodes: [Int], check: CheckID, now: Instant, _ effects: inout [LockEffect]) {
        switch strokeAdmission(at: now) {
        case .busy:
            effects.append(.answer(check, .busy))
        case .lockedOut(let seconds):
            effects.append(.answer(check, .lockedOut(seconds: seconds)))
        case .ready:
            guard !nodes.isEmpty, (try? Pattern(nodes: nodes, shape: layout.shape)) != nil else {
                effects.append(.answer(check, .notOnGrid))
                return
            }
            if case .tooShort = phase { phase = .ready }
            strokeEnded(nodes, check: check, now: now, &effects)
        }
    }

    private mutating func noteSelection() {
        if mode == .unlock, phase == .ready, !tracker.selected.isEmpty { phase = .drawing }
    }

    /// `check` names the face whose stroke it is (nil: the panel's); only `.unlock` takes one.
    private mutating func strokeEnded(_ nodes: [Int], check: CheckID?, now: Instant, _ effects: inout [LockEffect]) {
        let tooShort = nodes.count < settings.minimumNodes
        switch (mode, phase) {
        case (.unlock, _):
            if tooShort {
                phase = .tooShort(nodes: nodes, until: now + settings.errorDuration)
                effects.append(.report(.tooShort(nodes: nodes.count)))
                if let check { effects.append(.answer(check, .tooShort)) }
                return
            }
            // Counted before the check starts: killing the process mid-check grants nothing.
            attempts.countFailure()
            effects.append(.persist(attempts))
            phase = .verifying(nodes: nodes, check: check)
            effects.append(.verify(pattern(nodes)))
        case (.enroll, .enrollFirst):
            if tooShort {
                retry(nodes, message: .tooShort(minimum: settings.minimumNodes), backToConfirm: nil, now: now)
                effects.append(.report(.enrollmentTooShort(nodes: nodes.count)))
            } else {
                phase = .enrollConfirm(first: nodes)
                effects.append(.report(.enrollmentFirstDrawn(nodes: nodes.count)))
            }
        case (.enroll, .enrollConfirm(let first)):
            if tooShort {
                retry(nodes, message: .tooShort(minimum: settings.minimumNodes), backToConfirm: first, now: now)
                effects.append(.report(.enrollmentTooShort(nodes: nodes.count)))
            } else if nodes != first {
                retry(nodes, message: .enrollMismatch, backToConfirm: nil, now: now)
                effects.append(.report(.enrollmentMismatch))
            } else {
                phase = .enrolled(nodes: nodes)
                effects.append(.report(.enrollmentConfirmed(nodes: nodes.count)))
                effects.append(.enrolled(pattern(nodes)))
            }
        case (.enroll, _):
            break
        }
    }

    private mutating func retry(_ nodes: [Int], message: Message, backToConfirm: [Int]?, now: Instant) {
        phase = .enrollRetry(nodes: nodes, until: now + settings.errorDuration, message: message, backToConfirm: backToConfirm)
    }

    private func pattern(_ nodes: [Int]) -> Pattern {
        // The tracker only ever selects distinct nodes of its own grid.
        try! Pattern(nodes: nodes, shape: layout.shape)
    }

    // MARK: - Verification, action, timer

    private mutating func handleVerified(_ name: String?, now: Instant, _ effects: inout [LockEffect]) {
        guard case .verifying(let nodes, let check) = phase else { return }
        if let name {
            attempts = .clean
            effects.append(.persist(attempts))
            phase = .accepted(patternName: name, nodes: nodes, showUntil: now + settings.successDuration, actionRunning: true)
            effects.append(.report(.accepted(patternName: name, nodes: nodes.count)))
            if let check { effects.append(.answer(check, .accepted)) }
            effects.append(.runAction(patternName: name))
        } else {
            let delay = settings.schedule.delay(afterFailures: attempts.failures)
            if delay > .zero {
                // Persisted now, so a power cut during the error display still locks out.
                attempts.lockoutPending = true
                effects.append(.persist(attempts))
            }
            phase = .rejected(nodes: nodes, until: now + settings.errorDuration, lockoutAfter: delay)
            effects.append(.report(.rejected(nodes: nodes.count, failures: attempts.failures)))
            if let check {
                let remaining = settings.schedule.failuresBeforeLockout(after: attempts.failures)
                effects.append(.answer(check, .rejected(failures: attempts.failures, remainingBeforeLockout: remaining)))
            }
        }
    }

    /// Fail closed: the count is kept in memory (it still locks out), but nothing is
    /// checked while the disk cannot remember it: a restart would forget the failure.
    private mutating func handlePersistFailed(now: Instant, _ effects: inout [LockEffect]) {
        guard case .verifying(let nodes, let check) = phase else { return }
        phase = .notRecorded(nodes: nodes, until: now + settings.errorDuration)
        effects.append(.report(.notRecorded(nodes: nodes.count)))
        if let check { effects.append(.answer(check, .notRecorded)) }
    }

    private mutating func handleActionFinished(now: Instant, _ effects: inout [LockEffect]) {
        guard case .accepted(let name, let nodes, let showUntil, true) = phase else { return }
        phase = .accepted(patternName: name, nodes: nodes, showUntil: showUntil, actionRunning: false)
        if now >= showUntil { phase = .ready }
    }

    private mutating func handleTimer(now: Instant, _ effects: inout [LockEffect]) {
        if let lastTouchAt, let timeout = settings.stuckTouchTimeout, tracker.isTouching, now >= lastTouchAt + timeout {
            self.lastTouchAt = nil
            tracker.cancel()
            if phase == .drawing { phase = .ready }
            effects.append(.report(.strokeCancelled(.stuckTouch)))
        }
        switch phase {
        case .accepted(_, _, let showUntil, false) where now >= showUntil:
            phase = .ready
        case .rejected(_, let until, let lockout) where now >= until:
            if lockout > .zero {
                phase = .lockedOut(until: now + lockout)
                effects.append(.report(.lockout(seconds: Int(lockout.secondsRoundedUp), failures: attempts.failures)))
            } else {
                phase = .ready
            }
        case .tooShort(_, let until) where now >= until:
            phase = .ready
        case .notRecorded(_, let until) where now >= until:
            phase = .ready
        case .lockedOut(let until) where now >= until:
            attempts.lockoutPending = false
            effects.append(.persist(attempts))
            effects.append(.report(.lockoutEnded))
            phase = .ready
        case .enrollRetry(_, let until, _, let backToConfirm) where now >= until:
            phase = backToConfirm.map { .enrollConfirm(first: $0) } ?? .enrollFirst
        default:
            break
        }
    }

    // MARK: - Timer and scene

    /// The next instant at which something changes without input.
    private func nextDeadline(now: Instant) -> Instant? {
        var deadline: Instant?
        switch phase {
        case .accepted(_, _, let showUntil, false): deadline = showUntil
        case .rejected(_, let until, _), .tooShort(_, let until), .notRecorded(_, let until),
             .enrollRetry(_, let until, _, _):
            deadline = until
        case .lockedOut(let until):
            deadline = until.nextCountdownChange(from: now)
        default: break
        }
        if let lastTouchAt, let timeout = settings.stuckTouchTimeout, tracker.isTouching {
            let stuck = lastTouchAt + timeout
            deadline = deadline.map { min($0, stuck) } ?? stuck
        }
        return deadline
    }

    private mutating func finish(_ effects: inout [LockEffect], now: Instant, timerFired: Bool = false) {
        // Re-evaluate expired deadlines (e.g. the action ended after the success display time).
        if case .accepted(_, _, let showUntil, false) = phase, now >= showUntil { phase = .ready }

        let scene = self.scene(now: now)
        if scene != shownScene {
            shownScene = scene
            effects.append(.render(scene))
        }
        switch timer.change(to: nextDeadline(now: now), now: now, timerFired: timerFired) {
        case .arm(let deadline): effects.append(.armTimer(deadline))
        case .disarm: effects.append(.disarmTimer)
        case nil: break
        }
    }

    /// What the screen shows now.
    public func scene(now: Instant) -> Scene {
        var scene = Scene(layout: layout, message: mode == .enroll ? .enrollDraw : .prompt)
        func show(_ nodes: [Int], look: NodeLook, finger: Point? = nil) {
            scene.show(nodes, look: look, finger: finger, pathShown: settings.showPath)
        }
        switch phase {
        case .ready, .drawing, .enrollFirst:
            show(tracker.selected, look: .selected, finger: tracker.finger)
        case .enrollConfirm:
            scene.message = .enrollConfirm
            show(tracker.selected, look: .selected, finger: tracker.finger)
        case .verifying(let nodes, _):
            scene.message = .verifying
            show(nodes, look: .selected)
        case .accepted(_, let nodes, _, _):
            scene.message = .success
            show(nodes, look: .success)
        case .rejected(let nodes, _, _):
            scene.message = .wrong(
                failures: attempts.failures, remaining: settings.schedule.failuresBeforeLockout(after: attempts.failures))
            show(nodes, look: .error)
        case .tooShort(let nodes, _):
            scene.message = .tooShort(minimum: settings.minimumNodes)
            show(nodes, look: .error)
        case .notRecorded(let nodes, _):
            scene.message = .cannotRecord
            show(nodes, look: .error)
        case .lockedOut(let until):
            scene.message = .lockedOut(seconds: Int(until.duration(since: now).secondsRoundedUp))
        case .enrollRetry(let nodes, _, let message, _):
            scene.message = message
            show(nodes, look: .error)
        case .enrolled(let nodes):
            scene.message = .enrollSaved
            show(nodes, look: .success)
        }
        return scene
    }
}
