/// Which of a face's devices went or came back between two looks: a touchscreen or a
/// display that was there and is gone is told to gridlockd (`FaceEvent`), which starts its
/// `[on tamper]` hooks; one that comes back is told too. A device that was never there is
/// not news (gridlockd's own face judges its devices the same way, `DoorAlarms.observe`).
public struct PanelDeviceWatch: Sendable {
    /// One device: what the last look saw, and whether it went since it was last seen.
    private struct Device: Sendable {
        var seen: String?
        var lost = false

        /// `gone` or `back` when the device went or came back since the last look.
        mutating func observe(_ now: String?, gone: FaceEvent, back: FaceEvent) -> FaceEvent? {
            defer { seen = now }
            if seen != nil, now == nil {
                lost = true
                return gone
            }
            if lost, now != nil {
                lost = false
                return back
            }
            return nil
        }
    }

    private var touchscreen = Device()
    private var display = Device()

    public init() {}

    /// What changed since the last look, given what is there now (nil: nothing).
    public mutating func observe(touchscreen now: String?, display shown: String?) -> [FaceEvent] {
        [touchscreen.observe(now, gone: .touchscreenGone, back: .touchscreenBack),
         display.observe(shown, gone: .displayGone, back: .displayBack)].compactMap { $0 }
    }
}

extension FaceEvent {
    /// Whether gridlockd makes it tamper (a device gone, a contact stuck), not a note.
    public var isAlarm: Bool { self == .touchscreenGone || self == .displayGone || self == .contactStuck }

    /// What the face's journal says.
    public var sentence: String {
        switch self {
        case .touchscreenGone: "the touchscreen went away"
        case .touchscreenBack: "the touchscreen is back"
        case .displayGone: "the display went away"
        case .displayBack: "the display is back"
        case .contactStuck: "the touchscreen held a stuck contact"
        }
    }
}
