import GridlockCore
import GridlockInput

/// What `gridlock bench` feeds gridlockd's replay backend: a touchscreen's description
/// (axes 0...4095, multitouch protocol B) with no events, for start-up, or with the
/// benchmark scene's drag, for the CPU a stroke costs in the daemon's own loop.
public enum BenchRecording {
    /// Between two moves: a fast digitizer's rate. Slower than a damage-only frame takes,
    /// so each move gets its own frame unless the machine is very busy.
    public static let moveInterval: Int64 = 4_000_000  // nanoseconds

    static let axisMaximum: Int32 = 4095

    /// The touchscreen, and nothing happening on it.
    public static func idle() -> EvemuRecording {
        var device = DeviceDescription(
            name: "bench touchscreen", id: DeviceID(bustype: InputCodes.BUS_USB, vendor: 0, product: 0, version: 0))
        device.properties.insert(InputCodes.INPUT_PROP_DIRECT)
        for code in [InputCodes.ABS_MT_SLOT, InputCodes.ABS_MT_POSITION_X, InputCodes.ABS_MT_POSITION_Y, InputCodes.ABS_MT_TRACKING_ID, InputCodes.ABS_X, InputCodes.ABS_Y] {
            device.enable(type: InputCodes.EV_ABS, code: code)
        }
        device.enable(type: InputCodes.EV_KEY, code: InputCodes.BTN_TOUCH)
        device.enable(type: InputCodes.EV_SYN, code: InputCodes.SYN_REPORT)
        for code in [InputCodes.ABS_MT_POSITION_X, InputCodes.ABS_MT_POSITION_Y, InputCodes.ABS_X, InputCodes.ABS_Y] {
            device.axes[code] = AbsInfo(minimum: 0, maximum: axisMaximum)
        }
        device.axes[InputCodes.ABS_MT_SLOT] = AbsInfo(minimum: 0, maximum: 9)
        device.axes[InputCodes.ABS_MT_TRACKING_ID] = AbsInfo(minimum: 0, maximum: 65535)
        return EvemuRecording(device: device)
    }

    /// The finger down on node 1, then the scene's 240 moves on a `size` panel, one input
    /// frame each, `moveInterval` apart; the finger stays down at the end. Positions are
    /// the nearest axis values, so they land within 0.3 pixel of the scene's.
    public static func drag(size: Size) -> EvemuRecording {
        var recording = idle()
        let (initial, frames) = BenchScene.scenes(size: size)
        var time: Int64 = 0
        func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            recording.events.append(InputEvent(time: Instant(nanoseconds: time), type: type, code: code, value: value))
        }
        func position(_ point: Point) {
            let x = axisValue(point.x / size.width), y = axisValue(point.y / size.height)
            add(InputCodes.EV_ABS, InputCodes.ABS_MT_POSITION_X, x)
            add(InputCodes.EV_ABS, InputCodes.ABS_MT_POSITION_Y, y)
            add(InputCodes.EV_ABS, InputCodes.ABS_X, x)
            add(InputCodes.EV_ABS, InputCodes.ABS_Y, y)
        }
        guard let down = initial.finger else { return recording }
        add(InputCodes.EV_ABS, InputCodes.ABS_MT_SLOT, 0)
        add(InputCodes.EV_ABS, InputCodes.ABS_MT_TRACKING_ID, 1)
        position(down)
        add(InputCodes.EV_KEY, InputCodes.BTN_TOUCH, 1)
        add(InputCodes.EV_SYN, InputCodes.SYN_REPORT, 0)
        for frame in frames {
            guard let finger = frame.finger else { continue }
            time += moveInterval
            position(finger)
            add(InputCodes.EV_SYN, InputCodes.SYN_REPORT, 0)
        }
        return recording
    }

    /// The inverse of the coordinate mapper's `(v + 0.5) / (max + 1)`.
    static func axisValue(_ fraction: Double) -> Int32 {
        let value = (fraction * Double(axisMaximum + 1) - 0.5).rounded()
        return Int32(min(Double(axisMaximum), max(0, value)))
    }
}
