import GridlockCore
import LinuxSys

/// `[display] backend=drm`: the lock screen lit directly through KMS, as Plymouth and
/// kmscube do, with no compositor.
///
/// A coordinator of rooms, each in its own file: `LitCard` (the open card and what is lit
/// on it), `ScanOut` (a lit connector's buffers and how a frame reaches it),
/// `MasterLease` (DRM master as one guarded state), `Hotplug` (uevents, rescan
/// coalescing, finding the card) and `FlipTiming` (when flips go out, at which vblank
/// each input frame landed).
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

    private let request: KMSRequest
    private let opener: KMSDeviceOpener
    private var lit: LitCard?
    private var lease = MasterLease()
    private var hotplug: Hotplug
    private var timing = FlipTiming()
    /// The daemon wants the display (false during a hand-over).
    private var wanted = true
    private var blanked = false
    /// Frames scanned out (a modeset, a queued flip, or a DirtyFB'd buffer) since start.
    private var framesShown = 0
    /// Answered from the loop, not from inside the call that caused it (the caller may be
    /// in the middle of its own round): `.none` only shows what is stale.
    private var deferred: (event: OutputEvent, due: Instant)?
    private var registrations: LoopRegistrations<Wake>?

    /// What wakes the output: its descriptors, then its deadlines by their loop names.
    enum Wake: Hashable, CaseIterable {
        case card, uevents, latch, flipTimeout, rescan, masterRetry, redraw

        var deadlineName: String? {
            switch self {
            case .card, .uevents: nil
            case .latch: "display flip"
            case .flipTimeout: "display flip timeout"
            case .rescan: "display rescan"
            case .masterRetry: "display master retry"
            case .redraw: "display redraw"
            }
        }
    }

    /// `placeholder` is the physical size reported (turned by the requested rotation)
    /// while no display exists. Throws for what waiting cannot fix (a mode the connector
    /// does not offer, an unreadable device); a missing display is waited for.
    public convenience init(request: KMSRequest, placeholder: Size) throws(DRMError) {
        try self.init(request: request, placeholder: placeholder, opener: .system, hotplug: true)
    }

    init(request: KMSRequest, placeholder: Size, opener: KMSDeviceOpener, hotplug: Bool) throws(DRMError) {
        self.request = request
        self.opener = opener
        size = request.rotation.logicalSize(physical: placeholder)
        rotation = request.rotation
        self.hotplug = Hotplug(enabled: hotplug)
        _ = try setUp(initial: true)
    }

    deinit { lit?.freeAll() }

    // MARK: DisplayOutput

    /// A display shows the lock screen: one is there, a frame reached it, and the panel is
    /// ours (or handed over to an action on purpose).
    public var isShowingFrames: Bool {
        lit?.scanOut != nil && framesShown > 0 && (lease.holdsMaster || !wanted)
    }

    public var connectedDisplay: String? {
        guard let lit, let scanOut = lit.scanOut else { return nil }
        return "\(lit.device.path) \(scanOut.selection.connector.name)"
    }

    public func attach(to loop: EventLoop, newestFrame: @escaping () -> ShadowBuffer, events: @escaping (OutputEvent) -> Void) {
        var names: [Wake: String] = [:]
        for wake in Wake.allCases { names[wake] = wake.deadlineName }
        registrations = LoopRegistrations(loop: loop, cause: "display", deadlines: names) { [unowned self] wake, now in
            events(handle(wake, buffer: newestFrame(), now: now))
        }
        registrations?.watch(lit?.device.fileDescriptor, as: .card)
        registrations?.watch(hotplug.uevents?.fileDescriptor, as: .uevents)
        updateDeadlines()
    }

    // For the tests, which fire deadlines by hand.
    var latencyRecords: [VblankLatency.Record] { timing.latency.records }
    var masterLease: MasterLease { lease }

    /// When the deadline for `wake` is due, as the loop is told after each call.
    func due(_ wake: Wake) -> Instant? {
        switch wake {
        case .card, .uevents: nil
        case .latch: timing.latchDue
        case .flipTimeout: [lease.releaseDue, lit?.retiring?.by].compactMap { $0 }.min()
        case .rescan: hotplug.rescanDue
        case .masterRetry: lease.retryDue
        case .redraw: deferred?.due
        }
    }

    public func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError) {
        defer { updateDeadlines() }
        guard lit?.scanOut != nil else { return }
        lit!.scanOut!.damage.add(damage)
        timing.presentBegins()
        try flushWhenDue(buffer)
    }

    public func noteFrame(answering inputs: [Instant], drawing: Duration) {
        guard let scanOut = lit?.scanOut else { return }
        timing.noteFrame(answering: inputs, drawing: drawing, on: scanOut)
    }

    public func endStroke() { timing.endStroke() }

    /// What woke the loop for this output; `buffer` holds the newest frame, `now` is the
    /// loop's time (a test's, when it fires a deadline by hand).
    func handle(_ wake: Wake, buffer: ShadowBuffer, now: Instant = MonotonicClock.now()) -> OutputEvent {
        defer { updateDeadlines() }
        switch wake {
        case .card: return cardReadable(buffer)
        case .uevents: hotplug.readUevents(now: now)
        case .latch:
            timing.latchDue = nil
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
            if !lease.keep(), !lease.holdsMaster { takeMaster(regained: true, now: MonotonicClock.now()) }
            return
        }
        let held = lease.isHeld
        guard let lit, lease.release(flipPending: lit.flipPending, now: MonotonicClock.now()) else { return }
        if held, lease.state == .released { lease.drop(on: lit.device) }
    }

    public func setBlanked(_ blanked: Bool) {
        defer { updateDeadlines() }
        guard blanked != self.blanked else { return }
        self.blanked = blanked
        if let device = lit?.device, lease.isHeld { lit!.scanOut?.setDPMS(blanked: blanked, on: device) }
        if !blanked, lit?.scanOut?.damage.canPresent == true {
            // What was drawn while dark goes out from the loop, which has the newest frame.
            deferred = (deferred?.event ?? .none, MonotonicClock.now())
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
        guard lit != nil else { return }
        if let landed = try? lit!.readEvents(), landed != .nothing, lease.flipSettled() { lease.drop(on: lit!.device) }
        if lease.holdsMaster { lit!.restore(unblanking: blanked) }
        blanked = false
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

    /// Shows what is stale now, or leaves it for the latch deadline (the latest moment
    /// that still makes the coming vblank), so that input read until then rides the flip.
    private func flushWhenDue(_ buffer: ShadowBuffer) throws(DisplayError) {
        guard let scanOut = lit?.scanOut, scanOut.flips, scanOut.damage.canPresent, !scanOut.needsModeset,
              timing.holdsFlip(now: MonotonicClock.now()) else {
            try flush(buffer)
            return
        }
    }

    /// From the loop, where a failure has nobody to be thrown to.
    private func show(_ buffer: ShadowBuffer) {
        do { try flush(buffer) } catch { Journal.log(.error, "display: \(error)") }
    }

    /// Shows what is stale, if the display can show anything now. A frame refused with
    /// EPERM means someone took master without telling us (a VT switch, a crashed
    /// session manager): the lease says so, and master is asked for again instead of
    /// failing every frame.
    private func flush(_ buffer: ShadowBuffer) throws(DisplayError) {
        guard let device = lit?.device, lease.isHeld, !blanked, lit?.scanOut?.damage.canPresent == true else { return }
        do {
            guard let (shown, copy) = try lit!.scanOut!.show(buffer, rotation: rotation, on: device) else { return }
            timing.shown(shown, copy: copy)
            framesShown += 1
        } catch {
            timing.abandon()
            guard error.errno == .permissionDenied || error.errno == .notPermitted else { throw error.asDisplayError }
            Journal.log(.warning, "display: lost DRM master on \(device.path): \(error)")
            lease.lost()
            if wanted { takeMaster(regained: true, now: MonotonicClock.now()) }
        }
    }

    /// The card spoke: a flip landed (the frames it carried are on screen since the
    /// vblank its event names, and what waited may go out), a release that waited for
    /// it goes through, or an error says the card went away.
    private func cardReadable(_ buffer: ShadowBuffer) -> OutputEvent {
        guard lit != nil else { return .none }
        let landed: LitCard.Landed
        do {
            landed = try lit!.readEvents()
        } catch {
            Journal.log(.error, "display: \(error); looking for the display again")
            dropCard()
            return rescan()
        }
        if landed == .ours, let mode = lit!.scanOut?.selection.mode { timing.flipLanded(lit!.device.lastFlipEvent, mode: mode) }
        if landed != .nothing, lease.flipSettled() { lease.drop(on: lit!.device) }
        if landed != .nothing { do { try flushWhenDue(buffer) } catch { Journal.log(.error, "display: \(error)") } }
        return .none
    }

    /// A flip never landed (a wedged driver, a CRTC turned off under it): what waited
    /// for it goes ahead as if it had, so a hand-over is not held up for ever.
    private func flipTimedOut(now: Instant) {
        guard lit != nil else { return }
        lit!.retiringTimedOut(now: now)
        guard let by = lease.releaseDue, by <= now else { return }
        Journal.log(.warning, "display: the page flip in flight did not land within \(MasterLease.flipTimeout); giving DRM master away regardless")
        lit!.scanOut?.damage.flipCompleted()
        timing.abandon()
        lease.flipSettled()
        lease.drop(on: lit!.device)
    }

    /// Asks for master (at start, after a hand-over, on the retry deadline). Taken back
    /// after someone else had it, the CRTC may show their picture: our mode is set again
    /// if so, everything is redrawn, and the loop is told (`.redrawAll`).
    private func takeMaster(regained: Bool, now: Instant) {
        guard let device = lit?.device else { return }
        let wasWaiting = lease.isWaiting
        guard lease.ask(on: device, now: now), let scanOut = lit?.scanOut else { return }
        lit!.scanOut!.pictureLost(crtcChanged: !scanOut.crtcIsOurs(on: device))
        guard regained || wasWaiting else { return }
        Journal.log(.info, "display: took DRM master on \(device.path)\(lit!.scanOut!.needsModeset ? "; setting our mode again" : "")")
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

    /// Acts on what `Hotplug.find` found: lights a new selection (master is asked for
    /// if wanted), or drops what is lit. Returns whether size or rotation (or the display
    /// itself) changed, which the loop must lay out and draw anew for.
    private func setUp(initial: Bool) throws(DRMError) -> Bool {
        switch try hotplug.find(request, initial: initial, lit: lit, opener: opener, forgetCurrent: { dropCard() }) {
        case .unchanged:
            return false
        case .noCard:
            dropDisplay()
            return false
        case .noDisplay(let device):
            adopt(device)
            dropDisplay()
            return false
        case .display(let device, let card, let selection):
            adopt(device)
            dropDisplay()
            try lit!.light(selection, card: card)
            let changed = selection.logicalSize != size || selection.rotation != rotation || !initial
            size = selection.logicalSize
            rotation = selection.rotation
            Journal.log(.info, "display: \(device.path) (\(card.driver)) \(selection.connector.name) \(selection.mode) (\(selection.modeReason)), CRTC \(selection.crtcID), rotation \(rotation.degrees)")
            if wanted && !lease.holdsMaster { takeMaster(regained: false, now: MonotonicClock.now()) }
            return changed
        }
    }

    /// Makes `device` the card in use, closing the one before (master goes with it).
    private func adopt(_ device: any KMSDevice) {
        guard lit?.device !== device else { return }
        dropCard()
        lit = LitCard(device)
        registrations?.watch(device.fileDescriptor, as: .card)
    }

    /// The card is closed or gone: everything on it goes with it, nothing is waited for.
    private func dropCard() {
        registrations?.watch(nil, as: .card)  // before the descriptor closes with the card
        lit?.freeAll()
        lit = nil
        timing.abandon()
        lease.cardGone()
    }

    /// Forgets the lit display (its connector went away, or another is chosen); what
    /// waited for one of its flips is given up.
    private func dropDisplay() {
        lit?.dropDisplay(now: MonotonicClock.now())
        timing.abandon()
    }
}
