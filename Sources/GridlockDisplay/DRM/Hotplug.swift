import GridlockCore
import LinuxSys

/// Noticing that the display may have changed, and finding the card again.
///
/// A monitor plugged in, a driver bound late (simpledrm handing over to the real one) or
/// a connector gone each send a burst of DRM uevents; one rescan after the burst covers
/// them all. Nothing here wakes up on its own: `rescanDue` is set only by a relevant
/// uevent and cleared by the rescan it asks for.
struct Hotplug {
    /// Coalescing window for a burst of uevents (a monitor plugged in sends several).
    static let rescanDelay = Duration.milliseconds(150)

    /// What to light (card, connector, mode, rotation) and how cards are opened.
    let request: KMSRequest
    let opener: KMSDeviceOpener
    /// Nil where the uevent socket is refused (containers, some sandboxes): the panel
    /// then works as found at start.
    let uevents: NetlinkUevents?
    /// When to look at the hardware again (the loop's "display rescan" deadline).
    var rescanDue: Instant?
    /// Said once while no display is there, again after one came and went.
    private var noDisplay = OnceLog()

    init(_ request: KMSRequest, opener: KMSDeviceOpener, enabled: Bool) {
        self.request = request
        self.opener = opener
        guard enabled else {
            uevents = nil
            return
        }
        do {
            uevents = try NetlinkUevents()
        } catch {
            Journal.log(.warning, "display hotplug disabled: \(error)")
            uevents = nil
        }
    }

    /// Reads what the socket has. The first relevant event of a burst opens a short
    /// window; the rest of the burst falls in it, and one rescan covers them all. An
    /// overflowed socket lost events, any of which may have mattered.
    mutating func readUevents(now: Instant) {
        guard let uevents else { return }
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
        guard relevant, rescanDue == nil else { return }
        rescanDue = now + Self.rescanDelay
    }

    /// What a look at the hardware found, for the output to act on.
    enum Finding {
        /// No card: whatever is lit is dropped.
        case noCard
        /// A card without a display to light (unplugged, no mode yet): it is kept open,
        /// so master can be held, and whatever is lit is dropped.
        case noDisplay(any KMSDevice)
        /// What is lit is still right (a uevent that changed nothing for us).
        case unchanged
        /// Light `selection` on `device`.
        case display(any KMSDevice, KMSCard, KMSSelection)

        /// The card to keep open, if any.
        var device: (any KMSDevice)? {
            switch self {
            case .noCard, .unchanged: nil
            case .noDisplay(let device), .display(let device, _, _): device
            }
        }
    }

    /// Finds the card and the selection, comparing with what `lit` shows. At start
    /// (`initial`), what waiting cannot fix throws (an unreadable device, a mode the
    /// connector does not offer); otherwise, and for what a hotplug may bring, it is said
    /// once and waited for.
    mutating func find(initial: Bool, lit: LitCard?, forgetCurrent: () -> Void) throws(DRMError) -> Finding {
        let found: (device: any KMSDevice, card: KMSCard)
        do {
            found = try Self.locate(request, current: lit?.device, opener: opener, forgetCurrent: forgetCurrent)
        } catch {
            if initial, case .system(_, _, let errno) = error, errno != .noSuchFile, errno != .noSuchDevice { throw error }
            noDisplay.say(.warning, "display: \(error); waiting for one")
            return .noCard
        }
        let selection: KMSSelection
        do {
            selection = try KMSChoice.select(request, on: found.card)
        } catch {
            if initial && !error.mayResolveLater { throw .choice(error) }
            noDisplay.say(error.mayResolveLater ? .warning : .error, "display: \(error); waiting for hotplug")
            return .noDisplay(found.device)
        }
        if let lit, lit.device === found.device, lit.scanOut?.shows(selection) == true { return .unchanged }
        noDisplay.reset()
        return .display(found.device, found.card, selection)
    }

    /// The card to use: the configured one, or the first suitable one (`KMSChoice.card`).
    /// `current` (the one already open) is reused so master and buffers stay valid; if it
    /// went away (driver unbound), `forgetCurrent` runs before another is looked for.
    private static func locate(
        _ request: KMSRequest, current: (any KMSDevice)?, opener: KMSDeviceOpener, forgetCurrent: () -> Void
    ) throws(DRMError) -> (device: any KMSDevice, card: KMSCard) {
        var kept = current
        if let current {
            do {
                let card = try current.readCard()
                if case .path = request.device { return (current, card) }
                if (try? KMSChoice.select(request, on: card)) != nil { return (current, card) }
            } catch {
                kept = nil
                forgetCurrent()
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
            if let kept, kept.path == pair.device.path,
               let card = cards.opened.first(where: { $0.card.path == kept.path })?.card {
                return (kept, card)
            }
            return (pair.device, pair.card)
        }
    }
}
