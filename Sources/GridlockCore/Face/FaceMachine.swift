/// The behaviour of a lock face in a user's session (`gridlock-lock`), as a state machine:
/// events in, effects out, like `LockMachine`, whose look it shares.
///
/// A face decides nothing about patterns. It tracks the finger, sends each finished stroke
/// to gridlockd over the session socket and shows what gridlockd answers: the failure
/// count, the lockout and its seconds all come from the verifier, never from the face, so a
/// face that is killed, restarted or replaced by a hostile program changes none of them.
/// The one thing it decides alone is when to ask the compositor to unlock: after, and only
/// after, gridlockd answered `accepted` to a check it sent.
///
/// It never reads a clock, touches a socket or draws: every event comes with its time.
public struct FaceMachine: Sendable {
    public enum Phase: Hashable, Sendable {
        /// No connection to gridlockd, or it did not answer: nothing can be checked, and the
        /// screen says so. The session stays locked.
        case waitingForService
        /// Connected (or locked again) and asked for gridlockd's status at `since`: the grid
        /// is shown as ready but takes no stroke until the answer, for at most
        /// `FaceSettings.answerPatience`. Saying "not running" in the instant before an
        /// answer that is on its way would be false on every start and every relock.
        case asking(since: Instant)
        /// Waiting for a stroke (the tracker may follow a finger that has not reached a node).
        case ready
        /// A finger is down and at least one node is selected.
        case drawing
        /// The stroke was sent; input is ignored until gridlockd answers.
        case checking(nodes: [Int])
        /// gridlockd refused the stroke: shown in the error look until `until`.
        case rejected(nodes: [Int], failures: Int, remaining: Int?, until: Instant)
        /// The refusal was the one that starts a lockout (no tries remained): still shown,
        /// while a `status` asks gridlockd how long it is.
        case awaitingLockout(nodes: [Int], failures: Int)
        /// Fewer nodes than gridlockd's `min-nodes`: not sent, shown until `until` or the next touch.
        case tooShort(nodes: [Int], until: Instant)
        /// gridlockd did not check it (busy, or the failure could not be recorded): said until `until`.
        case notChecked(nodes: [Int], reason: NotCheckedReason, until: Instant)
        /// gridlockd is locked out: no input until `until`.
        case lockedOut(until: Instant)
        /// gridlockd accepted: the success look until `until`, then the session is unlocked.
        case accepted(nodes: [Int], until: Instant)
        /// An action of gridlockd's holds the panel (`[action] mode=handover`): the face that
        /// holds the panel's devices (`FaceSettings.holdsPanel`) has let them go and watches
        /// for gridlockd's `panelMode(.lock)`.
        case handedOver
        /// `gridlock enroll` asked for a new pattern (`panelMode(.enrolling)`, only to the
        /// face that holds the panel): the first drawing.
        case enrollFirst
        /// The second drawing, which must repeat `first`.
        case enrollConfirm(first: [Int])
        /// A drawing refused (too short, or not the first one again): shown until `until`,
        /// then the first drawing again, or the second (`backToConfirm`).
        case enrollRetry(nodes: [Int], until: Instant, message: Message, backToConfirm: [Int]?)
        /// Both drawings agreed and were sent (`enrolled`): shown until gridlockd gives the
        /// panel back to the lock.
        case enrollSent(nodes: [Int])
        /// `gridlock calibrate` asked for the crosses (`panelMode(.calibrating)`, only to the
        /// face that holds the panel): `taps` of `CalibrationTaps.targets` read so far, each
        /// normalised to the surface it landed on, in the logical frame.
        case calibrating(taps: [Point])
        /// Every cross tapped and the taps sent (`calibrated`): nothing shown until gridlockd
        /// gives the panel back to the lock.
        case calibrationSent
        /// The session is unlocked; the face waits to lock it again.
        case unlocked
    }

