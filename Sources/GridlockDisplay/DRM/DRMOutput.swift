import GridlockCore
import GridlockRendering
import LinuxSys

/// `[display] backend=drm`: the lock screen lit directly through KMS, as Plymouth and
/// kmscube do, with no compositor.
///
/// A coordinator of rooms, each in its own file: `Presenter` (frames onto the lit card:
/// `LitCard`, the open card and what is lit on it, with `ScanOut`, a lit connector's
/// buffers, and `FlipTiming`, when flips go out and at which vblank each input frame
/// landed), `MasterLease` (DRM master as one guarded state) and `Hotplug` (uevents,
/// rescan coalescing, finding the card). What needs several of them at once is decided
/// here.
///
/// It waits only through the program's one `EventLoop`: the card and the uevent socket
/// are watched there (cause "display"), and every timer is a named deadline there, set
/// from the rooms' state after each call. Nothing here blocks: a flip in flight when
/// the display is given away or dropped is finished by its event or by the flip
/// timeout, and master is dropped (buffers freed) only then. With nothing changing on
/// screen nothing wakes up: every deadline is one-shot and set only while something
/// waits for it.
public final class DRMOutput: DisplayOutput {
    public private(set) var size: Size
    public private(set) var rotation: Rotation

    private var presenter = Presenter()
    private var lease = MasterLease()
    private var hotplug: Hotplug
    /// The daemon wants the display (false during a hand-over).
    private var wanted = true
    /// Answered from the loop, not from inside the call that caused it (the caller may be
    /// in the middle of its own round): `.none` only shows what is stale.
    private var deferred: (event: OutputEvent, due: Instant)?
    private var registrations: LoopRegistrations<Wake>?
    private let clock: () -> Instant

    /// What wakes the output: its descriptors, then its deadlines.
    enum Wake: Hashable { case card, uevents, latch, flipTimeout, rescan, masterRetry, redraw }
    private static let deadlineNames: [Wake: String] = [
        .latch: "display flip", .flipTimeout: "display flip timeout", .rescan: "display rescan",
        .masterRetry: "display master retry", .redraw: "display redraw",
    ]

    /// `placeholder` is the physical size reported (turned by the requested rotation)
    /// while no display exists. Throws for what waiting cannot fix (a mode the connector
    /// does not offer, an unreadable device); a missing display is waited for.
    /// `clock` is the loop's (`EventLoop.now`): the one time of the master lease, the latch
    /// and the latency figures.
    public convenience init(request: KMSRequest, placeholder: Size, clock: @escaping () -> Instant) throws(DRMError) {
        try self.init(request: request, placeholder: placeholder, opener: .system, hotplug: true, clock: clock)
    }

    init(request: KMSRequest, placeholder: Size, opener: KMSDeviceOpener, hotplug: Bool, clock: @escaping () -> Instant) throws(DRMError) {
        self.clock = clock
        size = request.rotation.logicalSize(physical: placeholder)
        rotation = request.rotation
        self.hotplug = Hotplug(request, opener: opener, enabled: hotplug)
        _ = try setUp(initial: true)
    }

    deinit { presenter.lit?.freeAll() }

    // MARK: DisplayOutput

    /// A display shows the lock screen: one is there, a frame reached it, and the panel is
    /// ours (or handed over to an action on purpose).
    public var isShowingFrames: Bool { presenter.hasShownFrames && (lease.holdsMaster || !wanted) }

    public var connectedDisplay: String? { presenter.displayName }

    public func attach(to loop: EventLoop, newestFrame: @escaping () -> ShadowBuffer, events: @escaping (OutputEvent) -> Void) {
        registrations = LoopRegistrations(loop: loop, cause: "display", deadlines: Self.deadlineNames) { [unowned self] wake, now in
            events(handle(wake, buffer: newestFrame(), now: now))
        }
        registrations?.watch(presenter.device?.fileDescriptor, as: .card)
        registrations?.watch(hotplug.uevents?.fileDescriptor, as: .uevents)
        updateDeadlines()
    }

