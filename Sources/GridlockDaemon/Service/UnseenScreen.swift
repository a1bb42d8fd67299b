import GridlockCore
import LinuxSys

/// The screen of gridlockd as the verifier alone (`[display] backend=none`): nothing is
/// drawn and no display is opened; each new scene is only taken as shown, so the lock's
/// first one still marks start-up (systemd's READY) and the machine runs as on a panel.
public final class UnseenScreen: LockPresenter {
    public let size: Size
    public let rotation: Rotation
    public var isShowingFrames: Bool { false }
    public var connectedDisplay: String? { nil }
    public private(set) var framesPresented = 0
    public var coalescesFrames = false
    public var predictsTip = false
    public var tipDeadlineChanged: (Instant?) -> Void = { _ in }
    public var lookPreparation: (any LookPreparation)? { nil }
    public var onPresent: ((Scene) -> Void)?
    private var shown: Scene?
    private var pending: Scene?
    /// `framesPresented` when a round last ended with a frame.
    private var framesNoted = 0

    public init(size: Size, rotation: Rotation) {
        self.size = size
        self.rotation = rotation
    }

    public func show(_ scene: Scene) {
        pending = scene
        if !coalescesFrames { flush() }
    }

    public func flush() {
        guard let scene = pending else { return }
        pending = nil
        guard scene != shown else { return }
        shown = scene
        framesPresented += 1
        onPresent?(scene)
    }

    public func endRound(answering inputs: [Instant], samples: [TipLagMeter.Sample]) -> Bool {
        flush()
        guard framesPresented > framesNoted else { return false }
        framesNoted = framesPresented
        return true
    }

    public func redraw(_ scene: Scene) {
        shown = nil
        pending = scene
        flush()
    }

    public func feed(_ touch: TouchEvent, at now: Instant) {}
    public func settleTip() {}
    public func install(_ look: (any PreparedLook)?) throws(PresentationError) {}
    public func resize(to size: Size) throws(PresentationError) {}
    public func setActive(_ active: Bool) {}
    public func setBlanked(_ blanked: Bool) {}
    public func endStroke() {}
    public func attach(to loop: EventLoop, events: @escaping (OutputEvent) -> Void) {}
}
