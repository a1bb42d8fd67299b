/// Which of a face's devices went or came back between two looks: a touchscreen or a
/// display that was there and is gone is told to gridlockd (`FaceEvent`), which starts its
/// `[on tamper]` hooks; one that comes back is told too. A device that was never there is
/// not news (gridlockd's own face judges its devices the same way, `DoorAlarms.observe`).
public struct PanelDeviceWatch: Sendable {
    private var touchscreen: String?
    private var display: String?
    private var touchscreenLost = false
    private var displayLost = false

    public init() {}

    /// What changed since the last look, given what is there now (nil: nothing).
    public mutating func observe(touchscreen now: String?, display shown: String?) -> [FaceEvent] {
        var events: [FaceEvent] = []
        if touchscreen != nil, now == nil {
            events.append(.touchscreenGone)
            touchscreenLost = true
        } else if touchscreenLost, now != nil {
            events.append(.touchscreenBack)
            touchscreenLost = false
        }
        if display != nil, shown == nil {
            events.append(.displayGone)
            displayLost = true
        } else if displayLost, shown != nil {
            events.append(.displayBack)
            displayLost = false
        }
        touchscreen = now
        display = shown
        return events
    }
}

extension FaceEvent {
    /// Whether a device went away (tamper), not came back.
    public var isLoss: Bool { self == .touchscreenGone || self == .displayGone }

    /// What the face's journal says.
    public var sentence: String {
        switch self {
        case .touchscreenGone: "the touchscreen went away"
        case .touchscreenBack: "the touchscreen is back"
        case .displayGone: "the display went away"
        case .displayBack: "the display is back"
        }
    }
}
