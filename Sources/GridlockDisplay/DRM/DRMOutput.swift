import GridlockCore
import LinuxSys

/// `[display] backend=drm`: the lock screen lit directly through KMS, as Plymouth and
/// kmscube do, with no compositor.
///
/// A coordinator of rooms, each in its own file: `ScanOut` (the lit connector, its
/// buffers and how a frame reaches it), `MasterLease` (DRM master as one guarded state),
/// `Hotplug` (uevents, rescan coalescing, finding the card) and `FlipTiming` (when flips
/// go out, at which vblank each input frame landed).
///
/// It waits only through the program's one `EventLoop`: the card and the uevent socket
/// are watched there (cause "display"), and every timer is a named deadline there
/// ("display flip", "display flip timeout", "display rescan", "display master retry",
/// "display redraw") set from the rooms' state after each call. Nothing here blocks:
/// a flip in flight when the display is given away or dropped is finished by its event
/// or by the flip timeout, and master is dropped (buffers freed) only then. Nothing
/// changes on screen, nothing wakes up: every deadline is one-shot and set only while
/// something waits for it.
public final class DRMOutput: DisplayOutput {
    public private(set) var size: Size
    public private(set) var rotation: Rotation

    private let request: KMSRequest
    private let opener: KMSDeviceOpener
    private var device: (any KMSDevice)?
    private var scanOut: ScanOut?
    /// A display dropped while its flip was in flight: freed when the flip lands, or at `by`.
    private var retiring: (scanOut: ScanOut, by: Instant)?
    /// CRTC states as first seen, before this process set any mode: restored on exit.
    private var savedCrtcs: [UInt32: KMSCrtc] = [:]
    private var lease = MasterLease()
    private var hotplug: Hotplug
    private var timing = FlipTiming()
    /// The daemon wants the display (false during a hand-over).
    private var wanted = true
    private var blanked = false
    /// Frames scanned out (a modeset, a queued flip, or a DirtyFB'd buffer) since start.
    private var framesShown = 0
    private var lastFlipCount: UInt32 = 0
    /// Answered from the loop, not from inside the call that caused it (the caller may be
    /// in the middle of its own round): `.none` only shows what is stale.
    private var deferred: (event: OutputEvent, due: Instant)?
    private var registrations: LoopRegistrations<Wake>?
    private var newestFrame: () -> ShadowBuffer? = { nil }

    /// What the output is woken by: its descriptors, then its deadlines.
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

    deinit {
        if let device { scanOut?.destroyBuffers(on: device) }
    }

    // MARK: DisplayOutput

    /// A display shows the lock screen: one is there, a frame reached it, and the panel is
    /// ours (or handed over to an action on purpose).
    public var isShowingFrames: Bool {
        scanOut != nil && framesShown > 0 && (lease.holdsMaster || !wanted)
    }

    public var connectedDisplay: String? {
        guard let scanOut, let device else { return nil }
        return "\(device.path) \(scanOut.selection.connector.name)"
    }

