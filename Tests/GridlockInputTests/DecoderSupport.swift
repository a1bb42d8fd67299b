import GridlockCore
import GridlockInput

/// One decoded step with its frame time.
struct Step: Equatable {
    var touch: RawTouch
    var time: Instant
}

/// Runs events through a decoder and keeps what it emits.
func decode(_ events: [InputEvent], with decoder: inout TouchDecoder) -> [Step] {
    var steps: [Step] = []
    for event in events { decoder.feed(event) { steps.append(Step(touch: $0, time: $1)) } }
    return steps
}

func decode(_ recording: EvemuRecording) throws -> [Step] {
    var decoder = try TouchDecoder(device: recording.device)
    return decode(recording.events, with: &decoder)
}

/// Steps cut into strokes: each from a `down` to the `up` or `cancel` that ends it.
func strokes(_ steps: [Step]) -> [[Step]] {
    var result: [[Step]] = []
    for step in steps {
        if case .down = step.touch { result.append([]) }
        if result.isEmpty { result.append([]) }
        result[result.count - 1].append(step)
    }
    return result
}

/// The grid nodes (1-based, as patterns are written) the finger passed through, in order:
/// what a pattern tracker would at least see, without depending on one.
func nodesVisited(_ stroke: [Step], device: DeviceDescription, frame: Size) throws -> [Int] {
    let xCode = device.hasMultitouchPosition ? InputCodes.ABS_MT_POSITION_X : InputCodes.ABS_X
    let yCode = device.hasMultitouchPosition ? InputCodes.ABS_MT_POSITION_Y : InputCodes.ABS_Y
    let mapper = try CoordinateMapper(x: device.absInfo(xCode)!, y: device.absInfo(yCode)!, frame: frame)
    let layout = try GridLayout(frame: Rect(origin: .zero, size: frame))
    var nodes: [Int] = []
    for step in stroke {
        let point: Point
        switch step.touch {
        case .down(let x, let y), .move(let x, let y): point = mapper.point(x: x, y: y)
        default: continue
        }
        if let node = layout.node(at: point), nodes.last != node + 1 { nodes.append(node + 1) }
    }
    return nodes
}

/// Builds event lists for hand-written scenarios, one frame at a time, 10 ms apart.
struct EventScript {
    var events: [InputEvent] = []
    var time = Instant.milliseconds(1)

    mutating func abs(_ code: UInt16, _ value: Int32) { add(InputCodes.EV_ABS, code, value) }
    mutating func key(_ code: UInt16, _ value: Int32) { add(InputCodes.EV_KEY, code, value) }
    mutating func mtReport() { add(InputCodes.EV_SYN, InputCodes.SYN_MT_REPORT, 0) }
    mutating func dropped() { add(InputCodes.EV_SYN, InputCodes.SYN_DROPPED, 0) }

    mutating func report() {
        add(InputCodes.EV_SYN, InputCodes.SYN_REPORT, 0)
        time = time + .milliseconds(10)
    }

    /// What the input core sends when it unregisters (unplug) or resets a device: every
    /// pressed key released, then a SYN_REPORT of value 1 (drivers send 0).
    mutating func inputCoreRelease(keys: [UInt16] = [InputCodes.BTN_TOUCH]) {
        for code in keys { key(code, 0) }
        add(InputCodes.EV_SYN, InputCodes.SYN_REPORT, TouchDecoder.inputCoreSync)
        time = time + .milliseconds(10)
    }

    mutating func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: time, type: type, code: code, value: value))
    }

    /// Protocol B: contact `id` in `slot` at (x, y).
    mutating func contact(slot: Int32, id: Int32? = nil, x: Int32, y: Int32) {
        abs(InputCodes.ABS_MT_SLOT, slot)
        if let id { abs(InputCodes.ABS_MT_TRACKING_ID, id) }
        abs(InputCodes.ABS_MT_POSITION_X, x)
        abs(InputCodes.ABS_MT_POSITION_Y, y)
    }

    mutating func lift(slot: Int32) {
        abs(InputCodes.ABS_MT_SLOT, slot)
        abs(InputCodes.ABS_MT_TRACKING_ID, -1)
    }
}
