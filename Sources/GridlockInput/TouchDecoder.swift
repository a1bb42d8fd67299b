import GridlockCore

/// Turns a device's event stream into the steps of one finger: the *primary* finger,
/// the first one that touched while nothing else did.
///
/// A stroke is a lock pattern being drawn, so every other finger is ignored: a second
/// finger never moves the stroke, the stroke ends when the primary lifts, and the next
/// stroke starts only after every finger has lifted (a palm or a second hand resting on
/// the panel must not start a pattern).
///
/// Steps are emitted at SYN_REPORT, at most one per frame, with the frame's time. Frames
/// are never merged: each one is a sample of the finger's path.
///
/// After SYN_DROPPED the stroke is cancelled and everything up to the next SYN_REPORT is
/// ignored, as the kernel asks. Then, without `resync`, the decoder assumes nothing is
/// down: a finger held across the loss is ignored until it lifts (protocol A: until
/// every finger has lifted), and the next touch starts a stroke. The libevdev adapter
/// knows better and passes the kernel's state to `resync`.
///
/// Feeding an event does not allocate.
public struct TouchDecoder: Sendable {
    /// Slots beyond this are ignored; no touch controller has this many.
    public static let maximumSlots = 64

    public let touchProtocol: TouchProtocol
    public let slotCount: Int

    // The device's state as the events describe it.
    private var slots: [TouchSnapshot.Slot]
    private var currentSlot: Int? = 0
    private var touching = false
    private var singleX: Int32 = 0
    private var singleY: Int32 = 0

    // Protocol A: the contact being read and what this frame has listed so far.
    private var pending = Contact()
    private var contactCount = 0
    private var firstContact = Contact()
    private var primaryContact: Contact?

    // The stroke.
    private var strokeActive = false
    private var primarySlot: Int?
    private var primaryTrackingID: Int32?
    private var lastX: Int32 = 0
    private var lastY: Int32 = 0
    private var waitingForAllUp = false
    private var dropping = false

    private var frame = FrameChanges()

    /// Stands for a contact whose TRACKING_ID the kernel never passed on (see `endFrameB`).
    private static let inferredTrackingID = Int32.max

    /// The value of a SYN_REPORT the input core sends itself (drivers' `input_sync` sends 0):
    /// it ends the key releases (BTN_TOUCH 0 ...) made when a device is unregistered, i.e.
    /// unplugged, or reset, so that no key stays stuck (drivers/input/input.c,
    /// `input_disconnect_device`, `input_reset_device`).
    public static let inputCoreSync: Int32 = 1

    public init(protocol touchProtocol: TouchProtocol, slotCount: Int = TouchDecoder.maximumSlots) {
        self.touchProtocol = touchProtocol
        self.slotCount = touchProtocol == .protocolB ? min(max(slotCount, 1), Self.maximumSlots) : 0
        slots = Array(repeating: .empty, count: self.slotCount)
    }

    public init(device: DeviceDescription) throws(TouchDecoderError) {
        let touchProtocol = try TouchProtocol(device: device)
        let slotMaximum = device.absInfo(InputCodes.ABS_MT_SLOT)?.maximum ?? Int32(Self.maximumSlots - 1)
        self.init(protocol: touchProtocol, slotCount: Int(max(0, slotMaximum)) + 1)
    }

    /// True between a `down` and the `up` or `cancel` that ends it.
    public var isStrokeActive: Bool { strokeActive }

    public mutating func feed(_ event: InputEvent, _ emit: (RawTouch, Instant) -> Void) {
        if event.type == InputCodes.EV_SYN {
            switch event.code {
            case InputCodes.SYN_DROPPED: drop(event.time, emit)
            case InputCodes.SYN_REPORT where event.value == Self.inputCoreSync: releasedByInputCore(event.time, emit)
            case InputCodes.SYN_REPORT where dropping: recoverFromDrop()
            case InputCodes.SYN_REPORT: endFrame(event.time, emit)
            case InputCodes.SYN_MT_REPORT where !dropping && touchProtocol == .protocolA: commitContact()
            default: break
            }
            return
        }
        guard !dropping else { return }
        switch event.type {
        case InputCodes.EV_KEY where event.code == InputCodes.BTN_TOUCH:
            touching = event.value != 0
            frame.touchPressed = touching
            frame.touchReleased = !touching
        case InputCodes.EV_ABS:
            switch touchProtocol {
            case .protocolB: absB(event.code, event.value)
            case .protocolA: absA(event.code, event.value)
            case .singleTouch: absSingle(event.code, event.value)
            }
        default:
            break
        }
    }

