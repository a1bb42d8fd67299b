import GridlockCore
import GridlockInput
import LinuxSys

/// `[touch] backend=evdev`: one touch panel read through libevdev, chosen as `device=`
/// says, with hotplug through inotify on /dev/input.
///
/// Lifecycle of the device (`InputNodeLifecycle`): chosen and opened at start (or later,
/// when one appears); read to EAGAIN on every wake-up; on SYN_DROPPED resynced (the
/// stroke is cancelled); on a read error (ENODEV when unplugged, EIO) the stroke is
/// cancelled and the device closed, and the daemon keeps running until inotify says a
/// device node appeared or changed (IN_ATTRIB: udev sets a new node's group and mode
/// after creating it). There is no polling: without a device the source only waits on
/// its inotify descriptor.
public final class EvdevTouchSource: TouchSource {
    public struct Settings: Sendable {
        public var selector: DeviceSelector
        /// EVIOCGRAB while locked (`[touch] grab=`).
        public var grab: Bool
        /// `[touch] calibration=`; nil: the device's LIBINPUT_CALIBRATION_MATRIX, or none.
        public var calibration: CalibrationMatrix?
        public var directory: String

        public init(
            selector: DeviceSelector, grab: Bool = true, calibration: CalibrationMatrix? = nil,
            directory: String = InputDeviceDirectory.defaultPath
        ) {
            self.selector = selector
            self.grab = grab
            self.calibration = calibration
            self.directory = directory
        }
    }

    /// An open panel and the decoder state of its stream.
    final class OpenDevice {
        let handle: any EvdevDeviceHandle
        var reader: EvdevTouchReader

        init(handle: any EvdevDeviceHandle, reader: EvdevTouchReader) {
            self.handle = handle
            self.reader = reader
        }
    }

    private let settings: Settings
    private let environment: any EvdevEnvironment
    private let log: (LogPriority, String) -> Void
    private var lifecycle: InputNodeLifecycle<OpenDevice>!
    private var emit: (TouchEvent, Instant) -> Void = { _, _ in }
    private var frame: Size
    private var rotation: Rotation
    private var grabWanted: Bool
    /// False while calibrating: touches are mapped through the identity, on this device
    /// and on any opened meanwhile.
    private var calibratedWanted = true
    /// What was last logged about the choice, so that a burst of hotplug events does not
    /// repeat the same lines.
    private var lastChoiceLog: [String] = []

    public init(
        settings: Settings, frame: Size, rotation: Rotation, now: Instant,
        environment: any EvdevEnvironment = LibevdevEnvironment(),
        log: @escaping (LogPriority, String) -> Void = EvdevTouchSource.journal
    ) throws(SystemCallError) {
        self.settings = settings
        self.environment = environment
        self.log = log
        self.frame = frame
        self.rotation = rotation
        grabWanted = settings.grab
        lifecycle = try InputNodeLifecycle(
            directory: settings.directory, cause: "touch", quietAfterLoss: false, log: log,
            hooks: .init(
                open: { [unowned self] now in openChosenDevice(now: now) },
                close: { [unowned self] device in
                    device.handle.close()
                    grabbed = false
                },
                descriptor: { $0.handle.fileDescriptor },
                readable: { [unowned self] device, now in read(device, now: now) }))
        lifecycle.start(now: now)
    }

    // MARK: TouchSource

    public func attach(to loop: EventLoop, emit: @escaping (TouchEvent, Instant) -> Void) {
        self.emit = emit
        lifecycle.attach(to: loop)
    }

    public func detach() { lifecycle.detach() }

    public func setGrabbed(_ grabbed: Bool) {
        grabWanted = settings.grab && grabbed
        guard let device = lifecycle.node?.handle else { return }
        applyGrab(to: device)
    }

    public func setFrame(_ frame: Size, rotation: Rotation) {
        self.frame = frame
        self.rotation = rotation
        lifecycle.node?.reader.setFrame(frame, rotation: rotation)
    }

    public func setCalibrated(_ calibrated: Bool) {
        guard calibrated != calibratedWanted else { return }
        calibratedWanted = calibrated
        if let path = lifecycle.node?.handle.path {
            log(.info, calibrated ? "calibration of \(path): applied again" : "calibration of \(path): set aside while calibrating (raw touches)")
        }
        lifecycle.node?.reader.setCalibrated(calibrated)
    }

    // MARK: What the loop and tests can see

    /// The open device's node, nil while waiting for one.
    public var devicePath: String? { lifecycle.node?.handle.path }
    /// SYN_DROPPED events met on the current device.
    public var dropCount: Int { lifecycle.node?.reader.dropCount ?? 0 }
    public var isGrabbed: Bool { grabbed }
    private var grabbed = false
    /// When the next look for a device is due, nil while only waiting on inotify.
    var rescanDue: Instant? { lifecycle.rescanDue }

    // MARK: Reading

