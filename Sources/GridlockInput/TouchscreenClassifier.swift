/// Whether a device is a touchscreen, decided as udev's `input_id` builtin decides
/// ID_INPUT_TOUCHSCREEN (systemd src/udev/udev-builtin-input_id.c, `test_pointers`), so
/// that `device=auto` picks what `udevadm info` calls a touchscreen and nothing else.
public enum TouchscreenClassifier {
    public enum Kind: Hashable, Sendable {
        /// ABS_MT_POSITION_X/Y: protocol A or B; the decoder tells which.
        case multitouch
        /// ABS_X/ABS_Y with BTN_TOUCH only (resistive panels, old USB controllers).
        case singleTouch
    }

    public enum Classification: Hashable, Sendable {
        case touchscreen(kind: Kind)
        /// `reason` is short and meant for a log line next to the device's name.
        case notTouchscreen(reason: String)

        public var isTouchscreen: Bool {
            if case .touchscreen = self { true } else { false }
        }
    }

    public static func classify(_ device: DeviceDescription) -> Classification {
        typealias C = InputCodes
        let key = { (code: UInt16) in device.supports(type: C.EV_KEY, code: code) }
        let abs = { (code: UInt16) in device.supports(type: C.EV_ABS, code: code) }

        let hasAbs = device.hasSingleTouchPosition
        let hasMT = device.hasMultitouchPosition
        let direct = device.hasProperty(C.INPUT_PROP_DIRECT)

        // udev sorts accelerometers out before anything else: their X/Y are not positions.
        if device.hasProperty(C.INPUT_PROP_ACCELEROMETER)
            || (!device.supports(type: C.EV_KEY) && hasAbs && abs(C.ABS_Z))
        {
            return .notTouchscreen(reason: "accelerometer: absolute X/Y/Z without keys")
        }
        guard hasAbs || hasMT else {
            let relative =
                device.supports(type: C.EV_REL, code: C.REL_X) && device.supports(type: C.EV_REL, code: C.REL_Y)
            return .notTouchscreen(
                reason: relative ? "no absolute X/Y axes (relative REL_X/REL_Y: a mouse)" : "no absolute X/Y axes")
        }
        if key(C.BTN_TOOL_PEN) { return .notTouchscreen(reason: "pen tablet: has BTN_TOOL_PEN") }
        if key(C.BTN_STYLUS) { return .notTouchscreen(reason: "pen tablet: has BTN_STYLUS") }
        if key(C.BTN_TOOL_FINGER) && !direct {
            return .notTouchscreen(reason: "touchpad: has BTN_TOOL_FINGER without INPUT_PROP_DIRECT")
        }
        let touch = key(C.BTN_TOUCH)
        let mouseButton = (C.BTN_MOUSE..<C.BTN_JOYSTICK).contains(where: key)

        // On the ABS_X/ABS_Y path udev checks mouse buttons before touch (a VM's absolute
        // "tablet" mouse); its multitouch path has no such check.
        let viaSingleTouch = hasAbs && !mouseButton && (touch || direct)
        let viaMultitouch = hasMT && (touch || direct)
        if viaSingleTouch || viaMultitouch {
            return .touchscreen(kind: hasMT ? .multitouch : .singleTouch)
        }
        if hasAbs && mouseButton && !hasMT {
            return .notTouchscreen(reason: "absolute mouse: absolute X/Y with mouse buttons and no multitouch axes")
        }
        return .notTouchscreen(reason: "absolute X/Y but neither BTN_TOUCH nor INPUT_PROP_DIRECT")
    }
}