    /// Takes the kernel's state after a SYN_DROPPED (or on opening a device). A stroke in
    /// progress is cancelled; fingers that are down must all lift before the next stroke.
    public mutating func resync(_ snapshot: TouchSnapshot, at time: Instant, _ emit: (RawTouch, Instant) -> Void) {
        cancelStroke(.eventsDropped, time, emit)
        dropping = false
        frame = FrameChanges()
        pending = Contact()
        contactCount = 0
        touching = snapshot.touching
        singleX = snapshot.x
        singleY = snapshot.y
        for index in slots.indices {
            slots[index] = index < snapshot.slots.count ? snapshot.slots[index] : .empty
        }
        currentSlot = validSlot(snapshot.currentSlot)
        waitingForAllUp = touching || anySlotActive
    }

    /// Forgets everything, as for a device that went away. Say `cancel(.deviceLost)`
    /// yourself first if `isStrokeActive`.
    public mutating func reset() {
        self = TouchDecoder(protocol: touchProtocol, slotCount: max(slotCount, 1))
    }

    // MARK: Events

    private mutating func absB(_ code: UInt16, _ value: Int32) {
        if code == InputCodes.ABS_MT_SLOT {
            currentSlot = validSlot(value)
            return
        }
        guard let slot = currentSlot else { return }
        switch code {
        case InputCodes.ABS_MT_TRACKING_ID:
            let previous = slots[slot].trackingID
            if value < 0 {
                slots[slot].trackingID = -1
                if slot == primarySlot { frame.primaryEnded = true }
                if slot == frame.firstBegan { frame.firstBegan = nil }
            } else if value != previous {
                // A new ID in an occupied slot: the old contact ended within this frame.
                if previous >= 0 && slot == primarySlot { frame.primaryEnded = true }
                slots[slot].trackingID = value
                if frame.firstBegan == nil { frame.firstBegan = slot }
            }
        case InputCodes.ABS_MT_POSITION_X:
            if slots[slot].x != value && slot == primarySlot { frame.primaryMoved = true }
            slots[slot].x = value
        case InputCodes.ABS_MT_POSITION_Y:
            if slots[slot].y != value && slot == primarySlot { frame.primaryMoved = true }
            slots[slot].y = value
        default:
            break
        }
    }

    private mutating func absA(_ code: UInt16, _ value: Int32) {
        switch code {
        case InputCodes.ABS_MT_POSITION_X: pending.x = value; pending.hasX = true
        case InputCodes.ABS_MT_POSITION_Y: pending.y = value; pending.hasY = true
        case InputCodes.ABS_MT_TRACKING_ID: pending.trackingID = value
        default: break
        }
    }

    private mutating func absSingle(_ code: UInt16, _ value: Int32) {
        switch code {
        case InputCodes.ABS_X:
            if singleX != value { frame.singleMoved = true }
            singleX = value
        case InputCodes.ABS_Y:
            if singleY != value { frame.singleMoved = true }
            singleY = value
        default:
            break
        }
    }

    /// Protocol A: a SYN_MT_REPORT closes one contact. One without a position is the
    /// "no contacts" marker some drivers send, not a finger.
    private mutating func commitContact() {
        defer { pending = Contact() }
        guard pending.hasX && pending.hasY else { return }
        contactCount += 1
        if contactCount == 1 { firstContact = pending }
        if let id = primaryTrackingID, pending.trackingID == id, primaryContact == nil { primaryContact = pending }
    }

    // MARK: Frames

    private mutating func endFrame(_ time: Instant, _ emit: (RawTouch, Instant) -> Void) {
        switch touchProtocol {
        case .protocolB: endFrameB(time, emit)
        case .protocolA: endFrameA(time, emit)
        case .singleTouch: endFrameSingle(time, emit)
        }
        frame = FrameChanges()
    }

    private mutating func endFrameB(_ time: Instant, _ emit: (RawTouch, Instant) -> Void) {
        if frame.touchReleased {
            // Goodix-style panels lift with BTN_TOUCH 0 and never send TRACKING_ID -1.
            for index in slots.indices where slots[index].trackingID >= 0 { slots[index].trackingID = -1 }
            frame.firstBegan = nil
            if primarySlot != nil { frame.primaryEnded = true }
        } else if frame.touchPressed, !anySlotActive, let slot = currentSlot {
            // The same panels then reuse the old tracking ID for the next touch, and the
            // kernel drops it as unchanged: BTN_TOUCH 1 is the only sign of the new contact.
            slots[slot].trackingID = Self.inferredTrackingID
            frame.firstBegan = slot
        }
        if let slot = primarySlot {
            if frame.primaryEnded || slots[slot].trackingID < 0 {
                emit(.up, time)
                endStroke()
                waitingForAllUp = anySlotActive
            } else if frame.primaryMoved {
                emit(.move(x: slots[slot].x, y: slots[slot].y), time)
            }
        } else if waitingForAllUp {
            if !anySlotActive { waitingForAllUp = false }
        } else if let slot = frame.firstBegan, slots[slot].trackingID >= 0 {
            strokeActive = true
            primarySlot = slot
            emit(.down(x: slots[slot].x, y: slots[slot].y), time)
        }
    }

