import GridlockCore
import LinuxSys

/// The open card and what this process lit on it: the scan-out in use, one left behind
/// with its flip still in flight, and the CRTCs as first found, restored at exit.
///
/// Buffers are freed only when the kernel no longer needs them: a scan-out left behind
/// (its connector unplugged, another chosen) keeps its buffers until its flip lands or
/// the flip timeout passes, since freeing a buffer the kernel is about to scan out turns
/// the CRTC off under the flip.
struct LitCard {
    let device: any KMSDevice
    var scanOut: ScanOut?
    private(set) var retiring: (scanOut: ScanOut, by: Instant)?
    /// CRTC states as first seen, before this process set any mode.
    private var savedCrtcs: [UInt32: KMSCrtc] = [:]
    private var lastFlipCount: UInt32

    init(_ device: any KMSDevice) {
        self.device = device
        lastFlipCount = device.completedFlips
    }

    /// A flip is in flight on this card, ours or the one left behind.
    var flipPending: Bool { scanOut?.damage.flipPending == true || retiring != nil }

    /// Lights `selection` with fresh buffers, keeping its CRTC's picture the first time.
    mutating func light(_ selection: KMSSelection, card: KMSCard) throws(DRMError) {
        if savedCrtcs[selection.crtcID] == nil, let crtc = card.crtc(selection.crtcID) {
            savedCrtcs[selection.crtcID] = crtc
        }
        scanOut = try ScanOut(selection: selection, on: device)
    }

    /// Forgets the lit display: freed now, or left behind until its flip lands.
    mutating func dropDisplay(now: Instant) {
        guard let scanOut else { return }
        if let retired = retiring { retired.scanOut.destroyBuffers(on: device) }
        retiring = nil
        if scanOut.damage.flipPending {
            retiring = (scanOut, now + MasterLease.flipTimeout)
        } else {
            scanOut.destroyBuffers(on: device)
        }
        self.scanOut = nil
        Journal.log(.notice, "display: leaving \(scanOut.selection.connector.name) \(scanOut.selection.mode)")
    }

    enum Landed: Equatable {
        case nothing
        /// The flip of the scan-out in use: its back buffer is free again.
        case ours
        /// The flip of the one left behind, whose buffers are now freed.
        case leftBehind
    }

    /// Reads the card's queued events; the descriptor is non-blocking, so this never
    /// waits. Throws when the card went away.
    mutating func readEvents() throws(DRMError) -> Landed {
        try device.handleEvents()
        guard device.completedFlips != lastFlipCount else { return .nothing }
        lastFlipCount = device.completedFlips
        if let retired = retiring {
            retired.scanOut.destroyBuffers(on: device)
            retiring = nil
            return .leftBehind
        }
        guard scanOut != nil else { return .leftBehind }
        scanOut!.damage.flipCompleted()
        return .ours
    }

    /// The flip of the one left behind never landed by `now`: freed regardless.
    mutating func retiringTimedOut(now: Instant) {
        guard let retired = retiring, retired.by <= now else { return }
        Journal.log(.warning, "display: the flip of the display left behind did not land; freeing its buffers")
        retired.scanOut.destroyBuffers(on: device)
        retiring = nil
    }

    /// Puts back the picture found at start. A restored CRTC keeps the connector's DPMS:
    /// stopped while blanked, the panel would stay dark over the console it gives back;
    /// lit after the restore, it shows the console straight away rather than our frame.
    mutating func restore(unblanking: Bool) {
        guard scanOut != nil else { return }
        if let saved = savedCrtcs[scanOut!.selection.crtcID] { scanOut!.restore(saved, on: device) }
        if unblanking { scanOut!.setDPMS(blanked: false, on: device) }
    }

    /// Frees every buffer; the card is being closed or is gone.
    mutating func freeAll() {
        scanOut?.destroyBuffers(on: device)
        retiring?.scanOut.destroyBuffers(on: device)
        scanOut = nil
        retiring = nil
    }
}
