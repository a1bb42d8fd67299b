/// Kernel names for the types and codes in `InputCodes`, for the comments the evemu
/// writer puts beside each event (as `evemu-record` does) and for error messages.
public enum InputCodeNames {
    public static func type(_ type: UInt16) -> String {
        switch type {
        case InputCodes.EV_SYN: "EV_SYN"
        case InputCodes.EV_KEY: "EV_KEY"
        case InputCodes.EV_REL: "EV_REL"
        case InputCodes.EV_ABS: "EV_ABS"
        case InputCodes.EV_MSC: "EV_MSC"
        default: "EV_0x" + hex(type)
        }
    }

    /// The name of a code, or its number in hex for codes this target does not know.
    public static func code(type: UInt16, code: UInt16) -> String {
        let known: String? =
            switch type {
            case InputCodes.EV_SYN: syn[code]
            case InputCodes.EV_KEY: key[code]
            case InputCodes.EV_REL: rel[code]
            case InputCodes.EV_ABS: abs[code]
            case InputCodes.EV_MSC: msc[code]
            default: nil
            }
        return known ?? "0x" + hex(code)
    }

    private static func hex(_ value: UInt16) -> String { String(value, radix: 16) }

    private static let syn: [UInt16: String] = [
        0: "SYN_REPORT", 1: "SYN_CONFIG", 2: "SYN_MT_REPORT", 3: "SYN_DROPPED",
    ]
    private static let key: [UInt16: String] = [
        0x110: "BTN_LEFT", 0x111: "BTN_RIGHT", 0x112: "BTN_MIDDLE",
        0x140: "BTN_TOOL_PEN", 0x145: "BTN_TOOL_FINGER", 0x14a: "BTN_TOUCH", 0x14b: "BTN_STYLUS",
        0x14d: "BTN_TOOL_DOUBLETAP", 0x14e: "BTN_TOOL_TRIPLETAP",
    ]
    private static let rel: [UInt16: String] = [0x00: "REL_X", 0x01: "REL_Y", 0x08: "REL_WHEEL"]
    private static let abs: [UInt16: String] = [
        0x00: "ABS_X", 0x01: "ABS_Y", 0x02: "ABS_Z", 0x18: "ABS_PRESSURE",
        0x2f: "ABS_MT_SLOT", 0x30: "ABS_MT_TOUCH_MAJOR", 0x35: "ABS_MT_POSITION_X",
        0x36: "ABS_MT_POSITION_Y", 0x39: "ABS_MT_TRACKING_ID", 0x3a: "ABS_MT_PRESSURE",
    ]
    private static let msc: [UInt16: String] = [0x04: "MSC_SCAN", 0x05: "MSC_TIMESTAMP"]
}