    public enum Event: Hashable, Sendable {
        /// A step of the primary finger (or the mouse with its left button), on the lock
        /// surface whose grid is `layout`.
        case touch(TouchEvent, layout: GridLayout)
        /// A reply from gridlockd: the answer to the check in flight, or to a `status` (sent
        /// by the shell on every connect and by the machine on every relock).
        case reply(SessionReply)
        /// The connection to gridlockd went away (or could not be made).
        case serviceLost
        /// The timer armed by `.armTimer` fired.
        case timerFired
        /// The session was locked again (idle, `gridlock-lock --now`, a signal): draw the grid.
        case relocked
        /// A connection to gridlockd was made (at start or again after a loss).
        case connected
    }

    public enum Effect: Hashable, Sendable {
        /// Something on screen changed: draw `scene(on:now:)` on every lock surface.
        case redraw
        case send(SessionRequest)
        /// Ask the compositor to unlock the session (`unlock_and_destroy`).
        case unlockSession
        case armTimer(Instant)
        case disarmTimer
        case report(FaceReport)
        /// Let the panel's display and touchscreen go (false), for an action of gridlockd's,
        /// or take them back (true). Only with `FaceSettings.holdsPanel`.
        case holdPanel(Bool)
        /// Read touches through the touchscreen's calibration (true), or set it aside (false)
        /// while calibrating, so that a tap says where the device itself put the finger.
        case calibrateTouch(Bool)
    }

    public private(set) var phase: Phase = .waitingForService
    public private(set) var settings: FaceSettings
    /// gridlockd's grid and `min-nodes`, from its last `status`.
    public private(set) var shape: GridShape
    public private(set) var minimumNodes: Int
    private var tracker: PatternTracker?
    /// Where the finger is while calibrating (its last position), nil while none is down.
    private var calibrationFinger: Point?
    /// When the finger last said anything, for `stuckTouchTimeout`.
    private var lastTouchAt: Instant?
    private var timer = ShellTimer()
    private var shown: Phase?

    public init(settings: FaceSettings, shape: GridShape = .standard, minimumNodes: Int = 4) {
        self.settings = settings
        self.shape = shape
        self.minimumNodes = minimumNodes
    }

    /// A reloaded face file: durations and the path's visibility apply from the next look;
    /// the phase, the stroke under way and gridlockd's grid stay.
    public mutating func reconfigure(_ settings: FaceSettings) {
        self.settings = settings
    }

    /// Whether the session must be locked now: everything but `unlocked`. A face asks the
    /// compositor to unlock only on its `.unlockSession` effect.
    public var keepsSessionLocked: Bool { phase != .unlocked }

