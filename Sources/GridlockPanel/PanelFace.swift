import GridlockConfiguration
import GridlockCore
import GridlockDisplay
import GridlockEvdev
import GridlockFace
import GridlockInput
import GridlockRendering
import LinuxSys

/// `gridlock-panel`'s wiring: the panel's display and touchscreen around a lock face's
/// controller and session client, on one loop. It decides nothing about a pattern: each
/// finished stroke goes to gridlockd over the session socket, and the verdict, the count
/// and the lockout shown are gridlockd's. What it holds is a picture and a finger.
///
/// After a pattern is accepted the success look shows for `[feedback] success-ms=`;
/// the door is gridlockd's to open, so the face then shows the lock again, asking
/// gridlockd where it stands (an action still running answers `busy`).
public final class PanelFace: LockSurfaces {
    private let loop: EventLoop
    private let screen: LockScreen
    private let touch: TouchSource
    private let feedback: FeedbackPlayer
    private let controller: FaceController
    private let client: SessionClient
    private let group: PartGroup
    private var layout: GridLayout?
    private var blanker: ScreenBlanker
    /// The face file's settings in force, and how SIGHUP reads the file again.
    private var settings: ThemeSettings
    private let reloader: FaceFileReloader
    private let relock: EventLoop.Deadline
    private let tip: EventLoop.Deadline
    private let blank: EventLoop.Deadline
    /// The round's touches (kernel times, the finger's places) for the frame's latency and
    /// the drawn tip's lag, as gridlockd's own face measures them.
    private var latency = LatencyMeter()
    private var strokeEnded = false
    /// The touchscreen is attached at gridlockd's first answer (`touchOnceAnswered`).
    private var touchWaitsForAnswer: Bool
    /// The touchscreen and display the last round had, so that one going is told to
    /// gridlockd (its `[on tamper]`), as gridlockd's own face would notice it.
    private var devices = PanelDeviceWatch()
    private var stopping = false
    /// False while gridlockd hands the panel over to an action (`[action] mode=handover`):
    /// the card's master and the touchscreen are the action's, and the panel is not blanked.
    private var holdsPanel = true
    /// Told when a reload starts (with the loop's clock then) and when it is over (nil):
    /// systemd's RELOADING=1 and READY=1.
    public var onReloading: (Instant?) -> Void = { _ in }
    /// Called with each report (the journal; a test).
    public var onReport: (FaceReport) -> Void = { _ in }
    /// Called with each scene after it was presented (a test).
    public var onPresent: ((Scene) -> Void)? {
        get { screen.onPresent }
        set { screen.onPresent = newValue }
    }

    /// `serverUsers`: the uids gridlockd may run as (root); a socket served by any other is
    /// refused before a byte of it is read. `faceFile`: the `--config` option as given, which
    /// SIGHUP reads again (nil: /etc/gridlock/face.conf if it exists then).
    /// `touchOnceAnswered`: the touchscreen is read only from gridlockd's first answer on
    /// (`gridlock bench`, whose stroke is written as soon as the face starts).
    public init(
        parts: PanelParts, socket: String, faceFile: String? = nil, serverUsers: Set<UInt32> = [0],
        touchOnceAnswered: Bool = false
    ) {
        loop = parts.loop
        screen = parts.screen
        touch = parts.touch
        group = parts.group
        settings = parts.settings
        touchWaitsForAnswer = touchOnceAnswered
        reloader = FaceFileReloader(loop: parts.loop, named: faceFile)
        blanker = ScreenBlanker(timeout: parts.blankAfter, now: parts.loop.time)
        feedback = FeedbackPlayer(loop: parts.loop, beeper: parts.beeper, sounds: parts.sounds)
        let controller = FaceController(loop: parts.loop, settings: parts.face, grid: parts.grid)
        self.controller = controller
        client = SessionClient(
            path: socket, loop: parts.loop, serverUsers: serverUsers, connected: { controller.connected() },
            replies: { controller.reply($0) },
            lost: { why in
                Journal.log(.warning, "nothing can be checked: \(why)")
                controller.serviceLost()
            })
        relock = loop.deadline("relock")
        tip = loop.deadline("tip")
        blank = loop.deadline("blank")
        controller.session = client
        controller.surfaces = self
        controller.onReport = { [unowned self] report in reported(report) }
        controller.holdPanel = { [unowned self] held in holdPanel(held) }
        controller.calibrateTouch = { [unowned self] calibrated in touch.setCalibrated(calibrated) }
        screen.coalescesFrames = true
        screen.tipDeadlineChanged = { [unowned self] in tip.due = $0 }
        relock.onFire { [unowned controller] _ in controller.relocked() }
        tip.onFire { [unowned self] _ in screen.settleTip() }
        blank.onFire { [unowned self] now in blankIfIdle(now: now) }
        loop.signalHandler = { [unowned self] signal in
            if signal == .hangUp { reload() } else { stopping = true }
        }
        if !touchOnceAnswered { attachTouch() }
        screen.attach(to: loop) { [unowned self] in outputEvent($0) }
        layout = controller.layout(for: Rect(x: 0, y: 0, width: screen.size.width, height: screen.size.height))
        // Stopped first: the socket closes before the beeper, the touchscreen and the display.
        group.add("beeper") { [feedback] in feedback.stop() }
        group.add("session client") { [unowned self] in
            client.close()
            // The client's handlers hold the controller, which holds the client.
            controller.session = nil
        }
    }

