import GridlockCore

/// One touch device's events, decoded and mapped: kernel events in, the primary
/// finger's `TouchEvent`s in logical frame coordinates out. Shared by the evdev reader
/// and the replay of recordings, so both behave identically.
public struct TouchPipeline: Sendable {
    public private(set) var decoder: TouchDecoder
    public private(set) var mapper: CoordinateMapper
    /// The device's matrix (`[touch] calibration=`, udev's, or none), which `mapper` applies
    /// unless `setCalibrated(false)` set it aside.
    public let calibration: CalibrationMatrix

    public init(
        device: DeviceDescription, calibration: CalibrationMatrix, rotation: Rotation, frame: Size
    ) throws(TouchPipelineError) {
        do {
            decoder = try TouchDecoder(device: device)
        } catch {
            throw .decoder(error)
        }
        let (xCode, yCode) = decoder.touchProtocol == .singleTouch
            ? (InputCodes.ABS_X, InputCodes.ABS_Y)
            : (InputCodes.ABS_MT_POSITION_X, InputCodes.ABS_MT_POSITION_Y)
        guard let x = device.absInfo(xCode), let y = device.absInfo(yCode) else {
            throw .decoder(.noPositionAxes(device: device.name))
        }
        self.calibration = calibration
        do {
            mapper = try CoordinateMapper(x: x, y: y, calibration: calibration, rotation: rotation, frame: frame)
        } catch {
            throw .mapper(error)
        }
    }

    /// Feeds one kernel event; calls `emit` for each finished frame's touch step.
    public mutating func feed(_ event: InputEvent, _ emit: (TouchEvent, Instant) -> Void) {
        let mapper = self.mapper
        decoder.feed(event) { raw, time in emit(mapper.touchEvent(raw), time) }
    }

    /// The display's logical frame or rotation changed; a stroke in progress keeps going
    /// in the new coordinates (the lock machine cancels it when the layout changes).
    public mutating func setFrame(_ frame: Size, rotation: Rotation) {
        if let mapper = try? CoordinateMapper(
            x: mapper.x, y: mapper.y, calibration: mapper.calibration, rotation: rotation, frame: frame)
        {
            self.mapper = mapper
        }
    }

    /// Maps through `calibration` (true) or the identity (false, while calibrating).
    public mutating func setCalibrated(_ calibrated: Bool) {
        if let mapper = try? CoordinateMapper(
            x: mapper.x, y: mapper.y, calibration: calibrated ? calibration : .identity, rotation: mapper.rotation,
            frame: mapper.frame)
        {
            self.mapper = mapper
        }
    }

    /// The kernel's state after SYN_DROPPED, or on opening a device: a stroke in progress
    /// is cancelled (`.eventsDropped`) and fingers already down must lift first.
    public mutating func resync(_ snapshot: TouchSnapshot, at time: Instant, _ emit: (TouchEvent, Instant) -> Void) {
        let mapper = self.mapper
        decoder.resync(snapshot, at: time) { raw, time in emit(mapper.touchEvent(raw), time) }
    }

    /// The device went away: a stroke in progress is cancelled.
    public mutating func deviceLost(at time: Instant, _ emit: (TouchEvent, Instant) -> Void) {
        if decoder.isStrokeActive { emit(.cancel(.deviceLost), time) }
        decoder.reset()
    }
}

public enum TouchPipelineError: Error, CustomStringConvertible {
    case decoder(TouchDecoderError)
    case mapper(MapperError)

    public var description: String {
        switch self {
        case .decoder(let error): "\(error)"
        case .mapper(let error): "\(error)"
        }
    }
}
