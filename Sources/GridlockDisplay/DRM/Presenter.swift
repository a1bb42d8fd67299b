import GridlockCore
import GridlockRendering
import LinuxSys

/// Getting frames onto the lit card: the `LitCard`, the `FlipTiming` of its flips, and
/// whether the panel is dark. It decides when a frame goes out (now, or at the latch
/// deadline), shows it, and reads what the card says about flips in flight; whether
/// master allows showing anything is the output's to say, with `MasterLease`.
struct Presenter {
    var lit: LitCard?
    private(set) var timing = FlipTiming()
    private(set) var blanked = false
    /// Frames scanned out (a modeset, a queued flip, or a DirtyFB'd buffer) since start.
    private(set) var framesShown = 0

    var device: (any KMSDevice)? { lit?.device }
    var hasStale: Bool { lit?.scanOut?.damage.canPresent == true }
    var hasShownFrames: Bool { lit?.scanOut != nil && framesShown > 0 }
    var flipPending: Bool { lit?.flipPending == true }
    /// When the display left behind is freed even if its flip never lands.
    var retiringDue: Instant? { lit?.retiring?.by }

    /// The card and connector in use, as `gridlockd` reports them.
    var displayName: String? {
        guard let lit, let scanOut = lit.scanOut else { return nil }
        return "\(lit.device.path) \(scanOut.selection.connector.name)"
    }

    /// `damage` is stale on the lit display; false when none is lit.
    mutating func add(_ damage: Damage) -> Bool {
        guard lit?.scanOut != nil else { return false }
        lit!.scanOut!.damage.add(damage)
        timing.presentBegins()
        return true
    }

    mutating func noteFrame(answering inputs: [Instant], samples: [TipLagMeter.Sample], tip: Point?, drawing: Duration, now: Instant) {
        guard let scanOut = lit?.scanOut else { return }
        timing.noteFrame(answering: inputs, samples: samples, tip: tip, drawing: drawing, on: scanOut, now: now)
    }

    mutating func endStroke() { timing.endStroke() }

    /// Whether what is stale waits for the latch deadline (the latest moment that still
    /// makes the coming vblank), so that input read until then rides the flip. Only
    /// flips wait: a modeset or a DirtyFB'd buffer is on screen at once anyway.
    private mutating func waitsForLatch(now: Instant) -> Bool {
        guard let scanOut = lit?.scanOut, scanOut.flips, scanOut.damage.canPresent, !scanOut.needsModeset else { return false }
        return timing.holdsFlip(now: now)
    }

    /// The latch deadline came: what waited goes out now.
    mutating func latchPassed() { timing.latchDue = nil }

    enum Flushed: Equatable {
        case done
        /// The frame was refused with EPERM: someone took master without telling us.
        case masterLost
    }

    /// Shows what is stale (`whenDue`: unless it waits for the latch deadline) while master
    /// is held and the panel is lit. Failures other than EPERM are thrown, the damage kept
    /// for the next try.
    mutating func flush(
        _ buffer: ShadowBuffer, rotation: Rotation, whenDue: Bool, masterHeld: Bool, now: Instant
    ) throws(DisplayError) -> Flushed {
        if whenDue && waitsForLatch(now: now) { return .done }
        guard let device = lit?.device, masterHeld, !blanked, hasStale else { return .done }
        do {
            guard let (shown, copy, commit) = try lit!.scanOut!.show(buffer, rotation: rotation, on: device) else { return .done }
            // Queued once copied and committed, which began at `now`.
            timing.shown(shown, copy: copy, commit: commit, at: now + copy + commit)
            framesShown += 1
            return .done
        } catch {
            timing.abandon()
            guard error.errno == .permissionDenied || error.errno == .notPermitted else { throw error.asDisplayError }
            Journal.log(.warning, "display: lost DRM master on \(device.path): \(error)")
            return .masterLost
        }
    }

    /// Reads the card's events: a flip of ours that landed tells the timing at which
    /// vblank (the frames it carried are on screen since then). Throws when the card
    /// went away.
    mutating func readFlipEvents() throws(DRMError) -> LitCard.Landed {
        guard lit != nil else { return .nothing }
        let landed = try lit!.readEvents()
        if landed == .ours, let mode = lit!.scanOut?.selection.mode { timing.flipLanded(lit!.device.lastFlipEvent, mode: mode) }
        return landed
    }

    /// At close: takes an event already queued, never waits; whether a flip landed.
    mutating func drainEvents() -> Bool {
        guard let landed = try? lit?.readEvents() else { return false }
        return landed != .nothing
    }

    /// The flip of the display left behind never landed by `now`: freed regardless.
    mutating func retiringTimedOut(now: Instant) { lit?.retiringTimedOut(now: now) }

    /// The flip in flight is not waited for any longer (it did not land within the flip
    /// timeout): its buffer counts as free and what waited for its vblank is given up.
    mutating func giveUpFlip() {
        lit?.scanOut?.damage.flipCompleted()
        timing.abandon()
    }

    /// Master came back after someone else had it: their picture may be on the CRTC, so
    /// our mode is set again if it is, and every pixel is stale. Nil with nothing lit;
    /// otherwise whether a modeset is due.
    mutating func masterRegained() -> Bool? {
        guard let device = lit?.device, let scanOut = lit?.scanOut else { return nil }
        lit!.scanOut!.pictureLost(crtcChanged: !scanOut.crtcIsOurs(on: device))
        return lit!.scanOut!.needsModeset
    }

    /// The panel dark or lit (DPMS, only while master is ours); true when what was drawn
    /// while dark is to go out now.
    mutating func setBlanked(_ blanked: Bool, holdingMaster: Bool) -> Bool {
        guard blanked != self.blanked else { return false }
        self.blanked = blanked
        if let device = lit?.device, holdingMaster { lit!.scanOut?.setDPMS(blanked: blanked, on: device) }
        return !blanked && hasStale
    }

    /// At exit: the picture found at start is put back where master is still ours.
    mutating func restore(holdingMaster: Bool) {
        if holdingMaster { lit?.restore(unblanking: blanked) }
        blanked = false
    }

    /// Acts on what `Hotplug.find` found (the output has let go of another card first):
    /// its card becomes the one in use, what was lit is dropped, and a new selection is
    /// lit with fresh buffers. Returns that selection.
    mutating func take(_ finding: Hotplug.Finding, now: Instant) throws(DRMError) -> KMSSelection? {
        if case .unchanged = finding { return nil }
        if let device = finding.device, lit?.device !== device { lit = LitCard(device) }
        dropDisplay(now: now)
        guard case .display(let device, let card, let selection) = finding else { return nil }
        try lit!.light(selection, card: card)
        Journal.log(.info, "display: \(device.path) (\(card.driver)) \(selection.connector.name) \(selection.mode) (\(selection.modeReason)), CRTC \(selection.crtcID), rotation \(selection.rotation.degrees)")
        return selection
    }

    /// The card is closed or gone: everything on it goes with it, nothing is waited for.
    mutating func closeCard() {
        lit?.freeAll()
        lit = nil
        timing.abandon()
    }

    /// Forgets the lit display (its connector went away, or another is chosen); what
    /// waited for one of its flips is given up.
    private mutating func dropDisplay(now: Instant) {
        lit?.dropDisplay(now: now)
        timing.abandon()
    }
}
