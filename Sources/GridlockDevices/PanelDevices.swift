import GridlockConfiguration
import GridlockCore
import GridlockDisplay
import GridlockEvdev
import GridlockInput
import LinuxSys

/// The panel's display and touchscreen, made from the configuration's `[display]` and
/// `[touch]`: the single place that chooses a backend, for every program that shows the
/// lock on a panel (the panel's face, calibration, enrolment on the panel, replay).
public enum PanelDevices {
    /// `clock` is the loop's: the output keeps time by it (its master lease, latch and figures).
    /// `headless`: frames go nowhere (the benchmark).
    public static func output(for display: DisplayConfig, headless: Bool, clock: @escaping () -> Instant) throws(PanelDeviceError) -> DisplayOutput {
        let frame = display.logicalFrame
        if headless { return NullOutput(size: frame, rotation: display.rotation) }
        switch display.backend {
        case .png:
            // The loader guarantees output-dir for the png backend.
            let directory = display.outputDirectory ?? "."
            do {
                try Directory.create(directory)
            } catch {
                throw .display("\(error)")
            }
            return PNGOutput(size: frame, directory: directory, rotation: display.rotation)
        case .off:
            // Verifier only: the lock face in the session shows; no DRM master is taken.
            return NullOutput(size: frame, rotation: display.rotation)
        case .drm:
            do {
                return try DRMOutput(request: kmsRequest(for: display), placeholder: display.physicalSize, clock: clock)
            } catch {
                throw .display("\(error)")
            }
        }
    }

    /// `[display]` as the DRM output's request (the display target knows nothing of the config).
    public static func kmsRequest(for display: DisplayConfig) -> KMSRequest {
        let device: KMSRequest.Device =
            switch display.device {
            case .auto: .auto
            case .path(let path): .path(path)
            }
        let connector: KMSRequest.Connector =
            switch display.connector {
            case .auto: .auto
            case .named(let name): .named(name)
            }
        let mode: KMSRequest.Mode =
            switch display.mode {
            case .preferred: .preferred
            case .current: .current
            case .size(let size, let hz): .size(width: size.width, height: size.height, refreshHz: hz)
            }
        return KMSRequest(device: device, connector: connector, mode: mode, rotation: display.rotation)
    }

    /// `rotation` is the output's: the config's combined with the panel's own orientation.
    /// `eventsFrom`: the replay backend's recording only describes the device, and its
    /// events come from that descriptor as binary `input_event`s, as a panel's do
    /// (`gridlockd --bench-stroke`, fed by `gridlock bench`).
    public static func touchSource(
        for touch: TouchConfig, frame: Size, rotation: Rotation, start: Instant, eventsFrom: FileDescriptor? = nil
    ) throws(PanelDeviceError) -> TouchSource {
        switch touch.backend {
        case .replay:
            guard case .path(let path) = touch.device else {
                throw .touch("[touch] backend=replay needs device=FILE.evemu")
            }
            let recording = try loadRecording(path)
            let pipeline = try touchPipeline(for: touch, device: recording.device, frame: frame, rotation: rotation)
            if let eventsFrom {
                do {
                    return try EventStreamTouchSource(fileDescriptor: eventsFrom, pipeline: pipeline)
                } catch {
                    throw .system(error)
                }
            }
            return RecordingTouchSource(recording: recording, pipeline: pipeline, start: start)
        case .evdev:
            return try evdevTouchSource(for: touch, frame: frame, rotation: rotation, start: start)
        case .off:
            // Verifier only: no touchscreen is opened or grabbed beside the compositor.
            return NoTouchSource()
        }
    }

    public static func evdevTouchSource(
        for touch: TouchConfig, frame: Size, rotation: Rotation, start: Instant
    ) throws(PanelDeviceError) -> EvdevTouchSource {
        let selector: DeviceSelector
        switch touch.device {
        case .auto: selector = .auto
        case .path(let path): selector = .path(path)
        case .nameContaining(let text): selector = .name(text)
        }
        let settings = EvdevTouchSource.Settings(selector: selector, grab: touch.grab, calibration: touch.calibration)
        do {
            // A missing device is not an error: the source says so and waits for hotplug.
            return try EvdevTouchSource(settings: settings, frame: frame, rotation: rotation, now: start)
        } catch {
            throw .system(error)
        }
    }

    public static func touchPipeline(
        for touch: TouchConfig, device: DeviceDescription, frame: Size, rotation: Rotation
    ) throws(PanelDeviceError) -> TouchPipeline {
        do {
            return try TouchPipeline(device: device, calibration: touch.calibration ?? .identity, rotation: rotation, frame: frame)
        } catch {
            throw .touch("\(device.name): \(error)")
        }
    }

    /// An evemu recording from a file (the replay backend, `gridlock replay` and `demo`),
    /// the one the configuration's check parsed if the file still holds it (`RecordingFile`).
    public static func loadRecording(_ path: String) throws(PanelDeviceError) -> EvemuRecording {
        do throws(RecordingFileError) {
            return try RecordingFile.load(path)
        } catch {
            throw .touch(error.reason)
        }
    }
}

/// Why the panel's display or touchscreen could not be made.
public enum PanelDeviceError: Error, CustomStringConvertible {
    case display(String)
    case touch(String)
    case system(SystemCallError)

    public var description: String {
        switch self {
        case .display(let reason): "display: \(reason)"
        case .touch(let reason): "touch: \(reason)"
        case .system(let error): "\(error)"
        }
    }
}

/// The builder's parts as `PartGroup` parts, each stopped its one way.
extension PartGroup {
    /// Closing the display gives the console its own picture back.
    public func add(display output: DisplayOutput) { add("display") { output.close() } }

    public func add(touch: TouchSource) { add("touch") { touch.detach() } }
}

extension PanelDevices {
    /// `[feedback] beeper=` as a source; nil for `off`. A beeper is never a reason not to
    /// start: without one (or without inotify for its hotplug) the lock is silent.
    public static func beeper(for choice: BeeperChoice, now: Instant) -> BeeperSource? {
        let selector: BeeperSelector
        switch choice {
        case .off: return nil
        case .auto: selector = .auto
        case .path(let path): selector = .path(path)
        }
        do {
            return try BeeperSource(settings: .init(selector: selector), now: now)
        } catch {
            BeeperSource.journal(.warning, "beeper: cannot watch \(InputDeviceDirectory.defaultPath): \(error); sounds are off")
            return nil
        }
    }
}
