import GridlockCore
import GridlockRendering
import LinuxSys

/// What the panel shows: the scenes the lock machine asks for, drawn (damage only, the tip
/// of the line predicted) and presented on the output. The one owner of the renderer and
/// the output: a frame's three calls to it (present, the display time its tip is
/// predicted to, the latency note) are made here and nowhere else.
///
/// Without a renderer (`[display] backend=none`: the verifier for faces that draw
/// themselves) nothing is drawn, no font is loaded and no image decoded: each scene is
/// only taken as shown, so the lock's first frame (systemd's READY) still marks start-up.
public final class LockScreen {
    public private(set) var renderer: SceneRenderer?
    package let output: DisplayOutput
    private var drawnScene: Scene?
    /// The newest scene not yet drawn.
    private var pendingScene: Scene?
    /// The machine's scene last drawn, before its tip was predicted: drawn again when the tip settles.
    private var machineScene: Scene?
    /// Where the last frame drew the line's end (predicted or not), while a finger is down.
    public var drawnTip: Point? { drawnScene?.finger }
    /// Frames presented so far (the first one marks start-up done).
    public private(set) var framesPresented = 0
    /// `framesPresented` when a round last noted its frame.
    private var framesNoted = 0
    /// Called with each scene after it was presented (the demo picks key frames with it).
    public var onPresent: ((Scene) -> Void)?
    /// Draw only the newest scene when `flush()` is called, not every scene on the way: the
    /// daemon handles a burst of queued touch frames in one round and shows where the
    /// finger is now (a slow output never falls further behind). A replay draws each.
    public var coalescesFrames = false
    /// `[feedback] predict=`: the tip of the line being drawn goes where the finger will be
    /// when the frame reaches the glass (`TipPredictor`). Only the drawn tip: the machine,
    /// its nodes and its pattern see the real samples.
    public var predictsTip = false {
        didSet { if predictsTip != oldValue { predictor = predictsTip ? TipPredictor(tuning: Self.tipTuning) : nil } }
    }
    private var predictor: TipPredictor?
    /// Told when a tip drawn ahead of the finger goes back on it (nil: not at all), for
    /// `settleTip()` at that moment.
    public var tipDeadlineChanged: (Instant?) -> Void = { _ in }
    /// Read when a frame is drawn, to predict the tip to its display time: the loop's.
    package let clock: () -> Instant
    /// How far ahead the tip is predicted on an output without a vblank clock: the
    /// predictor's own bound, since when the frame shows is not known.
    package static let leadWithoutVblankClock = Duration.milliseconds(8)
    /// The bound in pixels is a node's drawn radius, set for each frame.
    private static let tipTuning = TipPredictor.Tuning(maxDistance: 0)

    public init(renderer: SceneRenderer?, output: DisplayOutput, clock: @escaping () -> Instant) {
        self.renderer = renderer
        self.output = output
        self.clock = clock
    }

    /// The output's logical size and rotation, and what it knows of the display.
    public var size: Size { output.size }
    public var rotation: Rotation { output.rotation }
    public var isShowingFrames: Bool { output.isShowingFrames }
    public var connectedDisplay: String? { output.connectedDisplay }

    /// The scene to show at the end of the round (or now, when frames are not coalesced).
    public func show(_ scene: Scene) {
        pendingScene = scene
        if !coalescesFrames { flush() }
    }

    /// A touch sample, for the tip's prediction.
    public func feed(_ touch: TouchEvent, at now: Instant) { predictor?.feed(touch, at: now) }

    /// The predicted tip's time is up: the last scene is drawn again, its tip back on the
    /// finger, when the round's frame is drawn.
    public func settleTip() {
        if pendingScene == nil { pendingScene = machineScene }
    }

    /// Presents the newest scene not yet drawn, if any.
    public func flush() {
        guard let scene = pendingScene else { return }
        pendingScene = nil
        draw(scene)
    }

    /// The end of a round of the loop: the newest scene is presented, and when a frame
    /// went out in the round (now, or earlier for an action that takes the display), its
    /// latency is noted on the output with the round's inputs (kernel times), the finger's
    /// samples and what drawing took now. True when a frame went out.
    public func endRound(answering inputs: [Instant], samples: [TipLagMeter.Sample]) -> Bool {
        let drawing = Stopwatch()
        flush()
        guard framesPresented > framesNoted else { return false }
        framesNoted = framesPresented
        output.noteFrame(answering: inputs, samples: samples, tip: drawnTip, drawing: drawing.elapsed)
        return true
    }

    /// Draws `scene` again in full (after the display came back).
    public func redraw(_ scene: Scene) {
        drawnScene = nil
        pendingScene = nil
        draw(scene)
    }

    /// A reloaded config's look, prepared ahead (`SceneRenderer.prepare`).
    public func installTheme(_ theme: PreparedTheme?) throws(RenderError) {
        if let theme { try renderer?.install(theme) }
        drawnScene = nil
    }

    /// A display of another size: a new canvas, everything drawn anew.
    public func resizeCanvas(to size: Size) throws(RenderError) {
        renderer = try renderer?.resized(to: size)
        drawnScene = nil
    }

    /// `[action] mode=handover`: the display goes to the action (false) and comes back.
    public func setActive(_ active: Bool) { output.setActive(active) }

    /// DPMS: dark after `blank-after=` without touch, lit by the next one.
    public func setBlanked(_ blanked: Bool) { output.setBlanked(blanked) }

    /// The stroke ended: the output says its figures for it.
    public func endStroke() { output.endStroke() }

    /// Watched on the loop; `events` hears what the output needs of the lock (a redraw, a
    /// new size).
    public func attach(to loop: EventLoop, events: @escaping (OutputEvent) -> Void) {
        // Without a renderer there is no frame to give an output (and `.off`'s needs no loop).
        guard renderer != nil else { return }
        // A renderer is never dropped once there is one: a resize replaces it.
        output.attach(to: loop, newestFrame: { [unowned self] in renderer!.buffer }, events: events)
    }

    private func draw(_ machineScene: Scene) {
        self.machineScene = machineScene
        guard let renderer else {
            // Nothing to draw on: the scene is shown to nobody, once.
            guard machineScene != drawnScene else { return }
            drawnScene = machineScene
            framesPresented += 1
            onPresent?(machineScene)
            return
        }
        let scene = predictingTip(of: machineScene, renderer: renderer)
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
    /// owner told when to draw it again on the finger should no sample come before.
    private func predictingTip(of machineScene: Scene, renderer: SceneRenderer) -> Scene {
        guard var predictor, machineScene.finger != nil else {
            tipDeadlineChanged(nil)
            return machineScene
        }
        let now = clock()
        predictor.tuning.maxDistance = machineScene.metrics(renderer.theme.geometry).ringRadius
        self.predictor = predictor
        let display = output.displayTime(ofFramePresentedAt: now) ?? now + Self.leadWithoutVblankClock
        var scene = machineScene
        scene.finger = predictor.tip(at: display, now: now) ?? machineScene.finger
        tipDeadlineChanged(scene.finger == machineScene.finger ? nil : predictor.settlesAt)
        return scene
    }
}