    private mutating func endFrameA(_ time: Instant, _ emit: (RawTouch, Instant) -> Void) {
        // Tolerate a last contact not closed by SYN_MT_REPORT.
        if pending.hasX || pending.hasY { commitContact() }
        defer {
            contactCount = 0
            primaryContact = nil
            pending = Contact()
        }
        let released = frame.touchReleased || contactCount == 0
        if strokeActive {
            // With tracking IDs the primary is known by its ID; without, by being listed first.
            let current: Contact? =
                released ? nil : primaryTrackingID == nil ? firstContact : primaryContact
            if let current {
                if current.x != lastX || current.y != lastY {
                    remember(current.x, current.y)
                    emit(.move(x: current.x, y: current.y), time)
                }
            } else {
                emit(.up, time)
                endStroke()
                waitingForAllUp = !released
            }
        } else if waitingForAllUp {
            if released { waitingForAllUp = false }
        } else if !released {
            strokeActive = true
            primaryTrackingID = firstContact.trackingID
            remember(firstContact.x, firstContact.y)
            emit(.down(x: firstContact.x, y: firstContact.y), time)
        }
    }

    private mutating func endFrameSingle(_ time: Instant, _ emit: (RawTouch, Instant) -> Void) {
        if strokeActive {
            if !touching {
                emit(.up, time)
                endStroke()
            } else if frame.singleMoved {
                emit(.move(x: singleX, y: singleY), time)
            }
        } else if waitingForAllUp {
            if !touching { waitingForAllUp = false }
        } else if touching {
            strokeActive = true
            emit(.down(x: singleX, y: singleY), time)
        }
    }

    // MARK: Losses

    /// The input core released the keys of a device going away: the finger did not lift, so
    /// the stroke is cancelled, not ended (a BTN_TOUCH 0 frame would otherwise end it as a
    /// Goodix-style lift and count an attempt for a cable pulled mid-stroke). The contacts
    /// are forgotten as after SYN_DROPPED.
    private mutating func releasedByInputCore(_ time: Instant, _ emit: (RawTouch, Instant) -> Void) {
        cancelStroke(.deviceLost, time, emit)
        recoverFromDrop()
    }

    private mutating func drop(_ time: Instant, _ emit: (RawTouch, Instant) -> Void) {
        cancelStroke(.eventsDropped, time, emit)
        dropping = true
        frame = FrameChanges()
    }

    /// The first SYN_REPORT after SYN_DROPPED: what was lost cannot be known from events.
    private mutating func recoverFromDrop() {
        dropping = false
        frame = FrameChanges()
        pending = Contact()
        contactCount = 0
        primaryContact = nil
        // Forget every contact. Protocol B and single touch only report changes, so a
        // finger held across the loss sends no new TRACKING_ID or BTN_TOUCH 1 and stays
        // ignored until it lifts. Protocol A lists every finger in every frame, so there
        // the held finger must be waited out explicitly.
        for index in slots.indices { slots[index].trackingID = -1 }
        touching = false
        waitingForAllUp = touchProtocol == .protocolA
    }

    private mutating func cancelStroke(_ reason: CancelReason, _ time: Instant, _ emit: (RawTouch, Instant) -> Void) {
        guard strokeActive else { return }
        emit(.cancel(reason), time)
        endStroke()
    }

    // MARK: Helpers

    private mutating func endStroke() {
        strokeActive = false
        primarySlot = nil
        primaryTrackingID = nil
    }

    private mutating func remember(_ x: Int32, _ y: Int32) {
        lastX = x
        lastY = y
    }

    private var anySlotActive: Bool { slots.contains { $0.trackingID >= 0 } }

    private func validSlot(_ value: Int32) -> Int? {
        value >= 0 && Int(value) < slotCount ? Int(value) : nil
    }
}

/// Protocol A: one contact as listed in a frame.
private struct Contact {
    var x: Int32 = 0
    var y: Int32 = 0
    var hasX = false
    var hasY = false
    var trackingID: Int32?
}

/// What happened within the current frame; cleared at every SYN_REPORT.
private struct FrameChanges {
    var touchPressed = false
    var touchReleased = false
    var primaryEnded = false
    var primaryMoved = false
    /// Protocol B: the slot of the first contact that began in this frame.
    var firstBegan: Int?
    var singleMoved = false
}