    private func read(_ device: OpenDevice, now: Instant) {
        let dropsBefore = device.reader.dropCount
        let outcome = device.reader.drain(device.handle, now: now, emit)
        let path = device.handle.path
        if device.reader.dropCount > dropsBefore {
            // The kernel's buffer overflowed: the loop was too slow (or stopped) for a while.
            log(.notice, "touch device \(path) dropped events (SYN_DROPPED, \(device.reader.dropCount) so far); resynced from the kernel's state")
        }
        if case .lost(let error) = outcome {
            lifecycle.lose(
                .warning,
                "touch device \(path) \"\(device.handle.description.name)\" lost: \(error); any stroke in progress was cancelled; waiting for a touch device to appear",
                now: now)
        }
    }

    // MARK: Choosing and opening

    private func openChosenDevice(now: Instant) -> OpenDevice? {
        guard let path = choose() else { return nil }
        let opened: any EvdevDeviceHandle
        do {
            opened = try environment.open(path)
        } catch {
            // Gone or re-permissioned between the scan and now: the next inotify event retries.
            lifecycle.report(.error, "\(error)")
            return nil
        }
        let calibration = chooseCalibration(for: opened)
        let pipeline: TouchPipeline
        do {
            pipeline = try TouchPipeline(device: opened.description, calibration: calibration, rotation: rotation, frame: frame)
        } catch {
            lifecycle.report(.error, "touch device \(path) \"\(opened.description.name)\" cannot be used: \(error)")
            opened.close()
            return nil
        }
        var reader = EvdevTouchReader(pipeline: pipeline)
        reader.setCalibrated(calibratedWanted)
        reader.start(opened, at: now) { _, _ in }
        lastChoiceLog = []
        log(.info, "reading touches from \(path) \"\(opened.description.name)\": \(Self.summary(opened.description, pipeline))")
        applyGrab(to: opened)
        return OpenDevice(handle: opened, reader: reader)
    }

    /// Runs the choice and logs it (once per distinct outcome); the chosen node's path.
    private func choose() -> String? {
        let selection: DeviceSelection
        switch settings.selector {
        case .path(let configured):
            let resolved: String
            do {
                resolved = try environment.resolve(configured)
            } catch {
                lifecycle.report(.warning, "touch device \(configured) (device=) is not there: \(error.errno); waiting for it to appear")
                return nil
            }
            selection = DeviceSelection(settings.selector, among: [environment.describe(resolved)], resolvedPath: resolved)
        case .auto, .name:
            do {
                selection = DeviceSelection(settings.selector, among: try environment.scan(settings.directory))
            } catch {
                lifecycle.report(.error, "cannot list \(settings.directory): \(error); waiting for input devices to appear")
                return nil
            }
        }
        let lines = selection.logLines
        if lines != lastChoiceLog {
            let priority: LogPriority = selection.chosen == nil ? .warning : .info
            // While waiting, a node's verdict is said once while it stays: every hotplug
            // event rescans, and one digitizer's nodes (touchpad, mouse, pen) appear one by one.
            let said = selection.chosen == nil ? Set(lastChoiceLog.dropFirst()) : []
            for (index, line) in lines.enumerated() where index == 0 || !said.contains(line) { log(priority, line) }
            lastChoiceLog = lines
        }
        return selection.chosen?.path
    }

    private func chooseCalibration(for device: any EvdevDeviceHandle) -> CalibrationMatrix {
        if let configured = settings.calibration {
            log(.info, "calibration of \(device.path): \(configured) ([touch] calibration=)")
            return configured
        }
        switch environment.udevCalibration(of: device) {
        case .matrix(let matrix, let source):
            log(.info, "calibration of \(device.path): \(matrix) (LIBINPUT_CALIBRATION_MATRIX from \(source))")
            return matrix
        case .invalid(let problem, let source):
            log(.warning, "calibration of \(device.path): ignoring \(source): \(problem); using none")
            return .identity
        case .none:
            log(.info, "calibration of \(device.path): none (no [touch] calibration= and no LIBINPUT_CALIBRATION_MATRIX in udev)")
            return .identity
        }
    }

    /// A failed grab is not fatal: the lock still works, other readers just see the strokes too.
    private func applyGrab(to device: any EvdevDeviceHandle) {
        guard grabbed != grabWanted else { return }
        do {
            try device.setGrabbed(grabWanted)
            grabbed = grabWanted
            log(.info, "\(grabWanted ? "grabbed" : "released") \(device.path) (EVIOCGRAB)")
        } catch {
            log(.warning, "\(error); carrying on without exclusive access")
        }
    }

    // MARK: Helpers

    /// Everything this source says is about the touch device: one MESSAGE_ID for all of it.
    public static func journal(_ priority: LogPriority, _ message: String) {
        Journal.log(priority, message, JournalFields(
            messageID: JournalCatalog.touchDevice, fields: ["GRIDLOCK_EVENT": "touch-device"]))
    }

    static func summary(_ description: DeviceDescription, _ pipeline: TouchPipeline) -> String {
        let decoder = pipeline.decoder
        let mapper = pipeline.mapper
        let proto: String
        switch decoder.touchProtocol {
        case .protocolB: proto = "multitouch protocol B, \(decoder.slotCount) slots"
        case .protocolA: proto = "multitouch protocol A"
        case .singleTouch: proto = "single touch"
        }
        return "\(proto), x \(mapper.x.minimum)...\(mapper.x.maximum), y \(mapper.y.minimum)...\(mapper.y.maximum)"
    }
}
