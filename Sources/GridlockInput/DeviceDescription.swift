/// The kernel's `struct input_id`: who made the device and how it is attached.
public struct DeviceID: Hashable, Sendable {
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// The kernel's `struct input_absinfo` for one absolute axis (without the current value,
/// which describes a moment, not the device).
public struct AbsInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre for position axes; 0 when the driver does not say.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What an input device is and can report: the part of an evemu recording before
/// the events, or what the libevdev adapter reads from an open device.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    public var id: DeviceID
    /// INPUT_PROP_* bits.
    public var properties: Set<UInt16>
    /// Supported codes by event type. Types without any code are left out, so that two
    /// descriptions of the same device compare equal however they were built.
    public private(set) var codes: [UInt16: Set<UInt16>]
    /// Axis ranges by ABS code.
    public var axes: [UInt16: AbsInfo]

    public init(
        name: String,
        id: DeviceID,
        properties: Set<UInt16> = [],
        codes: [UInt16: Set<UInt16>] = [:],
        axes: [UInt16: AbsInfo] = [:]
    ) {
        self.name = name
        self.id = id
        self.properties = properties
        self.codes = codes.filter { !$0.value.isEmpty }
        self.axes = axes
    }

    public func supports(type: UInt16, code: UInt16) -> Bool {
        codes[type]?.contains(code) ?? false
    }

    public func supports(type: UInt16) -> Bool { codes[type] != nil }

    public func hasProperty(_ property: UInt16) -> Bool { properties.contains(property) }

    public func absInfo(_ code: UInt16) -> AbsInfo? { axes[code] }

    public mutating func enable(type: UInt16, code: UInt16) {
        codes[type, default: []].insert(code)
    }

    /// Multitouch position axes that can be trusted. Some devices (joysticks, odd HID
    /// descriptors) claim every ABS code; the kernel then has ABS_MT_SLOT - 1 set too,
    /// and udev and libinput refuse to treat such axes as multitouch. So do we.
    public var hasMultitouchPosition: Bool {
        let abs = InputCodes.EV_ABS
        guard supports(type: abs, code: InputCodes.ABS_MT_POSITION_X),
            supports(type: abs, code: InputCodes.ABS_MT_POSITION_Y)
        else { return false }
        let claimsAll =
            supports(type: abs, code: InputCodes.ABS_MT_SLOT)
            && supports(type: abs, code: InputCodes.ABS_MT_SLOT - 1)
        return !claimsAll
    }

    public var hasSingleTouchPosition: Bool {
        supports(type: InputCodes.EV_ABS, code: InputCodes.ABS_X)
            && supports(type: InputCodes.EV_ABS, code: InputCodes.ABS_Y)
    }
}
