import GridlockCore
import LinuxSys

/// What the lock's scenes are shown on, as the daemon and `LockService` see it: a panel
/// drawn by this process (`LockScreen`, in `GridlockDaemonPanel`), or nothing at all
/// (`UnseenScreen`: gridlockd as the verifier alone, its faces drawing for themselves).
/// The daemon's module links no display, font or image library: whatever draws is handed
/// to it through this, built by the program that links them.
public protocol LockPresenter: AnyObject {
    /// The frame the grid is laid out in (logical pixels).
    var size: Size { get }
    var rotation: Rotation { get }
    /// False while the picture is not on the glass (no display, its master held elsewhere).
    var isShowingFrames: Bool { get }
    /// The connector shown on, for tamper (nil: none, or no display at all).
    var connectedDisplay: String? { get }
    /// Frames presented so far (the first one marks start-up done: systemd's READY).
    var framesPresented: Int { get }
    /// Show only the newest scene of a round (`flush`), not every one on the way.
    var coalescesFrames: Bool { get set }
    /// `[feedback] predict=`: the drawn tip goes where the finger will be.
    var predictsTip: Bool { get set }
    /// Told when a tip drawn ahead of the finger goes back on it (nil: not at all).
    var tipDeadlineChanged: (Instant?) -> Void { get set }
    /// How a reload prepares its look off the loop; nil when nothing is drawn.
    var lookPreparation: (any LookPreparation)? { get }
    /// Called with each scene after it was presented (the demo picks key frames with it).
    var onPresent: ((Scene) -> Void)? { get set }

    /// The scene to show at the end of the round (or now, when frames are not coalesced).
    func show(_ scene: Scene)
    /// A touch sample, for the tip's prediction.
    func feed(_ touch: TouchEvent, at now: Instant)
    /// The predicted tip's time is up: the last scene again, its tip on the finger.
    func settleTip()
    /// Presents the newest scene not yet shown, if any.
    func flush()
    /// The end of a round: the newest scene presented and its latency noted; true when a
    /// frame went out.
    func endRound(answering inputs: [Instant], samples: [TipLagMeter.Sample]) -> Bool
    /// Draws `scene` again in full (after the display came back).
    func redraw(_ scene: Scene)
    /// A reloaded config's look, prepared by `lookPreparation` (nil: the look unchanged).
    func install(_ look: (any PreparedLook)?) throws(PresentationError)
    /// A display of another size: everything drawn anew.
    func resize(to size: Size) throws(PresentationError)
    /// `[action] mode=handover`: the display goes to the action (false) and comes back.
    func setActive(_ active: Bool)
    /// DPMS: dark after `blank-after=` without touch, lit by the next one.
    func setBlanked(_ blanked: Bool)
    /// The stroke ended: the output says its figures for it.
    func endStroke()
    /// Watched on the loop; `events` hears what the display needs of the lock.
    func attach(to loop: EventLoop, events: @escaping (OutputEvent) -> Void)
}

/// A configuration's look made ready off the loop (fonts loaded, images decoded), from the
/// look on screen when the reload began.
public protocol LookPreparation: Sendable {
    func prepare(_ theme: Theme) throws(PresentationError) -> any PreparedLook
}

/// What `LookPreparation` made, for `LockPresenter.install` on the loop.
public protocol PreparedLook: Sendable {}

/// Why a look cannot be drawn (a font, an image, a canvas), in words.
public struct PresentationError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
