/// The Linux input constants this target reads, from linux/input-event-codes.h.
///
/// The kernel's own spellings are kept on purpose: they are what evtest, evemu,
/// libevdev and the kernel documentation print, so a reader can grep for them.
public enum InputCodes {
    // Bus types (linux/input.h), as `DeviceID.bustype` holds them.
    public static let BUS_USB: UInt16 = 0x03

    // Event types.
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_KEY: UInt16 = 0x01
    public static let EV_REL: UInt16 = 0x02
    public static let EV_ABS: UInt16 = 0x03
    public static let EV_MSC: UInt16 = 0x04
    /// Sound: the buzzers of pcspkr, pwm-beeper, gpio-beeper (written to, not read).
    public static let EV_SND: UInt16 = 0x12
    /// Highest event type; evemu's `B:` lines may name any type up to this.
    public static let EV_MAX: UInt16 = 0x1f

    // EV_SND codes: SND_TONE's value is a pitch in Hz, SND_BELL's on or off (0 silences both).
    public static let SND_BELL: UInt16 = 0x01
    public static let SND_TONE: UInt16 = 0x02

    // EV_SYN codes.
    public static let SYN_REPORT: UInt16 = 0
    public static let SYN_CONFIG: UInt16 = 1
    public static let SYN_MT_REPORT: UInt16 = 2
    public static let SYN_DROPPED: UInt16 = 3

    // EV_KEY codes (buttons only; keyboards are of no interest here).
    public static let BTN_0: UInt16 = 0x100
    public static let BTN_MOUSE: UInt16 = 0x110
    public static let BTN_LEFT: UInt16 = 0x110
    public static let BTN_RIGHT: UInt16 = 0x111
    public static let BTN_MIDDLE: UInt16 = 0x112
    /// First code after the mouse button range (udev's `has_mouse_button` stops here).
    public static let BTN_JOYSTICK: UInt16 = 0x120
    public static let BTN_TOOL_PEN: UInt16 = 0x140
    public static let BTN_TOOL_FINGER: UInt16 = 0x145
    public static let BTN_TOUCH: UInt16 = 0x14a
    public static let BTN_STYLUS: UInt16 = 0x14b
    public static let BTN_TOOL_DOUBLETAP: UInt16 = 0x14d
    public static let BTN_TOOL_TRIPLETAP: UInt16 = 0x14e

    // EV_REL codes.
    public static let REL_X: UInt16 = 0x00
    public static let REL_Y: UInt16 = 0x01
    public static let REL_WHEEL: UInt16 = 0x08

    // EV_ABS codes.
    public static let ABS_X: UInt16 = 0x00
    public static let ABS_Y: UInt16 = 0x01
    public static let ABS_Z: UInt16 = 0x02
    public static let ABS_PRESSURE: UInt16 = 0x18
    public static let ABS_MT_SLOT: UInt16 = 0x2f
    public static let ABS_MT_TOUCH_MAJOR: UInt16 = 0x30
    public static let ABS_MT_POSITION_X: UInt16 = 0x35
    public static let ABS_MT_POSITION_Y: UInt16 = 0x36
    public static let ABS_MT_TRACKING_ID: UInt16 = 0x39
    public static let ABS_MT_PRESSURE: UInt16 = 0x3a
    /// Highest ABS code (ABS_CNT - 1).
    public static let ABS_MAX: UInt16 = 0x3f

    // EV_MSC codes.
    public static let MSC_SCAN: UInt16 = 0x04
    public static let MSC_TIMESTAMP: UInt16 = 0x05

    // Device properties (EVIOCGPROP bits).
    public static let INPUT_PROP_POINTER: UInt16 = 0x00
    public static let INPUT_PROP_DIRECT: UInt16 = 0x01
    public static let INPUT_PROP_BUTTONPAD: UInt16 = 0x02
    public static let INPUT_PROP_SEMI_MT: UInt16 = 0x03
    public static let INPUT_PROP_POINTING_STICK: UInt16 = 0x05
    public static let INPUT_PROP_ACCELEROMETER: UInt16 = 0x06
    /// Highest property bit (INPUT_PROP_CNT - 1).
    public static let INPUT_PROP_MAX: UInt16 = 0x1f
}
