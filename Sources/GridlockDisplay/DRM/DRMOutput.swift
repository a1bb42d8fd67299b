import GridlockCore
import LinuxSys

/// `[display] backend=drm`: the lock screen lit directly through KMS, as Plymouth and
/// kmscube do, with no compositor.
///
/// - Two XRGB8888 dumb buffers; only the damaged rectangles (per buffer, everything drawn
///   since it was last shown, see `BufferDamage`) are copied out of the shadow frame,
///   turned by `rotation` on the way; presented with a page flip whose completion
///   arrives on the DRM fd in the daemon's poll loop. At most one flip is in flight;
///   frames presented meanwhile coalesce into the next one, which is requested shortly
///   before the coming vblank (`FlipSchedule`) so that input read until then rides it.
///   Each input frame's vblank is recorded (`VblankLatency`) and logged per stroke.
/// - Where page flips are refused, one buffer plus `drmModeDirtyFB` (not called again
///   after ENOSYS, as Plymouth does).
/// - DRM master is state: dropped on `setActive(false)`, taken back on `setActive(true)`
///   (retrying with back-off while someone else holds it), and the CRTC set again if
///   another program changed it meanwhile.
/// - No display at start (panel late, simpledrm about to be replaced): keeps running and
///   looks again on DRM uevents, coalescing bursts; reports `.resized` when one appears.
/// - Nothing changes on screen, nothing wakes up: the only timers are one-shot (uevent
///   coalescing, master retry) and armed only while such a thing is pending.
public final class DRMOutput: DisplayOutput {
    public private(set) var size: Size
    public private(set) var rotation: Rotation

    private let request: KMSRequest
    private var device: (any KMSDevice)?
    private let opener: KMSDeviceOpener
    private var display: Display?
    /// CRTC states as first seen, before this process set any mode: restored on exit.
    private var savedCrtcs: [UInt32: KMSCrtc] = [:]
    private let uevents: NetlinkUevents?
    private let rescanTimer: TimerFD
    private let masterRetryTimer: TimerFD
    /// Fires at the latest moment to request the next flip (`FlipSchedule`).
    private let flipTimer: TimerFD
    private var flipTimerArmed = false
    private var schedule = FlipSchedule()
    private let wakeup: EventFD

    /// The daemon wants the display (false during a hand-over).
    private var wantActive = true
    private var hasMaster = false
    /// Frames scanned out (a modeset, a queued flip, or a DirtyFB'd buffer) since start.
    private var framesShown = 0
    private var masterRetryDelay: Duration = .zero
    private var loggedMasterBusy = false
    private var blanked = false
    private var rescanArmed = false
    private var lastFlipCount: UInt32 = 0
    /// Answered by the next `handleReadable` of the wake-up descriptor.
    private var pendingEvent: OutputEvent = .none
    private var loggedNoDisplay = false
    private var loggedSizeMismatch = false
    private var loggedNoDPMS = false
    private var latency = VblankLatency()
    /// Whether flip events carry a vblank sequence; unknown (nil) until the first one.
    private var hasVblankClock: Bool?
    /// When the newest page flip was requested.
    private var lastFlipQueued: Instant?
    /// Copying the damage during the current `present`, which the daemon's drawing time includes.
    private var copyDuringPresent: Duration = .zero

    /// One lit connector with its buffers.
    private struct Display {
        var selection: KMSSelection
        var buffers: [DumbBuffer]
        var damage: BufferDamage
        var needsModeset = true
        /// False after the driver refused a page flip: one buffer, DirtyFB.
        var flips = true
        var flipsDone = 0
        var dirtyFB = true
    }