    // For the tests, which fire deadlines by hand.
    var latencyRecords: [VblankLatency.Record] { presenter.timing.latency.records }
    var masterLease: MasterLease { lease }

    /// When the deadline for `wake` is due, as the loop is told after each call.
    func due(_ wake: Wake) -> Instant? {
        switch wake {
        case .card, .uevents: nil
        case .latch: presenter.timing.latchDue
        case .flipTimeout: [lease.releaseDue, presenter.retiringDue].compactMap { $0 }.min()
        case .rescan: hotplug.rescanDue
        case .masterRetry: lease.retryDue
        case .redraw: deferred?.due
        }
    }

    public func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError) {
        defer { updateDeadlines() }
        if presenter.add(damage) { try flush(buffer, whenDue: true) }
    }

    public func noteFrame(answering inputs: [Instant], samples: [TipLagMeter.Sample], tip: Point?, drawing: Duration) {
        presenter.noteFrame(answering: inputs, samples: samples, tip: tip, drawing: drawing, now: clock())
    }

    public func endStroke() { presenter.endStroke() }

    public func displayTime(ofFramePresentedAt now: Instant) -> Instant? {
        presenter.timing.schedule.displayTime(ofFramePresentedAt: now)
    }

    /// What woke the loop for this output; `buffer` holds the newest frame, `now` is the
    /// loop's time (a test's, when it fires a deadline by hand).
    func handle(_ wake: Wake, buffer: ShadowBuffer, now: Instant) -> OutputEvent {
        defer { updateDeadlines() }
        switch wake {
        case .card: return cardReadable(buffer)
        case .uevents: hotplug.readUevents(now: now)
        case .latch:
            presenter.latchPassed()
            show(buffer)
        case .flipTimeout: flipTimedOut(now: now)
        case .rescan:
            hotplug.rescanDue = nil
            return rescan()
        case .masterRetry:
            if wanted && lease.isWaiting { takeMaster(regained: true, now: now) }
            return deferred?.event == .redrawAll ? takeDeferred(showing: nil) : .none
        case .redraw: return takeDeferred(showing: buffer)
        }
        return .none
    }

    /// A hand-over gives master away, but not under a flip in flight: the kernel would
    /// complete it on a CRTC that is someone else's by then. The lease then waits for
    /// the flip's event (or the flip timeout) and master is dropped there.
    public func setActive(_ active: Bool) {
        defer { updateDeadlines() }
        wanted = active
        if active {
            if !lease.keep(), !lease.holdsMaster { takeMaster(regained: true, now: clock()) }
            return
        }
        guard let device = presenter.device else { return }
        lease.giveAway(flipPending: presenter.flipPending, now: clock(), on: device)
    }

    public func setBlanked(_ blanked: Bool) {
        defer { updateDeadlines() }
        if presenter.setBlanked(blanked, holdingMaster: lease.isHeld) {
            // What was drawn while dark goes out from the loop, which has the newest frame.
            deferred = (deferred?.event ?? .none, clock())
        }
    }

    /// Restores the console's picture and stops watching. A flip still in flight is not
    /// waited for: the card is non-blocking, so reading its events only takes one already
    /// queued, and the restoring modeset is a blocking commit that the kernel itself holds
    /// until the flip before it is done (drm_atomic_helper_setup_commit stalls on it);
    /// only that flip's event is lost, with the descriptor.
    public func close() {
        defer {
            registrations?.detach()
            registrations = nil
        }
        guard let device = presenter.device else { return }
        if presenter.drainEvents() { lease.settle(on: device) }
        presenter.restore(holdingMaster: lease.holdsMaster)
        dropCard()
    }

    private func updateDeadlines() {
        registrations?.update { [unowned self] in due($0) }
    }

    private func takeDeferred(showing buffer: ShadowBuffer?) -> OutputEvent {
        let event = deferred?.event ?? .none
        deferred = nil
        if event == .none, let buffer { show(buffer) }
        return event
    }

    // MARK: Presenting

    /// From the loop, where a failure has nobody to be thrown to.
    private func show(_ buffer: ShadowBuffer, whenDue: Bool = false) {
        do { try flush(buffer, whenDue: whenDue) } catch { Journal.log(.error, "display: \(error)") }
    }

    /// Shows what is stale (`whenDue`: now, or at the latch deadline), if master lets the
    /// display show anything. A frame refused with EPERM means someone took master
    /// without telling us (a VT switch, a crashed session manager): the lease says so,
    /// and master is asked for again instead of failing every frame.
    private func flush(_ buffer: ShadowBuffer, whenDue: Bool) throws(DisplayError) {
        let flushed = try presenter.flush(buffer, rotation: rotation, whenDue: whenDue, masterHeld: lease.isHeld, now: clock())
        guard flushed == .masterLost else { return }
        lease.lost()
        if wanted { takeMaster(regained: true, now: clock()) }
    }

    /// The card spoke: a flip landed (what waited may go out), a release that waited for
    /// it goes through, or an error says the card went away.
    private func cardReadable(_ buffer: ShadowBuffer) -> OutputEvent {
        guard let device = presenter.device else { return .none }
        do {
            guard try presenter.readFlipEvents() != .nothing else { return .none }
        } catch {
            Journal.log(.error, "display: \(error); looking for the display again")
            dropCard()
            return rescan()
        }
        lease.settle(on: device)
        show(buffer, whenDue: true)
        return .none
    }

    /// A flip never landed (a wedged driver, a CRTC turned off under it): what waited
    /// for it goes ahead as if it had, so a hand-over is not held up for ever.
    private func flipTimedOut(now: Instant) {
        presenter.retiringTimedOut(now: now)
        guard let device = presenter.device, let by = lease.releaseDue, by <= now else { return }
        Journal.log(.warning, "display: the page flip in flight did not land within \(MasterLease.flipTimeout); giving DRM master away regardless")
        presenter.giveUpFlip()
        lease.settle(on: device)
    }

    /// Asks for master (at start, after a hand-over, on the retry deadline). Taken back
    /// after someone else had it, the CRTC may show their picture: our mode is set again
    /// if so, everything is redrawn, and the loop is told (`.redrawAll`).
    private func takeMaster(regained: Bool, now: Instant) {
        guard let device = presenter.device else { return }
        let wasWaiting = lease.isWaiting
        guard lease.ask(on: device, now: now), let remodes = presenter.masterRegained(), regained || wasWaiting else { return }
        Journal.log(.info, "display: took DRM master on \(device.path)\(remodes ? "; setting our mode again" : "")")
        deferred = (.redrawAll, now)
    }

    // MARK: Finding the display

    /// Looks at the hardware again after hotplug; `.resized` when the display appeared or changed.
    private func rescan() -> OutputEvent {
        do {
            return try setUp(initial: false) ? .resized(size) : .none
        } catch {
            Journal.log(.error, "display: \(error)")
            return .none
        }
    }

    /// Acts on what `Hotplug.find` found: another card is adopted (the one before closes,
    /// master goes with it), and a new selection is lit (master is asked for if wanted).
    /// Returns whether size or rotation (or the display itself) changed, which the loop
    /// must lay out and draw anew for.
    private func setUp(initial: Bool) throws(DRMError) -> Bool {
        let finding = try hotplug.find(initial: initial, lit: presenter.lit, forgetCurrent: { dropCard() })
        if let device = finding.device, device !== presenter.device {
            dropCard()
            registrations?.watch(device.fileDescriptor, as: .card)
        }
        guard let selection = try presenter.take(finding, now: clock()) else { return false }
        let changed = selection.logicalSize != size || selection.rotation != rotation || !initial
        (size, rotation) = (selection.logicalSize, selection.rotation)
        if wanted && !lease.holdsMaster { takeMaster(regained: false, now: clock()) }
        return changed
    }

    /// The card is closed or gone: its descriptor is unwatched before it closes with it.
    private func dropCard() {
        registrations?.watch(nil, as: .card)
        presenter.closeCard()
        lease.cardGone()
    }
}
