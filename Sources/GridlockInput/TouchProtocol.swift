/// How a device reports contacts (kernel Documentation/input/multi-touch-protocol.rst).
public enum TouchProtocol: Hashable, Sendable {
    /// Multitouch protocol B: slots (ABS_MT_SLOT), contacts identified by ABS_MT_TRACKING_ID.
    case protocolB
    /// Multitouch protocol A: every frame lists all contacts, each closed by SYN_MT_REPORT.
    case protocolA
    /// ABS_X/ABS_Y with BTN_TOUCH: one contact, no multitouch axes.
    case singleTouch

    /// The protocol a device speaks. Multitouch wins when a device has both kinds of axes:
    /// its ABS_X/ABS_Y are only the kernel's pointer emulation of the first contact.
    public init(device: DeviceDescription) throws(TouchDecoderError) {
        if device.hasMultitouchPosition {
            self = device.supports(type: InputCodes.EV_ABS, code: InputCodes.ABS_MT_SLOT) ? .protocolB : .protocolA
        } else if device.hasSingleTouchPosition {
            self = .singleTouch
        } else {
            throw .noPositionAxes(device: device.name)
        }
    }
}

public enum TouchDecoderError: Error, Hashable, CustomStringConvertible {
    case noPositionAxes(device: String)

    public var description: String {
        switch self {
        case .noPositionAxes(let device):
            "\"\(device)\" has neither ABS_MT_POSITION_X/Y nor ABS_X/ABS_Y: it cannot say where a finger is"
        }
    }
}
