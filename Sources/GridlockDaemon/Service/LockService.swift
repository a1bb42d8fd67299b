import GridlockCore
import GridlockDisplay
import GridlockRendering
import LinuxSys

/// The thin shell around `LockMachine`: feeds it events and carries out its effects:
/// draws scenes (damage only), presents frames, persists attempts, and hands the slow
/// work (verification, actions) to the loop through `LockShell`.
public final class LockService {
    public private(set) var machine: LockMachine
    public private(set) var renderer: SceneRenderer
    public let output: DisplayOutput
    /// Carries out the slow effects; set by the owner once it exists (it owns the service).
    public weak var shell: LockShell?
    /// Where failures are persisted; nil keeps them in memory (previews, enrollment, benchmarks).
    public let stateFile: StateFile?
    private var drawnScene: Scene?
    /// Where the last frame drew the line's end (predicted or not), while a finger is down.
    public var drawnTip: Point? { drawnScene?.finger }
    /// Frames presented so far (the first one marks start-up done).
    public private(set) var framesPresented = 0
    /// Called with each scene after it was presented (the demo picks key frames with it).
    public var onPresent: ((Scene) -> Void)?
    /// Draw only the newest scene when `flush()` is called, not every scene on the way: the
    /// daemon handles a burst of queued touch frames in one round and shows where the
    /// finger is now (a slow output never falls further behind). A replay draws each.
    public var coalescesFrames = false
    private var pendingScene: Scene?
    /// `[feedback] predict=`: the tip of the line being drawn goes where the finger will be
    /// when the frame reaches the glass (`TipPredictor`). Only the drawn tip: the machine,
    /// its nodes and its pattern see the real samples.
    public var predictsTip = false {
        didSet { if predictsTip != oldValue { predictor = predictsTip ? TipPredictor(tuning: Self.tipTuning) : nil } }
    }
    private var predictor: TipPredictor?
    /// The machine's scene last drawn, before its tip was predicted: drawn again when the tip settles.
    private var machineScene: Scene?
    /// Read when a frame is drawn, to predict the tip to its display time: the loop's.
    public var clock: () -> Instant
    /// How far ahead the tip is predicted on an output without a vblank clock: the
    /// predictor's own bound, since when the frame shows is not known.
    static let leadWithoutVblankClock = Duration.milliseconds(8)
    /// The bound in pixels is a node's drawn radius, set for each frame.
    private static let tipTuning = TipPredictor.Tuning(maxDistance: 0)

    /// `stateFile` nil keeps the count in memory only (previews, benchmarks).
    public init(
        machine: LockMachine, renderer: SceneRenderer, output: DisplayOutput, stateFile: StateFile?, clock: @escaping () -> Instant
    ) {
        self.clock = clock
        self.machine = machine
        self.renderer = renderer
        self.output = output
        self.stateFile = stateFile
    }

    public func start(at now: Instant) {
        perform(machine.start(at: now), at: now)
    }

    public func handle(_ event: LockEvent, at now: Instant) {
        if case .touch(let touch) = event { predictor?.feed(touch, at: now) }
        perform(machine.handle(event, at: now), at: now)
    }

    /// The predicted tip's time is up (`LockShell.setTipDeadline`): the last scene is drawn
    /// again, its tip back on the finger, when the round's frame is drawn.
    public func settleTip() {
        if pendingScene == nil { pendingScene = machineScene }
    }

    /// The failure count was reset by an administrator.
    public func clearFailures(at now: Instant) {
        perform(machine.clearFailures(at: now), at: now)
    }

    /// A reloaded config, its theme prepared ahead (`SceneRenderer.prepare`): a stroke
    /// being drawn survives it unless the grid moved.
    public func reconfigure(layout: GridLayout, settings: LockSettings, theme: PreparedTheme, at now: Instant) throws(RenderError) {
        try renderer.install(theme)
        drawnScene = nil
        perform(machine.reconfigure(layout: layout, settings: settings, at: now, reason: .gridChanged), at: now)
    }

    /// A display of another size: a new canvas, the grid laid out anew, everything redrawn.
    public func resize(to size: Size, settings: LockSettings, layout: GridLayout, at now: Instant) throws(RenderError) {
        renderer = try renderer.resized(to: size)
        drawnScene = nil
        perform(machine.reconfigure(layout: layout, settings: settings, at: now), at: now)
    }

    /// Draws the current scene again in full (after the display came back).
    public func redraw(at now: Instant) {
        drawnScene = nil
        pendingScene = nil
        draw(machine.scene(now: now))
    }

    private func perform(_ effects: [LockEffect], at now: Instant) {
        for case .render(let scene) in effects { pendingScene = scene }
        // The new picture first: an action that takes the display over (handover) must find
        // the success frame already presented, not the "Checking…" one.
        let startsAction = effects.contains { if case .runAction = $0 { true } else { false } }
        if !coalescesFrames || startsAction { flush() }
        var unrecorded = false
        for effect in effects {
            switch effect {
            case .render: break
            case .persist(let state): unrecorded = !persist(state) || unrecorded
            case .verify where unrecorded: break
            case .verify(let pattern): shell?.beginVerification(of: pattern)
            case .runAction(let name): shell?.beginAction(for: name)
            case .armTimer(let deadline): shell?.setDeadline(deadline)
            case .disarmTimer: shell?.setDeadline(nil)
            case .report(let report): shell?.report(report, at: now)
            case .enrolled: break  // enrollment's caller reads the pattern from the machine's phase
            case .answer(let check, let verdict): shell?.answer(check, verdict)
            }
        }
        if unrecorded { handle(.persistFailed, at: now) }
    }

    /// Presents the newest scene not yet drawn, if any (the end of a round of the loop).
    public func flush() {
        guard let scene = pendingScene else { return }
        pendingScene = nil
        draw(scene)
    }

    private func draw(_ machineScene: Scene) {
        self.machineScene = machineScene
        let scene = predictingTip(of: machineScene)
        let damage = Damage.between(drawnScene, scene, geometry: renderer.theme.geometry)
        drawnScene = scene
        guard !damage.isEmpty else { return }
        renderer.render(scene, damage: damage)
        do {
            try output.present(renderer.buffer, damage: damage)
            framesPresented += 1
            onPresent?(scene)
        } catch {
            Journal.log(.error, "display: \(error)")
        }
    }

    /// The scene with its tip where the finger will be when the frame is shown, and the
    /// shell told when to draw it again on the finger should no sample come before.
    private func predictingTip(of machineScene: Scene) -> Scene {
        guard var predictor, machineScene.finger != nil else {
            shell?.setTipDeadline(nil)
            return machineScene
        }
        let now = clock()
        predictor.tuning.maxDistance = machineScene.metrics(renderer.theme.geometry).ringRadius
        self.predictor = predictor
        let display = output.displayTime(ofFramePresentedAt: now) ?? now + Self.leadWithoutVblankClock
        var scene = machineScene
        scene.finger = predictor.tip(at: display, now: now) ?? machineScene.finger
        shell?.setTipDeadline(scene.finger == machineScene.finger ? nil : predictor.settlesAt)
        return scene
    }

    /// Fail closed: a write that fails is logged loudly, the count is kept in memory, and
    /// the machine is told (`.persistFailed`), so an attempt whose failure a restart would
    /// forget is never checked. False when the state could not be written.
    private func persist(_ state: AttemptState) -> Bool {
        guard let stateFile else { return true }
        do {
            try stateFile.save(attempts: state)
            return true
        } catch {
            Journal.log(.critical, "cannot record failed attempts in \(error.path): \(error); attempts are not checked until it can")
            return false
        }
    }
}