    /// Shows the lock (gridlockd's answer comes on the loop) and runs until SIGTERM or
    /// SIGINT, or until `until` says so (a test); every way out stops the parts in reverse.
    public func run(until done: @escaping () -> Bool = { false }) throws(SystemCallError) {
        start()
        defer { group.stopAll(on: loop) }
        try loop.run(until: { [unowned self] in stopping || done() }, afterEach: { [unowned self] in endRound() })
    }

    /// Shows the lock and connects; `run` does it first. (A test that runs gridlockd on the
    /// same loop starts the face itself, and stops it with `group`.)
    public func start() {
        sceneChanged()
        client.connect()
        endRound()
    }

    /// Stops the parts in reverse at once, without waiting on the loop: as the process
    /// ending would, its socket closes whatever it waited for (a test ends a face this way
    /// in the middle of gridlockd's loop).
    public func stopParts() { group.stopAll(on: nil) }

    /// Asks the loop to end after this round (a test; signals do it otherwise).
    public func stop() { stopping = true }

    /// The face's machine, as a test reads it.
    public var machine: FaceMachine { controller.machine }

    /// Frames presented so far.
    public var framesPresented: Int { screen.framesPresented }

    // MARK: - LockSurfaces

    public func sceneChanged() {
        guard let layout else { return }
        screen.show(controller.scene(on: layout))
    }

    /// The door is gridlockd's: the face shows the lock again on the next round, once the
    /// success look has been seen.
    public func unlockSession() { relock.due = loop.time }

    // MARK: - The loop's news

    private func accept(_ event: TouchEvent, at time: Instant) {
        switch blanker.filter(event, at: time) {
        case .swallow:
            return
        case .wake:
            screen.setBlanked(false)
            Journal.log(.info, "panel woken by a touch")
            return
        case .forward:
            break
        }
        guard let layout else { return }
        latency.noteInput(event, at: time)
        screen.feed(event, at: time)
        let before = controller.machine.selectedNodeCount
        controller.touch(event, on: layout)
        feedback.noteSelection(before: before, after: controller.machine.selectedNodeCount)
        switch event {
        case .up, .cancel: strokeEnded = true
        case .down, .move: break
        }
    }

    private func attachTouch() {
        touch.attach(to: loop) { [unowned self] in accept($0, at: $1) }
    }

    private func reported(_ report: FaceReport) {
        if touchWaitsForAnswer, report == .serviceAvailable {
            touchWaitsForAnswer = false
            attachTouch()
        }
        blanker.noteActivity(at: loop.time)
        feedback.note(report)
        Journal.log(report.priority, report.description)
        onReport(report)
        if case .strokeCancelled(.stuckTouch) = report { tell(.contactStuck) }
    }

    /// What happened to the face's devices, for gridlockd's `[on tamper]`.
    private func tell(_ event: FaceEvent) {
        Journal.log(event.isAlarm ? .warning : .notice, "\(event.sentence): telling gridlockd")
        client.send(.report(event))
    }

    private func outputEvent(_ event: OutputEvent) {
        switch event {
        case .none:
            break
        case .redrawAll:
            if let layout { screen.redraw(controller.scene(on: layout)) }
        case .resized(let size):
            Journal.log(.notice, "display is now \(Int(size.width))x\(Int(size.height)) (logical), rotation \(screen.rotation.degrees)")
            touch.setFrame(size, rotation: screen.rotation)
            do throws(RenderError) {
                try screen.resizeCanvas(to: size)
            } catch {
                Journal.log(.critical, "cannot draw at the new size: \(error)")
            }
            layout = controller.layout(for: Rect(x: 0, y: 0, width: size.width, height: size.height))
            sceneChanged()
        }
    }

