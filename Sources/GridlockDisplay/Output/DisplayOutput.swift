import GridlockCore
import GridlockRendering
import LinuxSys

/// Where finished frames go: the DRM/KMS panel, PNG files, or nowhere.
/// The renderer always draws the logical (upright) frame; an output that scans out
/// turned applies the rotation while copying the damaged rectangles.
public protocol DisplayOutput: AnyObject {
    /// The logical frame the renderer must draw (the mode turned by `rotation`).
    var size: Size { get }
    /// How the picture is turned on the panel: the config's rotation combined with the
    /// panel's own orientation. Touch input is turned back by the same amount.
    var rotation: Rotation { get }
    /// Shows `buffer`; only the pixels inside `damage` changed since the last call.
    /// An output that is busy (a page flip pending) keeps the damage and shows the
    /// newest buffer contents when it can: presenting never blocks.
    func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError)
    /// Registers what the output waits for (DRM events, hotplug uevents, its timers as
    /// named deadlines) on the program's one loop; once, before the loop runs. The output
    /// shows `newestFrame()` when it shows something by itself (a flip landed with more
    /// stale, the panel lit again) and reports what the program must do to `events`.
    func attach(to loop: EventLoop, newestFrame: @escaping () -> ShadowBuffer, events: @escaping (OutputEvent) -> Void)
    /// Gives up the display (another program takes over) or takes it back.
    func setActive(_ active: Bool)
    /// Turns the panel off (DPMS) or on.
    func setBlanked(_ blanked: Bool)
    /// Restores what was shown before and gives back what `attach` registered; called
    /// once on exit. Never blocks the loop.
    func close()
    /// The display shown on (`/dev/dri/card0 HDMI-A-1`), nil while there is none; an output
    /// that cannot lose its display says nil always.
    var connectedDisplay: String? { get }
    /// Whether what is presented reaches a display now: false while a DRM output waits
    /// for a card, a connected display or DRM master, or before its first frame was shown.
    var isShowingFrames: Bool { get }
    /// The frame just presented answers the input frames read at `inputs` (kernel
    /// CLOCK_MONOTONIC times) and took `drawing` to render and present. An output with a
    /// vblank clock records at which vblank each reached the screen (`VblankLatency`).
    func noteFrame(answering inputs: [Instant], samples: [TipLagMeter.Sample], tip: Point?, drawing: Duration)
    /// The finger lifted: an output that records latency reports the stroke once its last
    /// frame is on screen.
    func endStroke()
    /// When a frame presented at `now` (CLOCK_MONOTONIC) is expected on the glass: the
    /// vblank its flip aims at. Nil without a vblank clock (no flips yet, a driver without
    /// vblank events, files).
    func displayTime(ofFramePresentedAt now: Instant) -> Instant?
}

extension DisplayOutput {
    public var rotation: Rotation { .none }
    public func attach(to loop: EventLoop, newestFrame: @escaping () -> ShadowBuffer, events: @escaping (OutputEvent) -> Void) {}
    public func setActive(_ active: Bool) {}
    public func setBlanked(_ blanked: Bool) {}
    public func close() {}
    public var connectedDisplay: String? { nil }
    public var isShowingFrames: Bool { true }
    public func noteFrame(answering inputs: [Instant], samples: [TipLagMeter.Sample], tip: Point?, drawing: Duration) {}
    /// A frame without the finger's positions: no lag is measured for it.
    public func noteFrame(answering inputs: [Instant], drawing: Duration) {
        noteFrame(answering: inputs, samples: [], tip: nil, drawing: drawing)
    }
    public func endStroke() {}
    public func displayTime(ofFramePresentedAt now: Instant) -> Instant? { nil }
}

public enum DisplayError: Error, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    case device(path: String, operation: String, reason: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write frame \(path): \(reason)"
        case .device(let path, let operation, let reason): "\(path): \(operation): \(reason)"
        }
    }
}

/// Frames are rendered and dropped: previews, benchmarks, and replays without `--frames`.
public final class NullOutput: DisplayOutput {
    public let size: Size
    public let rotation: Rotation
    public private(set) var presented = 0

    public init(size: Size, rotation: Rotation = .none) {
        self.size = size
        self.rotation = rotation
    }

    public func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError) { presented += 1 }
}