    public func attach(to loop: EventLoop, newestFrame: @escaping () -> ShadowBuffer, events: @escaping (OutputEvent) -> Void) {
        self.newestFrame = newestFrame
        var names: [Wake: String] = [:]
        for wake in Wake.allCases { names[wake] = wake.deadlineName }
        registrations = LoopRegistrations(loop: loop, cause: "display", deadlines: names) { [unowned self] wake, now in
            events(handle(wake, buffer: newestFrame(), now: now))
        }
        registrations?.watch(device?.fileDescriptor, as: .card)
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
        case .flipTimeout: [lease.releaseDue, retiring?.by].compactMap { $0 }.min()
        case .rescan: hotplug.rescanDue
        case .masterRetry: lease.retryDue
        case .redraw: deferred?.due
        }
    }

    public func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError) {
        defer { updateDeadlines() }
        guard scanOut != nil else { return }
        scanOut!.damage.add(damage)
        timing.presentBegins()
        try flushWhenDue(buffer)
    }

    public func noteFrame(answering inputs: [Instant], drawing: Duration) {
        guard let scanOut else { return }
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
        let flipPending = scanOut?.damage.flipPending == true || retiring != nil
        guard let device, lease.release(flipPending: flipPending, now: MonotonicClock.now()) else { return }
        if held, lease.state == .released { dropMaster(on: device) }
    }

    public func setBlanked(_ blanked: Bool) {
        defer { updateDeadlines() }
        guard blanked != self.blanked else { return }
        self.blanked = blanked
        if let device, lease.isHeld { scanOut?.setDPMS(blanked: blanked, on: device) }
        if !blanked, scanOut?.damage.canPresent == true {
            // What was drawn while dark goes out from the loop, which has the newest frame.
            deferred = (deferred?.event ?? .none, MonotonicClock.now())
        }
    }

    /// Restores the console's picture and stops watching. A flip still in flight is not
    /// waited for here: the card is non-blocking, so `handleEvents` only reads an event
    /// already queued, and the restoring modeset is a blocking commit that the kernel
    /// itself holds until the flip before it is done (drm_atomic_helper_setup_commit
    /// stalls on it); only that flip's event is lost, with the descriptor.
    public func close() {
        defer {
            registrations?.detach()
            registrations = nil
        }
        guard let device else { return }
        try? device.handleEvents()
        if device.completedFlips != lastFlipCount { flipLanded(on: device) }
        if let scanOut, lease.holdsMaster {
            // A restored CRTC keeps the connector's DPMS: stopped while blanked, the panel
            // would stay dark over the console it gives back. Lit after the restore, it
            // shows the console straight away rather than our last frame first.
            if let saved = savedCrtcs[scanOut.selection.crtcID] { scanOut.restore(saved, on: device) }
            if blanked {
                blanked = false
                self.scanOut?.setDPMS(blanked: false, on: device)
            }
        }
        dropDevice()
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
        guard let scanOut, scanOut.flips, scanOut.damage.canPresent, !scanOut.needsModeset,
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
        guard let device, lease.isHeld, !blanked, scanOut?.damage.canPresent == true else { return }
        do {
            guard let (shown, copy) = try scanOut!.show(buffer, rotation: rotation, on: device) else { return }
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

    /// The card spoke: flip events, or an error that means it went away.
    private func cardReadable(_ buffer: ShadowBuffer) -> OutputEvent {
        guard let device else { return .none }
        do {
            try device.handleEvents()
        } catch {
            Journal.log(.error, "display: \(error); looking for the display again")
            dropDevice()
            return rescan()
        }
        guard device.completedFlips != lastFlipCount else { return .none }
        flipLanded(on: device)
        do { try flushWhenDue(buffer) } catch { Journal.log(.error, "display: \(error)") }
        return .none
    }

    /// The flip in flight completed: the back buffer is free again and the frames it
    /// carried are on screen since the vblank its event names. A flip of a display
    /// already dropped frees that display's buffers; a release that waited for the
    /// flip drops master now.
    private func flipLanded(on device: any KMSDevice) {
        lastFlipCount = device.completedFlips
        if let retired = retiring {
            retired.scanOut.destroyBuffers(on: device)
            retiring = nil
        } else if scanOut != nil {
            scanOut!.damage.flipCompleted()
            timing.flipLanded(device.lastFlipEvent, mode: scanOut!.selection.mode)
        }
        if lease.flipSettled() { dropMaster(on: device) }
    }

    /// A flip never landed (a wedged driver, a CRTC turned off under it): what waited
    /// for it goes ahead as if it had, so a hand-over is not held up for ever.
    private func flipTimedOut(now: Instant) {
        guard let device else { return }
        if let retired = retiring, retired.by <= now {
            Journal.log(.warning, "display: the flip of the display left behind did not land; freeing its buffers")
            retired.scanOut.destroyBuffers(on: device)
            retiring = nil
        }
        if let by = lease.releaseDue, by <= now {
            Journal.log(.warning, "display: the page flip in flight did not land within \(MasterLease.flipTimeout); giving DRM master away regardless")
            scanOut?.damage.flipCompleted()
            timing.abandon()
            lease.flipSettled()
            dropMaster(on: device)
        }
    }

    // MARK: Master

    /// Asks for master (at start, after a hand-over, on the retry deadline). Taken back
    /// after someone else had it, the CRTC may show their picture: our mode is set again
    /// if so, everything is redrawn, and the loop is told (`.redrawAll`).
    private func takeMaster(regained: Bool, now: Instant) {
        guard let device else { return }
        do {
            try device.setMaster()
        } catch {
            let errno = error.errno
            guard errno == .notPermitted || errno == .permissionDenied || errno == .busy else {
                Journal.log(.error, "display: \(error)")
                return
            }
            if !lease.isWaiting {
                Journal.log(.warning, "display: another program holds DRM master on \(device.path); trying again with back-off")
            }
            lease.refused(now: now)
            return
        }
        let wasWaiting = lease.isWaiting
        lease.took()
        guard scanOut != nil else { return }
        scanOut!.pictureLost(crtcChanged: !scanOut!.crtcIsOurs(on: device))
        if regained || wasWaiting {
            Journal.log(.info, "display: took DRM master on \(device.path)\(scanOut!.needsModeset ? "; setting our mode again" : "")")
            deferred = (.redrawAll, now)
        }
    }

    private func dropMaster(on device: any KMSDevice) {
        do {
            try device.dropMaster()
            Journal.log(.info, "display: gave up DRM master on \(device.path)")
        } catch {
            Journal.log(.warning, "display: \(error)")
        }
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

    /// Finds the card and the selection; sets up buffers when it differs from what is lit.
    /// Returns whether size or rotation (or the display itself) changed. At start, what
    /// waiting cannot fix throws; later, and for what a hotplug may bring, it is logged
    /// once and waited for.
    private func setUp(initial: Bool) throws(DRMError) -> Bool {
        let found: (device: any KMSDevice, card: KMSCard)?
        do {
            found = try Hotplug.locate(request, current: device, opener: opener) { dropDevice() }
        } catch {
            if initial, case .system(_, _, let errno) = error, errno != .noSuchFile, errno != .noSuchDevice { throw error }
            found = nil
            hotplug.noDisplay.say(.warning, "display: \(error); waiting for one")
        }
        guard let (newDevice, card) = found else {
            if device != nil, scanOut != nil { dropDisplay() }
            return false
        }
        let selection: KMSSelection
        do {
            selection = try KMSChoice.select(request, on: card)
        } catch {
            if initial && !error.mayResolveLater { throw .choice(error) }
            hotplug.noDisplay.say(error.mayResolveLater ? .warning : .error, "display: \(error); waiting for hotplug")
            adopt(newDevice)
            if scanOut != nil { dropDisplay() }
            return false
        }
        if let scanOut, device === newDevice, scanOut.shows(selection) { return false }

        adopt(newDevice)
        if scanOut != nil { dropDisplay() }
        if savedCrtcs[selection.crtcID] == nil, let crtc = card.crtc(selection.crtcID) {
            savedCrtcs[selection.crtcID] = crtc
        }
        scanOut = try ScanOut(selection: selection, on: newDevice)
        hotplug.noDisplay.reset()
        let changed = selection.logicalSize != size || selection.rotation != rotation || !initial
        size = selection.logicalSize
        rotation = selection.rotation
        Journal.log(.info, "display: \(newDevice.path) (\(card.driver)) \(selection.connector.name) \(selection.mode) (\(selection.modeReason)), CRTC \(selection.crtcID), rotation \(rotation.degrees)")
        if wanted && !lease.holdsMaster { takeMaster(regained: false, now: MonotonicClock.now()) }
        return changed
    }

    private func adopt(_ newDevice: any KMSDevice) {
        guard device !== newDevice else { return }
        if device != nil { dropDevice() }
        device = newDevice
        lease.cardGone()
        lastFlipCount = newDevice.completedFlips
        registrations?.watch(newDevice.fileDescriptor, as: .card)
    }

    /// Forgets the lit display (its connector went away). Its buffers are freed now, or,
    /// with its flip still in flight, when that lands or times out: freeing a buffer the
    /// kernel is about to scan out turns the CRTC off under the flip.
    private func dropDisplay() {
        guard let scanOut, let device else { return }
        if let retired = retiring { retired.scanOut.destroyBuffers(on: device) }
        if scanOut.damage.flipPending {
            retiring = (scanOut, MonotonicClock.now() + MasterLease.flipTimeout)
        } else {
            retiring = nil
            scanOut.destroyBuffers(on: device)
        }
        timing.abandon()
        self.scanOut = nil
        Journal.log(.notice, "display: leaving \(scanOut.selection.connector.name) \(scanOut.selection.mode)")
    }

    /// The card is closed or gone: everything on it goes with it, nothing is waited for.
    private func dropDevice() {
        if let device {
            scanOut?.destroyBuffers(on: device)
            retiring?.scanOut.destroyBuffers(on: device)
        }
        timing.abandon()
        scanOut = nil
        retiring = nil
        device = nil
        lease.cardGone()
        savedCrtcs = [:]
        registrations?.watch(nil, as: .card)
    }
}