    /// What follows each round of the loop: the newest scene presented once, the round's
    /// sounds, the panel's idle deadline.
    public func endRound() {
        let presented = screen.endRound(answering: latency.roundInputs, samples: latency.roundSamples)
        // After the frame: a sound never delays what the finger sees.
        feedback.afterRound(now: loop.time)
        latency.endRound(presented: presented, now: loop.now())
        latency.beginRound()
        if strokeEnded {
            strokeEnded = false
            if let worst = latency.endStroke() {
                Journal.log(.debug, "stroke input-to-frame latency: worst \(worst.nanoseconds / 1000) us")
            }
            screen.endStroke()
        }
        blank.due = holdsPanel ? blanker.deadline : nil
        for event in devices.observe(touchscreen: touch.devicePath, display: screen.connectedDisplay) { tell(event) }
    }

    /// Lets the touchscreen and the card's master go for gridlockd's action, in the order
    /// gridlockd's own face does, or takes them back and shows the lock.
    private func holdPanel(_ held: Bool) {
        guard held != holdsPanel else { return }
        holdsPanel = held
        if held {
            screen.setActive(true)
            touch.setGrabbed(true)
            blanker.noteActivity(at: loop.time)
            sceneChanged()
        } else {
            touch.setGrabbed(false)
            screen.setActive(false)
        }
    }

    private func blankIfIdle(now: Instant) {
        guard blanker.timerFired(at: now) else { return }
        screen.setBlanked(true)
        Journal.log(.info, "panel blanked after \(blanker.timeout?.components.seconds ?? 0) s without touch")
    }

    // MARK: - SIGHUP

    /// The face file read and judged again off the loop, its look prepared from the one on
    /// screen; a good one is taken up in one step, a bad one changes nothing (each problem at
    /// its FILE:LINE). The look, the grid's size and hit radius, the looks' durations, the
    /// sounds, the tip's prediction and blank-after change now; the display, the touchscreen,
    /// the beeper and the socket are devices the face holds open: they take a restart.
    func reload() {
        onReloading(loop.now())
        reloader.request(current: { [unowned self] in screen.renderer?.preparation }) { [unowned self] result in
            defer { onReloading(nil) }
            switch result {
            case .success(let prepared):
                takeUp(prepared)
            case .failure(let refusal):
                for problem in refusal.problems { Journal.log(.error, "reload: \(problem)") }
                Journal.log(.error, "reload failed; keeping the running face file")
            }
        }
    }

    private func takeUp(_ prepared: FaceFileReloader.Prepared) {
        // What the face holds open stays as it was started: compared with that, not with the
        // last file read, so that a restart is asked for until one happens.
        var new = prepared.settings
        var display = settings.display
        display.blankAfter = new.display.blankAfter
        if new.display != display || new.touch != settings.touch {
            Journal.log(.warning, "reload: changes to [display] and [touch] (but blank-after=) take effect after a restart (systemctl restart gridlock-panel)")
        }
        if new.feedback.beeper != settings.feedback.beeper || new.session.socket != settings.session.socket {
            Journal.log(.warning, "reload: [feedback] beeper= and [session] socket= take effect after a restart")
        }
        new.display = display
        new.touch = settings.touch
        new.feedback.beeper = settings.feedback.beeper
        new.session.socket = settings.session.socket
        do throws(RenderError) {
            try screen.installTheme(prepared.look)
        } catch {
            Journal.log(.error, "reload: \(error); keeping the running face file")
            return
        }
        var faceSettings = PanelParts.faceSettings(new)
        faceSettings.panelRotation = screen.rotation
        controller.reconfigure(
            settings: faceSettings, grid: FaceGrid(sizeFraction: new.grid.sizeFraction, hitRadiusFraction: new.grid.hitRadiusFraction))
        feedback.setSounds(new.feedback.sounds)
        screen.predictsTip = new.feedback.predictsTip
        blanker.retime(new.display.blankAfter, now: loop.time)
        settings = new
        layout = controller.layout(for: Rect(x: 0, y: 0, width: screen.size.width, height: screen.size.height))
        sceneChanged()
        Journal.log(.notice, "face file reloaded from \(prepared.path ?? "the built-in defaults")")
    }
}