    public mutating func handle(_ event: Event, at now: Instant) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .touch(let touch, let layout): handleTouch(touch, layout: layout, now: now, &effects)
        case .reply(let reply): handleReply(reply, now: now, &effects)
        case .serviceLost: handleServiceLost(&effects)
        case .timerFired: handleTimer(now: now, &effects)
        case .relocked: handleRelocked(now: now, &effects)
        case .connected: handleConnected(now: now, &effects)
        }
        finish(&effects, now: now, timerFired: event == .timerFired)
        return effects
    }

    // MARK: - The service

    private mutating func handleStatus(_ status: SessionStatus, now: Instant, _ effects: inout [Effect]) {
        if let shape = try? GridShape(rows: status.rows, columns: status.columns), shape != self.shape {
            self.shape = shape
            tracker = nil
        }
        minimumNodes = status.minimumNodes
        let wasWaiting: Bool
        switch phase {
        case .waitingForService, .asking: wasWaiting = true
        case .awaitingLockout: wasWaiting = false
        default: return
        }
        switch status.state {
        case .ready, .notChecking:
            // A busy gridlockd (a finger on the panel, a check from elsewhere) answers the
            // stroke with `busy` when it comes; the face does not wait for it to be free.
            phase = .ready
        case .lockedOut(let seconds):
            phase = .lockedOut(until: now + .seconds(Int64(seconds)))
            if !wasWaiting { effects.append(.report(.lockedOut(seconds: seconds))) }
        case .handedOver:
            // A check now is answered busy, as any; the panel's face lets the panel go when
            // its watch is answered (`panelMode`), not on a status it may have asked earlier.
            phase = .ready
        }
        if wasWaiting { effects.append(.report(.serviceAvailable)) }
    }

    private mutating func handleServiceLost(_ effects: inout [Effect]) {
        switch phase {
        case .waitingForService, .unlocked:
            return
        case .handedOver:
            // Nobody will say when the action is done: the face takes the panel back to say
            // that nothing can be checked (an action of a gridlockd gone ends with it).
            phase = .waitingForService
            effects.append(.holdPanel(true))
            effects.append(.report(.serviceLost))
            return
        case .asking:
            phase = .waitingForService
            effects.append(.report(.serviceLost))
            return
        case .calibrating, .calibrationSent:
            // Nobody will take the taps: the touchscreen's calibration applies again.
            calibrationFinger = nil
            phase = .waitingForService
            effects.append(.calibrateTouch(true))
            effects.append(.report(.calibrationEnded))
            effects.append(.report(.serviceLost))
            return
        case .accepted:
            // gridlockd's verdict is in and its action runs: the unlock it granted stands.
            effects.append(.report(.serviceLost))
            return
        default:
            break
        }
        // A check in flight is not answered now: gridlockd counted it (or never got it),
        // and the next status says where the count stands.
        tracker?.cancel()
        phase = .waitingForService
        effects.append(.report(.serviceLost))
    }

    private mutating func handleReply(_ reply: SessionReply, now: Instant, _ effects: inout [Effect]) {
        if case .panelMode(let mode) = reply { return handlePanelMode(mode, now: now, &effects) }
        if case .lockChanged(let status) = reply { return handleLockChanged(status, now: now, &effects) }
        guard case .checking(let nodes) = phase else {
            // A status answered, or a reply to nothing: only a check's answer moves the face.
            if case .status(let status) = reply { handleStatus(status, now: now, &effects) }
            return
        }
        switch reply {
        case .accepted:
            phase = .accepted(nodes: nodes, until: now + settings.successDuration)
            effects.append(.report(.accepted))
            if settings.successDuration == .zero { unlock(&effects) }
        case .rejected(let failures, let remaining):
            phase = .rejected(nodes: nodes, failures: failures, remaining: remaining, until: now + settings.errorDuration)
            effects.append(.report(.rejected(failures: failures)))
        case .lockedOut(let seconds):
            phase = .lockedOut(until: now + .seconds(Int64(seconds)))
            effects.append(.report(.lockedOut(seconds: seconds)))
        case .notChecked(let reason):
            switch reason {
            case .busy, .notRecorded, .tooShort, .noPanelFace:
                phase = .notChecked(nodes: nodes, reason: reason, until: now + settings.errorDuration)
                effects.append(.report(.notChecked(reason)))
            case .stopping, .refusedPeer, .unsupportedVersion, .malformed, .overloaded:
                // The server closes the connection after these: nothing can be checked.
                phase = .waitingForService
                effects.append(.report(.notChecked(reason)))
            }
        case .noted, .panelMode, .lockChanged, .enrollment, .calibration:
            // A report's acknowledgement, the panel's mode or the lock's news (an enrolment's
            // nodes go to `gridlock enroll`, never to a face), never a check's answer: the
            // answer is still to come.
            return
        case .status(let status):
            // A status where a check's answer belongs: the check is lost, not granted.
            phase = .waitingForService
            effects.append(.report(.serviceLost))
            handleStatus(status, now: now, &effects)
        }
    }

    /// gridlockd's answer to the face's watch: the panel handed over to an action (let the
    /// devices go, and say so by watching for its return: gridlockd starts the action once
    /// every face that held the panel has), lent to `gridlock enroll` (collect a pattern,
    /// drawn twice), or back to the lock (take the devices back, ask where gridlockd
    /// stands). In any phase: the handover follows an `accepted` at once.
    private mutating func handlePanelMode(_ mode: PanelMode, now: Instant, _ effects: inout [Effect]) {
        guard settings.holdsPanel else { return }
        switch mode {
        case .handedOver:
            guard phase != .handedOver else { return }
            tracker?.cancel()
            phase = .handedOver
            effects.append(.holdPanel(false))
            effects.append(.report(.panelHandedOver))
        case .enrolling:
            guard !isEnrolling else { return }
            tracker?.cancel()
            phase = .enrollFirst
            effects.append(.report(.enrollmentStarted))
        case .calibrating:
            guard !isCalibrating else { return }
            tracker?.cancel()
            calibrationFinger = nil
            phase = .calibrating(taps: [])
            effects.append(.calibrateTouch(false))
            effects.append(.report(.calibrationStarted))
        case .lock:
            if phase == .handedOver {
                effects.append(.holdPanel(true))
                effects.append(.report(.panelBack))
            } else if isEnrolling {
                tracker?.cancel()
                effects.append(.report(.enrollmentEnded))
            } else if isCalibrating {
                calibrationFinger = nil
                effects.append(.calibrateTouch(true))
                effects.append(.report(.calibrationEnded))
            } else {
                return
            }
            phase = .asking(since: now)
            effects.append(.send(.status))
        }
        effects.append(.send(.watchPanel(mode)))
    }

    /// Whether the panel is lent to `gridlock enroll`.
    private var isEnrolling: Bool {
        switch phase {
        case .enrollFirst, .enrollConfirm, .enrollRetry, .enrollSent: true
        default: false
        }
    }

    /// Whether the panel is lent to `gridlock calibrate`.
    private var isCalibrating: Bool {
        switch phase {
        case .calibrating, .calibrationSent: true
        default: false
        }
    }

    /// A touch while calibrating: where the finger lifts is its tap on the cross shown (a
    /// cancelled contact taps nothing); the last cross's tap sends them all.
    private mutating func calibrationTouch(_ touch: TouchEvent, layout: GridLayout, _ effects: inout [Effect]) {
        guard case .calibrating(var taps) = phase else { return }
        switch touch {
        case .down(let point), .move(let point):
            calibrationFinger = point
        case .cancel:
            calibrationFinger = nil
        case .up:
            guard let point = calibrationFinger else { return }
            calibrationFinger = nil
            let frame = layout.frame
            taps.append(Point(x: (point.x - frame.x) / frame.width, y: (point.y - frame.y) / frame.height))
            effects.append(.report(.calibrationTapped(step: taps.count, of: CalibrationTaps.targets.count)))
            guard taps.count == CalibrationTaps.targets.count else {
                phase = .calibrating(taps: taps)
                return
            }
            phase = .calibrationSent
            let rotation = settings.panelRotation
            effects.append(.send(.calibrated(CalibrationTaps(
                rotation: rotation, width: Int(frame.width.rounded()), height: Int(frame.height.rounded()),
                touches: taps.map { rotation.physical(fromLogical: $0) }))))
        }
    }

    /// A finished drawing while enrolling: too short, or not the first one again, is shown
    /// and drawn anew; the first asks for the second; the second, the same, is sent.
    private mutating func enrollmentDrawn(_ nodes: [Int], now: Instant, _ effects: inout [Effect]) {
        let first: [Int]? = if case .enrollConfirm(let first) = phase { first } else { nil }
        if nodes.count < minimumNodes {
            phase = .enrollRetry(nodes: nodes, until: now + settings.errorDuration, message: .tooShort(minimum: minimumNodes),
                                 backToConfirm: first)
            effects.append(.report(.enrollmentTooShort(nodes: nodes.count)))
        } else if let first, nodes != first {
            phase = .enrollRetry(nodes: nodes, until: now + settings.errorDuration, message: .enrollMismatch, backToConfirm: nil)
            effects.append(.report(.enrollmentMismatch))
        } else if first == nil {
            phase = .enrollConfirm(first: nodes)
            effects.append(.report(.enrollmentFirstDrawn(nodes: nodes.count)))
        } else {
            phase = .enrollSent(nodes: nodes)
            effects.append(.send(.enrolled(nodes: nodes)))
            effects.append(.report(.enrollmentSent(nodes: nodes.count)))
        }
    }

    /// gridlockd's answer to the face's lock watch: the lock changed in a way no countdown
    /// foresaw. Its grid is taken at once (a stroke on the old one is dropped, its nodes
    /// would be others); a lockout begun elsewhere stops the grid that waits for a finger;
    /// one ended early (`gridlock reset-lockout`) frees it. A stroke being drawn, a check in
    /// flight or a verdict on show finishes first: its answer, or the `status` the face asks
    /// after it, says the rest.
    private mutating func handleLockChanged(_ status: SessionStatus, now: Instant, _ effects: inout [Effect]) {
        defer { effects.append(.send(.watchLock)) }
        if let shape = try? GridShape(rows: status.rows, columns: status.columns), shape != self.shape {
            self.shape = shape
            if tracker?.isTouching == true { effects.append(.report(.strokeCancelled(.gridChanged))) }
            tracker = nil
            if phase == .drawing { phase = .ready }
        }
        minimumNodes = status.minimumNodes
        switch phase {
        case .waitingForService, .asking, .awaitingLockout:
            handleStatus(status, now: now, &effects)
        case .ready, .tooShort, .notChecked:
            guard case .lockedOut(let seconds) = status.state else { return }
            phase = .lockedOut(until: now + .seconds(Int64(seconds)))
            effects.append(.report(.lockedOut(seconds: seconds)))
        case .lockedOut:
            if case .lockedOut(let seconds) = status.state {
                phase = .lockedOut(until: now + .seconds(Int64(seconds)))
            } else {
                phase = .ready
                effects.append(.report(.lockoutEnded))
            }
        case .drawing, .checking, .rejected, .accepted, .unlocked, .handedOver, .enrollFirst, .enrollConfirm, .enrollRetry,
             .enrollSent, .calibrating, .calibrationSent:
            break
        }
    }

    private mutating func unlock(_ effects: inout [Effect]) {
        phase = .unlocked
        effects.append(.unlockSession)
    }

    /// Locked again: nothing is checked before gridlockd answers a fresh `status`, so a
    /// face that lost gridlockd while unlocked never offers a grid it cannot check.
    private mutating func handleRelocked(now: Instant, _ effects: inout [Effect]) {
        guard phase == .unlocked else { return }
        phase = .asking(since: now)
        effects.append(.report(.relocked))
        effects.append(.send(.status))
    }

    /// Every new connection asks where gridlockd stands; a face that was waiting for it
    /// shows the grid while the answer comes.
    private mutating func handleConnected(now: Instant, _ effects: inout [Effect]) {
        if phase == .waitingForService { phase = .asking(since: now) }
        effects.append(.send(.status))
        // Every face hears of a lockout ended early or a new grid as it happens (a gridlockd
        // of version 1 to 3 is never sent the watch: such news waits for the next status).
        effects.append(.send(.watchLock))
        // The panel's face watches whose the panel is for as long as it is connected (a
        // gridlockd of version 1 or 2 is never sent the watch, and hands nothing over).
        if settings.holdsPanel { effects.append(.send(.watchPanel(.lock))) }
    }

    // MARK: - Touch

    private var acceptsTouch: Bool {
        switch phase {
        case .ready, .drawing, .tooShort, .notChecked, .enrollFirst, .enrollConfirm, .calibrating: true
        case .waitingForService, .asking, .checking, .rejected, .awaitingLockout, .lockedOut, .accepted, .unlocked, .handedOver,
             .enrollRetry, .enrollSent, .calibrationSent: false
        }
    }

    private mutating func handleTouch(_ touch: TouchEvent, layout: GridLayout, now: Instant, _ effects: inout [Effect]) {
        if isCalibrating { return calibrationTouch(touch, layout: layout, &effects) }
        guard acceptsTouch, layout.shape == shape else { return }
        lastTouchAt = now
        switch touch {
        case .down(let point):
            switch phase {
            case .tooShort, .notChecked: phase = .ready
            default: break
            }
            // A stroke belongs to the surface it starts on; another output's grid is another layout.
            if tracker?.layout != layout { tracker = PatternTracker(layout: layout) }
            tracker?.down(at: point)
            noteSelection()
        case .move(let point):
            guard tracker?.layout == layout, tracker?.isTouching == true else { return }
            tracker?.move(to: point)
            noteSelection()
        case .up:
            guard let nodes = tracker?.isTouching == true ? tracker?.up() : nil else { return }
            if phase == .drawing { phase = .ready }
            guard !nodes.isEmpty else { return }
            if isEnrolling { return enrollmentDrawn(nodes, now: now, &effects) }
            if nodes.count < minimumNodes {
                phase = .tooShort(nodes: nodes, until: now + settings.errorDuration)
                effects.append(.report(.tooShort(nodes: nodes.count)))
            } else {
                phase = .checking(nodes: nodes)
                effects.append(.send(.check(nodes: nodes)))
            }
        case .cancel(let reason):
            guard tracker?.isTouching == true else { return }
            tracker?.cancel()
            if phase == .drawing { phase = .ready }
            effects.append(.report(.strokeCancelled(reason)))
        }
    }

    private mutating func noteSelection() {
        if phase == .ready, tracker?.selected.isEmpty == false { phase = .drawing }
    }

    // MARK: - Timer and scene

    private mutating func handleTimer(now: Instant, _ effects: inout [Effect]) {
        if let stuck = stuckDeadline, now >= stuck {
            // The controller holds a contact that says nothing: the stroke is dropped, never
            // checked, and the face's owner tells gridlockd (tamper), as its own face would.
            tracker?.cancel()
            if phase == .drawing { phase = .ready }
            effects.append(.report(.strokeCancelled(.stuckTouch)))
        }
        switch phase {
        case .rejected(let nodes, let failures, 0, let until) where now >= until:
            // Offering the grid now would only earn a `lockedOut` for the next stroke.
            phase = .awaitingLockout(nodes: nodes, failures: failures)
            effects.append(.send(.status))
        case .rejected(_, _, _, let until) where now >= until:
            phase = .ready
        case .tooShort(_, let until) where now >= until, .notChecked(_, _, let until) where now >= until:
            phase = .ready
        case .lockedOut(let until) where now >= until:
            phase = .ready
            effects.append(.report(.lockoutEnded))
        case .accepted(_, let until) where now >= until:
            unlock(&effects)
        case .enrollRetry(_, let until, _, let backToConfirm) where now >= until:
            phase = backToConfirm.map { .enrollConfirm(first: $0) } ?? .enrollFirst
        case .asking(let since) where now >= since + settings.answerPatience:
            phase = .waitingForService
            effects.append(.report(.serviceSilent))
        default:
            break
        }
    }

    /// When a contact held with no event becomes stuck; nil while no finger is down.
    private var stuckDeadline: Instant? {
        guard tracker?.isTouching == true, let lastTouchAt, let timeout = settings.stuckTouchTimeout else { return nil }
        return lastTouchAt + timeout
    }

    private func nextDeadline(now: Instant) -> Instant? {
        let phaseDeadline = phaseDeadline(now: now)
        guard let stuck = stuckDeadline else { return phaseDeadline }
        return phaseDeadline.map { min($0, stuck) } ?? stuck
    }

    private func phaseDeadline(now: Instant) -> Instant? {
        switch phase {
        case .rejected(_, _, _, let until), .tooShort(_, let until), .notChecked(_, _, let until), .accepted(_, let until),
             .enrollRetry(_, let until, _, _):
            return until
        case .lockedOut(let until):
            return until.nextCountdownChange(from: now)
        case .asking(let since):
            return since + settings.answerPatience
        case .waitingForService, .ready, .drawing, .checking, .awaitingLockout, .unlocked, .handedOver, .enrollFirst,
             .enrollConfirm, .enrollSent, .calibrating, .calibrationSent:
            return nil
        }
    }

    private mutating func finish(_ effects: inout [Effect], now: Instant, timerFired: Bool) {
        switch timer.change(to: nextDeadline(now: now), now: now, timerFired: timerFired) {
        case .arm(let deadline): effects.append(.armTimer(deadline))
        case .disarm: effects.append(.disarmTimer)
        case nil: break
        }
        // The countdown changes the picture without a phase change; redraw on every tick.
        if phase != shown || timerFired || effects.contains(where: { if case .report = $0 { true } else { false } })
            || isTracking {
            shown = phase
            effects.append(.redraw)
        }
    }

    /// Nodes the finger has selected so far in the stroke being drawn (the beeper ticks each).
    public var selectedNodeCount: Int { tracker?.isTouching == true ? tracker?.selected.count ?? 0 : 0 }

    private var isTracking: Bool { phase == .drawing || tracker?.isTouching == true }

    /// The stroke being drawn, on the surface it is drawn on (with the finger's segment) or
    /// another (without).
    private func showTracked(on layout: GridLayout, in scene: inout Scene) {
        guard let tracker else { return }
        scene.show(tracker.selected, look: .selected, finger: tracker.layout == layout ? tracker.finger : nil,
                   pathShown: settings.showPath)
    }

    /// What a lock surface whose grid is `layout` shows now. The finger's segment is drawn
    /// only on the surface the stroke is drawn on; the nodes and the path on every one.
    public func scene(on layout: GridLayout, now: Instant) -> Scene {
        var scene = Scene(layout: layout, message: .prompt)
        switch phase {
        case .calibrating(let taps):
            // The crosses stand where `gridlock calibrate` fits them, whatever the grid.
            let target = CalibrationTaps.targets[taps.count]
            scene.message = .calibrate(step: taps.count + 1, count: CalibrationTaps.targets.count)
            scene.target = Point(x: layout.frame.x + target.x * layout.frame.width, y: layout.frame.y + target.y * layout.frame.height)
            return scene
        case .calibrationSent:
            scene.message = .none
            scene.target = Point(x: layout.frame.x + 0.5 * layout.frame.width, y: layout.frame.y + 0.5 * layout.frame.height)
            return scene
        default:
            break
        }
        guard layout.shape == shape else {
            scene.message = .serviceUnavailable
            return scene
        }
        func show(_ nodes: [Int], look: NodeLook, finger: Point? = nil) {
            scene.show(nodes, look: look, finger: finger, pathShown: settings.showPath)
        }
        switch phase {
        case .waitingForService:
            scene.message = .serviceUnavailable
        case .asking:
            break  // the prompt over an idle grid
        case .ready, .drawing:
            showTracked(on: layout, in: &scene)
        case .enrollFirst:
            scene.message = .enrollDraw
            showTracked(on: layout, in: &scene)
        case .enrollConfirm:
            scene.message = .enrollConfirm
            showTracked(on: layout, in: &scene)
        case .enrollRetry(let nodes, _, let message, _):
            scene.message = message
            show(nodes, look: .error)
        case .enrollSent(let nodes):
            scene.message = .enrollSaved
            show(nodes, look: .success)
        case .checking(let nodes):
            scene.message = .verifying
            show(nodes, look: .selected)
        case .rejected(let nodes, let failures, let remaining, _):
            scene.message = .wrong(failures: failures, remaining: remaining)
            show(nodes, look: .error)
        case .awaitingLockout(let nodes, let failures):
            scene.message = .wrong(failures: failures, remaining: 0)
            show(nodes, look: .error)
        case .tooShort(let nodes, _):
            scene.message = .tooShort(minimum: minimumNodes)
            show(nodes, look: .error)
        case .notChecked(let nodes, let reason, _):
            switch reason {
            case .notRecorded: scene.message = .cannotRecord
            case .tooShort: scene.message = .tooShort(minimum: minimumNodes)
            default: scene.message = .busy
            }
            show(nodes, look: .error)
        case .lockedOut(let until):
            scene.message = .lockedOut(seconds: max(1, Int(until.duration(since: now).secondsRoundedUp)))
        case .accepted(let nodes, _):
            scene.message = .success
            show(nodes, look: .success)
        case .calibrating, .calibrationSent:
            break  // above
        case .unlocked, .handedOver:
            // Drawn by nobody while an action holds the panel; the success look if it is.
            scene.message = .success
        }
        return scene
    }
}

