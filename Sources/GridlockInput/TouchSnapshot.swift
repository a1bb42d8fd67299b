/// The device's touch state as the kernel holds it, read after a SYN_DROPPED (libevdev's
/// sync, EVIOCGMTSLOTS/EVIOCGKEY/EVIOCGABS) or when a device is opened, and handed to
/// `TouchDecoder.resync`. Events only describe changes, so after a loss this is the only
/// way to learn which fingers are down.
public struct TouchSnapshot: Hashable, Sendable {
    public struct Slot: Hashable, Sendable {
        /// ABS_MT_TRACKING_ID; negative when the slot holds no contact.
        public var trackingID: Int32
        public var x: Int32
        public var y: Int32

        public init(trackingID: Int32, x: Int32, y: Int32) {
            self.trackingID = trackingID
            self.x = x
            self.y = y
        }

        public static let empty = Slot(trackingID: -1, x: 0, y: 0)
    }

    /// The value of ABS_MT_SLOT: where the next slot event goes.
    public var currentSlot: Int32
    /// Protocol B slot states, slot 0 first. Empty for other protocols.
    public var slots: [Slot]
    /// BTN_TOUCH.
    public var touching: Bool
    /// ABS_X/ABS_Y, used by single-touch devices.
    public var x: Int32
    public var y: Int32

    public init(currentSlot: Int32 = 0, slots: [Slot] = [], touching: Bool, x: Int32 = 0, y: Int32 = 0) {
        self.currentSlot = currentSlot
        self.slots = slots
        self.touching = touching
        self.x = x
        self.y = y
    }
}
