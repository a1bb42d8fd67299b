import CEvdev
import GridlockCore
import GridlockInput
import LinuxSys

/// Why a device could not be opened or used; always names the device.
public enum EvdevError: Error, Hashable, Sendable, CustomStringConvertible {
    /// open(2) failed: EACCES (permissions), ENOENT (gone), ...
    case open(path: String, Errno)
    /// The node opened but is not an evdev device libevdev can read (EVIOCGBIT etc. failed).
    case notEvdev(path: String, Errno)
    /// EVIOCGRAB failed, almost always EBUSY: another process holds the grab.
    case grab(path: String, Errno)
    case clock(path: String, Errno)

    public var path: String {
        switch self {
        case .open(let path, _), .notEvdev(let path, _), .grab(let path, _), .clock(let path, _): path
        }
    }

    public var errno: Errno {
        switch self {
        case .open(_, let e), .notEvdev(_, let e), .grab(_, let e), .clock(_, let e): e
        }
    }

    public var description: String {
        switch self {
        case .open(let path, let errno):
            if errno == .permissionDenied || errno == .notPermitted {
                return "cannot open \(path): \(errno); the service must be in group `input`, "
                    + "and udev/70-gridlock.rules (installed in /etc/udev/rules.d) gives that group "
                    + "touchscreens; check with `ls -l \(path)` and `id`"
            }
            return "cannot open \(path): \(errno)"
        case .notEvdev(let path, let errno):
            return "\(path) is not an evdev input device libevdev can read: \(errno)"
        case .grab(let path, let errno):
            return "cannot grab \(path) (EVIOCGRAB): \(errno); another process holds it, "
                + "find it with `fuser -v \(path)`"
        case .clock(let path, let errno):
            return "cannot set \(path)'s timestamps to CLOCK_MONOTONIC (EVIOCSCLOCKID): \(errno)"
        }
    }
}

/// One open evdev device through libevdev: its description, its events (non-blocking,
/// CLOCK_MONOTONIC timestamps), its state after a sync, and the grab. Closes its
/// descriptor in `deinit` or `close()`, whichever comes first.
public final class EvdevDevice: EvdevEventSource {
    /// The path it was opened by (after resolving links: `/dev/input/eventN`).
    public let path: String
    public let fileDescriptor: FileDescriptor
    public let description: DeviceDescription
    public private(set) var isGrabbed = false
    private var handle: OpaquePointer?

    /// `monotonicClock`: ask the kernel for CLOCK_MONOTONIC timestamps, the clock the
    /// daemon's deadlines use, so a frame's kernel time and the loop's time compare
    /// (the default CLOCK_REALTIME jumps with NTP). `gridlock devices` does not need it.
    public init(path: String, monotonicClock: Bool = true) throws(EvdevError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.openDeviceForReading(path)
        } catch {
            throw .open(path: path, error.errno)
        }
        var handle: OpaquePointer?
        let status = libevdev_new_from_fd(fd.rawValue, &handle)
        guard status == 0, let handle else {
            fd.close()
            throw .notEvdev(path: path, Errno(rawValue: -status))
        }
        if monotonicClock {
            let status = libevdev_set_clock_id(handle, MonotonicClock.id)
            if status != 0 {
                libevdev_free(handle)
                fd.close()
                throw .clock(path: path, Errno(rawValue: -status))
            }
        }
        self.path = path
        self.fileDescriptor = fd
        self.handle = handle
        self.description = Self.describe(handle)
    }

    deinit { close() }

    /// Frees libevdev's state and closes the descriptor (which also ends a grab).
    public func close() {
        guard let handle else { return }
        libevdev_free(handle)
        fileDescriptor.close()
        self.handle = nil
        isGrabbed = false
    }

    public var isOpen: Bool { handle != nil }

    /// EVIOCGRAB: while held, no other reader (console, X, a session behind the lock)
    /// sees this device's events.
    public func setGrabbed(_ grabbed: Bool) throws(EvdevError) {
        guard let handle else { return }
        let status = libevdev_grab(handle, grabbed ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB)
        guard status == 0 else { throw .grab(path: path, Errno(rawValue: -status)) }
        isGrabbed = grabbed
    }

    public func nextEvent(sync: Bool) -> EvdevReadResult {
        guard let handle else { return .failed(.noSuchDevice) }
        let flags = sync ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
        var raw = input_event()
        let status = libevdev_next_event(handle, flags, &raw)
        if status == -Errno.wouldBlock.rawValue { return .exhausted }
        if status < 0 { return .failed(Errno(rawValue: -status)) }
        let event = InputEvent(
            time: Instant(nanoseconds: gridlock_input_event_nanoseconds(&raw)),
            type: raw.type, code: raw.code, value: raw.value)
        // In normal mode SYNC means "this is SYN_DROPPED"; in sync mode it marks every sync event.
        if status == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) && !sync { return .syncNeeded(event) }
        return .event(event)
    }

    public func touchSnapshot() -> TouchSnapshot {
        guard let handle else { return TouchSnapshot(touching: false) }
        let slotCount = max(0, libevdev_get_num_slots(handle))
        let slots = (0..<slotCount).map { slot in
            TouchSnapshot.Slot(
                trackingID: libevdev_get_slot_value(handle, UInt32(slot), UInt32(InputCodes.ABS_MT_TRACKING_ID)),
                x: libevdev_get_slot_value(handle, UInt32(slot), UInt32(InputCodes.ABS_MT_POSITION_X)),
                y: libevdev_get_slot_value(handle, UInt32(slot), UInt32(InputCodes.ABS_MT_POSITION_Y)))
        }
        let abs = UInt32(InputCodes.EV_ABS)
        return TouchSnapshot(
            currentSlot: slotCount > 0 ? libevdev_get_current_slot(handle) : 0,
            slots: slots,
            touching: libevdev_get_event_value(handle, UInt32(InputCodes.EV_KEY), UInt32(InputCodes.BTN_TOUCH)) != 0,
            x: libevdev_get_event_value(handle, abs, UInt32(InputCodes.ABS_X)),
            y: libevdev_get_event_value(handle, abs, UInt32(InputCodes.ABS_Y)))
    }

    /// The device as libevdev sees it, in the same shape an evemu recording gives, so
    /// device choice and the decoder work alike on both.
    static func describe(_ handle: OpaquePointer) -> DeviceDescription {
        let name = libevdev_get_name(handle).map { String(cString: $0) } ?? ""
        let id = DeviceID(
            bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)))
        var properties: Set<UInt16> = []
        for property in 0...InputCodes.INPUT_PROP_MAX where libevdev_has_property(handle, UInt32(property)) != 0 {
            properties.insert(property)
        }
        var codes: [UInt16: Set<UInt16>] = [:]
        var axes: [UInt16: AbsInfo] = [:]
        // EV_SYN included, as evemu-record writes it, so a recording's description and a
        // live device's compare equal.
        for type in 0...InputCodes.EV_MAX where libevdev_has_event_type(handle, UInt32(type)) != 0 {
            let maximum = libevdev_event_type_get_max(UInt32(type))
            guard maximum >= 0 else { continue }
            var set: Set<UInt16> = []
            for code in 0...UInt16(maximum) where libevdev_has_event_code(handle, UInt32(type), UInt32(code)) != 0 {
                set.insert(code)
                if type == InputCodes.EV_ABS, let info = libevdev_get_abs_info(handle, UInt32(code))?.pointee {
                    axes[code] = AbsInfo(
                        minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat,
                        resolution: info.resolution)
                }
            }
            codes[type] = set
        }
        return DeviceDescription(name: name, id: id, properties: properties, codes: codes, axes: axes)
    }
}