/// What a face's settings say; the grid itself is gridlockd's.
public struct FaceSettings: Hashable, Sendable {
    public var showPath = true
    public var errorDuration: Duration = .milliseconds(1000)
    /// How long the success look shows before the session unlocks (0: at once).
    public var successDuration: Duration = .milliseconds(300)
    /// How long gridlockd may take to answer a `status` before the face says nothing can
    /// be checked: a loaded panel answers within milliseconds, a slow emulated one within 1 s.
    public var answerPatience: Duration = .seconds(2)
    /// A contact held this long with no event is a stuck controller: the stroke is dropped
    /// and reported. nil (a compositor's pointer, whose button may rest): never.
    public var stuckTouchTimeout: Duration?
    /// Whether this face holds the panel's display and touchscreen (`gridlock-panel`), which
    /// it lets go while gridlockd hands the panel over to an action. A face in a user's
    /// session holds no panel.
    public var holdsPanel = false
    /// The panel's display rotation (`[display] rotation=`), which calibration's taps are
    /// turned back through: the touchscreen's matrix acts before it.
    public var panelRotation: Rotation = .none

    public init() {}
}

/// What a face logs. None of them holds a pattern.
public enum FaceReport: Hashable, Sendable {
    case serviceAvailable
    case serviceLost
    /// Connected, but gridlockd did not answer within `FaceSettings.answerPatience`.
    case serviceSilent
    case accepted
    case rejected(failures: Int)
    case lockedOut(seconds: Int)
    case lockoutEnded
    case notChecked(NotCheckedReason)
    case tooShort(nodes: Int)
    case strokeCancelled(CancelReason)
    case relocked
    /// The panel's devices were let go for an action of gridlockd's.
    case panelHandedOver
    /// gridlockd said the action is done: the panel's devices are taken back.
    case panelBack
    /// `gridlock enroll` asked gridlockd for a pattern drawn on this face.
    case enrollmentStarted
    case enrollmentFirstDrawn(nodes: Int)
    case enrollmentTooShort(nodes: Int)
    case enrollmentMismatch
    /// Both drawings agreed; the pattern went to gridlockd (never to the journal).
    case enrollmentSent(nodes: Int)
    /// gridlockd gave the panel back to the lock: enrolled, or `gridlock enroll` gave up.
    case enrollmentEnded
    /// `gridlock calibrate` asked gridlockd for the crosses on this face.
    case calibrationStarted
    /// A cross tapped; the last one's tap sends them all (never a matrix: the asker fits it).
    case calibrationTapped(step: Int, of: Int)
    /// gridlockd gave the panel back to the lock: calibrated, or `gridlock calibrate` gave up.
    case calibrationEnded
}