    /// Coalescing window for a burst of uevents (a monitor plugged in sends several).
    static let rescanDelay = Duration.milliseconds(150)
    static let masterRetryFirst = Duration.milliseconds(250)
    static let masterRetryMax = Duration.seconds(8)

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
        do {
            rescanTimer = try TimerFD()
            masterRetryTimer = try TimerFD()
            flipTimer = try TimerFD()
            wakeup = try EventFD()
        } catch {
            throw .system(path: "drm", operation: error.operation, errno: error.errno)
        }
        do {
            uevents = hotplug ? try NetlinkUevents() : nil
        } catch {
            // Containers and some sandboxes refuse the uevent socket: the panel then works
            // as found at start, without hotplug.
            Journal.log(.warning, "display hotplug disabled: \(error)")
            uevents = nil
        }
        _ = try setUp(initial: true)
    }

    deinit {
        if let device, let display {
            for buffer in display.buffers { device.destroy(buffer) }
        }
    }

    // MARK: DisplayOutput

    /// A display shows the lock screen: one is there, a frame reached it, and the panel is
    /// ours (or handed over to an action on purpose).
    public var isShowingFrames: Bool {
        display != nil && framesShown > 0 && (hasMaster || !wantActive)
    }

    public var connectedDisplay: String? {
        guard let display, let device else { return nil }
        return "\(device.path) \(display.selection.connector.name)"
    }

    public var descriptors: [FileDescriptor] {
        var fds: [FileDescriptor] = []
        if let device { fds.append(device.fileDescriptor) }
        if let uevents { fds.append(uevents.fileDescriptor) }
        fds.append(rescanTimer.fileDescriptor)
        fds.append(masterRetryTimer.fileDescriptor)
        fds.append(flipTimer.fileDescriptor)
        fds.append(wakeup.fileDescriptor)
        return fds
    }

    // For the tests, which drive `handleReadable` by hand.
    var rescanDescriptor: FileDescriptor { rescanTimer.fileDescriptor }
    var masterRetryDescriptor: FileDescriptor { masterRetryTimer.fileDescriptor }
    var flipDescriptor: FileDescriptor { flipTimer.fileDescriptor }
    var wakeupDescriptor: FileDescriptor { wakeup.fileDescriptor }
    var latencyRecords: [VblankLatency.Record] { latency.records }

    public func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError) {
        guard display != nil else { return }
        display!.damage.add(damage)
        copyDuringPresent = .zero
        try flushWhenDue(buffer)
    }

    /// Shows what is stale now, or arms the flip timer for the latest moment that still
    /// makes the coming vblank, so that input read until then rides the same flip.
    private func flushWhenDue(_ buffer: ShadowBuffer) throws(DisplayError) {
        guard let display, display.flips, display.damage.canPresent, !display.needsModeset else {
            try flush(buffer)
            return
        }
        if let deadline = schedule.deadline(now: MonotonicClock.now()) {
            if !flipTimerArmed {
                flipTimerArmed = (try? flipTimer.arm(at: deadline)) != nil
                if flipTimerArmed { return }
            } else {
                return
            }
        }
        try flush(buffer)
    }

    public func noteFrame(answering inputs: [Instant], drawing: Duration) {
        guard let display, display.flips, !inputs.isEmpty, hasVblankClock != false else { return }
        let queued: Instant?
        if display.damage.hasUnshownDamage {
            queued = nil  // waits for the pending flip; goes out with the next one
        } else if display.damage.flipPending, let lastFlipQueued {
            queued = lastFlipQueued
        } else {
            return  // shown at once by a modeset, or not at all: no vblank to count
        }
        latency.presented(answering: inputs, render: drawing - copyDuringPresent, now: MonotonicClock.now(), queued: queued)
    }

    public func endStroke() {
        if let report = latency.endStroke() { log(report) }
    }

    /// Per stroke, at debug priority: what `gridlock latency` reads back.
    private func log(_ report: VblankStrokeReport) {
        Journal.log(.debug, report.logLine)
    }

    /// The mode's frame period, as the kernel computes it (`drm_calc_timestamping_constants`).
    private static func framePeriod(_ mode: KMSMode) -> Duration {
        if mode.clock > 0, mode.htotal > 0, mode.vtotal > 0 {
            return .nanoseconds(Int64(mode.htotal) * Int64(mode.vtotal) * 1_000_000 / Int64(mode.clock))
        }
        return .nanoseconds(1_000_000_000 / Int64(max(mode.vrefresh, 1)))
    }

    /// Whatever waits for a flip that will not come is given up (and counted as such).
    private func abandonLatency() {
        if let report = latency.abandon() { log(report) }
    }

    public func handleReadable(_ descriptor: FileDescriptor, buffer: ShadowBuffer) -> OutputEvent {
        if let device, descriptor == device.fileDescriptor {
            do {
                try device.handleEvents()
            } catch {
                Journal.log(.error, "display: \(error); looking for the display again")
                dropDevice()
                return rescan()
            }
            let completed = device.completedFlips
            if completed != lastFlipCount {
                flipLanded(on: device)
                do {
                    try flushWhenDue(buffer)
                } catch {
                    Journal.log(.error, "display: \(error)")
                }
            }
            return .none
        }
        if let uevents, descriptor == uevents.fileDescriptor {
            handleUevents(uevents)
            return .none
        }
        if descriptor == rescanTimer.fileDescriptor {
            _ = try? rescanTimer.acknowledge()
            rescanArmed = false
            return rescan()
        }
        if descriptor == flipTimer.fileDescriptor {
            _ = try? flipTimer.acknowledge()
            flipTimerArmed = false
            do { try flush(buffer) } catch { Journal.log(.error, "display: \(error)") }
            return .none
        }
        if descriptor == masterRetryTimer.fileDescriptor {
            _ = try? masterRetryTimer.acknowledge()
            if wantActive && !hasMaster { takeMaster(regained: true) }
            return takePendingEvent()
        }
        if descriptor == wakeup.fileDescriptor {
            _ = try? wakeup.consume()
            let event = takePendingEvent()
            if event == .none {
                do { try flush(buffer) } catch { Journal.log(.error, "display: \(error)") }
            }
            return event
        }
        return .none
    }

    public func setActive(_ active: Bool) {
        wantActive = active
        if active {
            if !hasMaster { takeMaster(regained: true) }
            return
        }
        disarm(masterRetryTimer)
        guard let device, hasMaster else { return }
        waitForPendingFlip()
        do {
            try device.dropMaster()
            Journal.log(.info, "display: gave up DRM master on \(device.path)")
        } catch {
            Journal.log(.warning, "display: \(error)")
        }
        hasMaster = false
    }

    public func setBlanked(_ blanked: Bool) {
        guard blanked != self.blanked else { return }
        self.blanked = blanked
        applyDPMS()
        if !blanked, display?.damage.canPresent == true {
            // What was drawn while dark goes out from the loop, which has the newest frame.
            wakeup.signal()
        }
    }

    public func close() {
        guard let device else { return }
        if let display, hasMaster {
            waitForPendingFlip()
            // A restored CRTC keeps the connector's DPMS: stopped while blanked, the panel
            // would stay dark over the console it gives back. Lit after the restore, it
            // shows the console straight away rather than our last frame first.
            restore(crtc: display.selection.crtcID, connector: display.selection.connector.id, on: device)
            if blanked {
                blanked = false
                applyDPMS()
            }
        }
        dropDevice()
    }

    // MARK: Presenting

    /// Shows what is stale, if the display can show anything now.
    private func flush(_ buffer: ShadowBuffer) throws(DisplayError) {
        guard let device, var display, hasMaster, !blanked, display.damage.canPresent else { return }
        let mode = display.selection.mode
        let physicalWidth = rotation.swapsAxes ? buffer.height : buffer.width
        let physicalHeight = rotation.swapsAxes ? buffer.width : buffer.height
        guard physicalWidth == mode.width, physicalHeight == mode.height else {
            // The loop has not caught up with a `.resized` yet; the full redraw follows.
            if !loggedSizeMismatch {
                loggedSizeMismatch = true
                Journal.log(.debug, "display: frame \(buffer.width)x\(buffer.height) does not fit \(mode) turned \(rotation.degrees); waiting for the redraw")
            }
            return
        }
        loggedSizeMismatch = false
        let (index, rects) = display.damage.beginFrame()
        let target = display.buffers[index]
        let copyStart = MonotonicClock.now()
        buffer.copy(rects: rects, to: target.pixels, destinationStride: target.stride, rotation: rotation)
        let copied = MonotonicClock.now()
        copyDuringPresent += copied.duration(since: copyStart)
        let selection = display.selection
        defer { self.display = display }
        do {
            if display.needsModeset {
                try device.setCrtc(selection.crtcID, framebufferID: target.framebufferID, x: 0, y: 0, connectorID: selection.connector.id, mode: mode)
                display.needsModeset = false
                display.damage.shown(index, flipping: false)
                abandonLatency()
                if blanked { applyDPMS() }
            } else if display.flips {
                do {
                    try device.pageFlip(selection.crtcID, framebufferID: target.framebufferID)
                    display.flipsDone += 1
                    display.damage.shown(index, flipping: true)
                    let queued = MonotonicClock.now()
                    lastFlipQueued = queued
                    schedule.flipRequested(at: queued)
                    if flipTimerArmed {
                        flipTimerArmed = false
                        disarm(flipTimer)
                    }
                    latency.flipQueued(at: queued, copy: copied.duration(since: copyStart))
                } catch let error where display.flipsDone == 0 && Self.meansNoFlips(error.errno) {
                    // The driver has no page flip: show this buffer with a modeset and
                    // from now on draw into it directly, telling the driver with DirtyFB.
                    Journal.log(.notice, "display: \(device.path) cannot flip pages (\(error.errno.map { "\($0)" } ?? "")); drawing into one buffer with DirtyFB")
                    try device.setCrtc(selection.crtcID, framebufferID: target.framebufferID, x: 0, y: 0, connectorID: selection.connector.id, mode: mode)
                    for (other, b) in display.buffers.enumerated() where other != index { device.destroy(b) }
                    display.buffers = [target]
                    display.flips = false
                    abandonLatency()
                    var single = BufferDamage(frame: display.damage.frame, count: 1)
                    _ = single.beginFrame()
                    single.shown(0, flipping: false)
                    display.damage = single
                }
            } else {
                display.damage.shown(index, flipping: false)
                if display.dirtyFB {
                    let logical = Size(width: Double(buffer.width), height: Double(buffer.height))
                    let clips = rects.map { rotation.physicalRect($0.integral, logical: logical) }
                    if let errno = device.dirtyFramebuffer(target.framebufferID, physicalRects: clips), errno == .notImplemented {
                        display.dirtyFB = false
                    }
                }
            }
        } catch {
            display.damage.failed(index)
            abandonLatency()
            if error.errno == .permissionDenied || error.errno == .notPermitted {
                // Someone took master without telling us (a VT switch, a crashed session
                // manager): wait to be made active again instead of failing every frame.
                Journal.log(.warning, "display: lost DRM master on \(device.path): \(error)")
                hasMaster = false
                self.display = display
                if wantActive { takeMaster(regained: true) }
                return
            }
            throw error.asDisplayError
        }
        framesShown += 1
    }

    private static func meansNoFlips(_ errno: Errno?) -> Bool {
        guard let errno else { return false }
        return errno == .invalidArgument || errno == .notImplemented || errno == .notSupported
    }

    /// Lets a flip in flight land (at most half a second) so the CRTC is idle before
    /// giving it away or restoring it.
    private func waitForPendingFlip() {
        guard let device, display?.damage.flipPending == true else { return }
        if device.waitForEvent(milliseconds: 500) {
            try? device.handleEvents()
        }
        if device.completedFlips != lastFlipCount { flipLanded(on: device) }
    }

    /// The flip in flight completed: the back buffer is free again, and the frames it
    /// carried are on screen since the vblank its event names.
    private func flipLanded(on device: any KMSDevice) {
        lastFlipCount = device.completedFlips
        display?.damage.flipCompleted()
        guard let mode = display?.selection.mode else { return }
        let event = device.lastFlipEvent
        guard event.sequence != 0 else {
            // The driver has no vblank (bochs, virtio-gpu: the event comes when the flip is
            // done, with sequence 0 and the time of sending): nothing to latch to or count on.
            hasVblankClock = false
            latency = VblankLatency()
            return
        }
        hasVblankClock = true
        let period = Self.framePeriod(mode)
        if schedule.flipLanded(at: event.time, period: period) {
            latency.noteLateFlip()
            Journal.log(.debug, "display: a flip landed a vblank late; requesting flips \(schedule.margin.nanoseconds / 1000) us before the vblank")
        }
        if let report = latency.flipCompleted(
            sequence: event.sequence, vblank: event.time, period: period, latchMargin: schedule.margin) {
            log(report)
        }
    }

    // MARK: Master

    private func takeMaster(regained: Bool) {
        guard let device else { return }
        do {
            try device.setMaster()
        } catch {
            let errno = error.errno
            if errno == .notPermitted || errno == .permissionDenied || errno == .busy {
                if !loggedMasterBusy {
                    loggedMasterBusy = true
                    Journal.log(.warning, "display: another program holds DRM master on \(device.path); trying again with back-off")
                }
                masterRetryDelay = masterRetryDelay == .zero ? Self.masterRetryFirst : min(masterRetryDelay * 2, Self.masterRetryMax)
                try? masterRetryTimer.arm(at: MonotonicClock.now() + masterRetryDelay)
            } else {
                Journal.log(.error, "display: \(error)")
            }
            return
        }
        let wasWaiting = loggedMasterBusy
        hasMaster = true
        loggedMasterBusy = false
        masterRetryDelay = .zero
        disarm(masterRetryTimer)
        guard var display else { return }
        // Another program may have set its own mode or buffer while we were away.
        let ours = Set(display.buffers.map(\.framebufferID))
        let crtc = device.readCrtc(display.selection.crtcID)
        if crtc.map({ !ours.contains($0.bufferID) || !($0.mode?.hasSameTimings(as: display.selection.mode) ?? false) }) ?? true {
            display.needsModeset = true
        }
        display.damage.invalidateAll()
        self.display = display
        if regained || wasWaiting {
            Journal.log(.info, "display: took DRM master on \(device.path)\(display.needsModeset ? "; setting our mode again" : "")")
            pendingEvent = .redrawAll
            wakeup.signal()
        }
    }

    private func takePendingEvent() -> OutputEvent {
        let event = pendingEvent
        pendingEvent = .none
        return event
    }

    // MARK: Blanking

    private func applyDPMS() {
        guard let device, let display, hasMaster else { return }
        guard let property = display.selection.connector.dpmsPropertyID else {
            if !loggedNoDPMS {
                loggedNoDPMS = true
                Journal.log(.warning, "display: \(display.selection.connector.name) has no DPMS property; cannot blank it")
            }
            return
        }
        let level = blanked ? DRMModeConstants.DRM_MODE_DPMS_OFF : DRMModeConstants.DRM_MODE_DPMS_ON
        do {
            try device.setConnectorProperty(display.selection.connector.id, property: property, value: level, name: "DPMS")
        } catch {
            Journal.log(.error, "display: \(error)")
        }
    }

    // MARK: Finding the display

    private func handleUevents(_ uevents: NetlinkUevents) {
        let batch: (events: [Uevent], overflowed: Bool)
        do {
            batch = try uevents.readEvents()
        } catch {
            Journal.log(.error, "display hotplug: \(error)")
            return
        }
        let relevant = batch.overflowed || batch.events.contains {
            $0.subsystem == "drm" && ["change", "add", "remove"].contains($0.action)
        }
        guard relevant, !rescanArmed else { return }
        // The first event of a burst opens a short window; the rest of the burst falls in
        // it, and one rescan covers them all.
        rescanArmed = true
        try? rescanTimer.arm(at: MonotonicClock.now() + Self.rescanDelay)
    }

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
    /// Returns whether size or rotation (or the display itself) changed.
    private func setUp(initial: Bool) throws(DRMError) -> Bool {
        let found: (any KMSDevice, KMSCard)?
        do {
            found = try locate()
        } catch {
            if initial, case .system(_, _, let errno) = error, errno != .noSuchFile, errno != .noSuchDevice { throw error }
            found = nil
            if !loggedNoDisplay { Journal.log(.warning, "display: \(error); waiting for one") }
            loggedNoDisplay = true
        }
        guard let (newDevice, card) = found else {
            if device != nil, display != nil { dropDisplay() }
            return false
        }
        let selection: KMSSelection
        do {
            selection = try KMSChoice.select(request, on: card)
        } catch {
            if initial && !error.mayResolveLater { throw .choice(error) }
            if !loggedNoDisplay {
                loggedNoDisplay = true
                Journal.log(error.mayResolveLater ? .warning : .error, "display: \(error); waiting for hotplug")
            }
            adopt(newDevice)
            if display != nil { dropDisplay() }
            return false
        }
        if let display, device === newDevice, Self.same(display.selection, selection) { return false }

        adopt(newDevice)
        if display != nil { dropDisplay() }
        let device = newDevice
        if savedCrtcs[selection.crtcID] == nil, let crtc = card.crtc(selection.crtcID) {
            savedCrtcs[selection.crtcID] = crtc
        }
        var buffers: [DumbBuffer] = []
        for _ in 0..<2 {
            do {
                buffers.append(try device.createDumbBuffer(width: selection.mode.width, height: selection.mode.height))
            } catch {
                for buffer in buffers { device.destroy(buffer) }
                throw error
            }
        }
        let logical = selection.logicalSize
        display = Display(
            selection: selection, buffers: buffers,
            damage: BufferDamage(frame: Rect(origin: .zero, size: logical), count: buffers.count))
        loggedNoDisplay = false
        let changed = logical != size || selection.rotation != rotation || !initial
        size = logical
        rotation = selection.rotation
        Journal.log(.info, "display: \(device.path) (\(card.driver)) \(selection.connector.name) \(selection.mode) (\(selection.modeReason)), CRTC \(selection.crtcID), rotation \(rotation.degrees)")
        if wantActive && !hasMaster { takeMaster(regained: false) }
        return changed
    }

    private static func same(_ a: KMSSelection, _ b: KMSSelection) -> Bool {
        a.connector.id == b.connector.id && a.crtcID == b.crtcID && a.rotation == b.rotation
            && a.mode.hasSameTimings(as: b.mode)
    }

    /// The card to use: the configured one, or the first suitable one (`KMSChoice.card`).
    /// The one already open is reused so master and buffers stay valid.
    private func locate() throws(DRMError) -> (any KMSDevice, KMSCard) {
        if let device {
            do {
                let card = try device.readCard()
                if case .path = request.device { return (device, card) }
                if (try? KMSChoice.select(request, on: card)) != nil { return (device, card) }
            } catch {
                // The card went away (driver unbound): forget it and look anew.
                dropDevice()
            }
        }
        switch request.device {
        case .path(let path):
            let device = try opener.open(path)
            return (device, try device.readCard())
        case .auto:
            let cards = opener.openAll()
            guard let chosen = KMSChoice.card(request, among: cards.opened.map(\.card)),
                  let pair = cards.opened.first(where: { $0.card.path == chosen.path }) else {
                throw .noCard(tried: cards.tried)
            }
            if let device, device.path == pair.device.path,
               let card = cards.opened.first(where: { $0.card.path == device.path })?.card {
                return (device, card)
            }
            return (pair.device, pair.card)
        }
    }

    private func adopt(_ newDevice: any KMSDevice) {
        guard device !== newDevice else { return }
        if device != nil { dropDevice() }
        device = newDevice
        hasMaster = false
        lastFlipCount = newDevice.completedFlips
    }

    /// Forgets the lit display (its connector went away): buffers freed, nothing restored.
    private func dropDisplay() {
        guard let display else { return }
        if let device {
            waitForPendingFlip()
            for buffer in display.buffers { device.destroy(buffer) }
        }
        abandonLatency()
        self.display = nil
        Journal.log(.notice, "display: leaving \(display.selection.connector.name) \(display.selection.mode)")
    }

    private func dropDevice() {
        if let device, let display {
            for buffer in display.buffers { device.destroy(buffer) }
        }
        abandonLatency()
        display = nil
        device = nil
        hasMaster = false
        savedCrtcs = [:]
    }

    /// Puts back what the CRTC showed before this process first set a mode (the console,
    /// a boot splash), or turns it off if it showed nothing.
    private func restore(crtc crtcID: UInt32, connector: UInt32, on device: any KMSDevice) {
        guard let saved = savedCrtcs[crtcID] else { return }
        do {
            if saved.bufferID != 0, let mode = saved.mode {
                try device.setCrtc(crtcID, framebufferID: saved.bufferID, x: saved.x, y: saved.y, connectorID: connector, mode: mode)
                Journal.log(.info, "display: restored the previous picture on CRTC \(crtcID)")
            } else {
                try device.disableCrtc(crtcID)
            }
        } catch {
            // The framebuffer we found was another program's and is gone: removing ours
            // (when the device closes) turns the CRTC off, which is the best left to do.
            Journal.log(.warning, "display: cannot restore the previous picture: \(error)")
        }
    }

    private func disarm(_ timer: TimerFD) { try? timer.disarm() }
}

extension DRMDevice {
    /// Every /dev/dri/card* that opens and exposes KMS resources, in numeric order; `tried`
    /// names every card looked at, with why it could not be used (a sandbox's EPERM, say).
    static func openAll(directory: String = "/dev/dri") -> (opened: [(device: DRMDevice, card: KMSCard)], tried: [String]) {
        let paths = KMSChoice.cardPaths(inDirectoryEntries: (try? Directory.entries(directory)) ?? [], directory: directory)
        var opened: [(DRMDevice, KMSCard)] = []
        var tried: [String] = []
        for path in paths {
            do throws(DRMError) {
                let device = try DRMDevice(path: path)
                opened.append((device, try device.readCard()))
                tried.append(path)
            } catch {
                tried.append("\(path) (\(error.errno.map { "\($0)" } ?? "\(error)"))")
            }
        }
        return (opened, tried)
    }
}
