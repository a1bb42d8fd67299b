import GridlockCore

// Plain values describing what a KMS device exposes. The libdrm adapter (`DRMDevice`)
// fills them in; every decision (`KMSChoice`) is a pure function over them, so the choice
// of card, connector, mode and CRTC is tested on captured data without a kernel.

/// One display mode, with every timing field of `drmModeModeInfo`, so a chosen mode can
/// be handed back to the kernel exactly as it was listed (a mode is identified by its
/// timings, not by its name).
public struct KMSMode: Hashable, Sendable, CustomStringConvertible {
    public var clock: UInt32
    public var hdisplay: UInt16, hsyncStart: UInt16, hsyncEnd: UInt16, htotal: UInt16, hskew: UInt16
    public var vdisplay: UInt16, vsyncStart: UInt16, vsyncEnd: UInt16, vtotal: UInt16, vscan: UInt16
    /// Hz, already rounded by the kernel (`drm_mode_vrefresh`).
    public var vrefresh: UInt32
    public var flags: UInt32
    /// DRM_MODE_TYPE_* bits.
    public var type: UInt32
    public var name: String

    /// DRM_MODE_TYPE_PREFERRED: the display's own preferred mode (from its EDID).
    public static let typePreferred: UInt32 = 1 << 3
    /// DRM_MODE_TYPE_USERDEF: set by the kernel on a mode built from `video=` on the command line.
    public static let typeUserDefined: UInt32 = 1 << 5

    public init(
        clock: UInt32 = 0, hdisplay: UInt16, hsyncStart: UInt16 = 0, hsyncEnd: UInt16 = 0, htotal: UInt16 = 0,
        hskew: UInt16 = 0, vdisplay: UInt16, vsyncStart: UInt16 = 0, vsyncEnd: UInt16 = 0, vtotal: UInt16 = 0,
        vscan: UInt16 = 0, vrefresh: UInt32, flags: UInt32 = 0, type: UInt32 = 0, name: String? = nil
    ) {
        self.clock = clock
        (self.hdisplay, self.hsyncStart, self.hsyncEnd, self.htotal, self.hskew) = (hdisplay, hsyncStart, hsyncEnd, htotal, hskew)
        (self.vdisplay, self.vsyncStart, self.vsyncEnd, self.vtotal, self.vscan) = (vdisplay, vsyncStart, vsyncEnd, vtotal, vscan)
        self.vrefresh = vrefresh
        self.flags = flags
        self.type = type
        self.name = name ?? "\(hdisplay)x\(vdisplay)"
    }

    public var width: Int { Int(hdisplay) }
    public var height: Int { Int(vdisplay) }
    public var size: Size { Size(width: Double(hdisplay), height: Double(vdisplay)) }
    public var isPreferred: Bool { type & Self.typePreferred != 0 }
    public var isUserDefined: Bool { type & Self.typeUserDefined != 0 }

    /// Same picture timings; the type bits and name may differ between the connector's
    /// list and what a CRTC reports as set.
    public func hasSameTimings(as other: KMSMode) -> Bool {
        clock == other.clock && hdisplay == other.hdisplay && hsyncStart == other.hsyncStart
            && hsyncEnd == other.hsyncEnd && htotal == other.htotal && hskew == other.hskew
            && vdisplay == other.vdisplay && vsyncStart == other.vsyncStart && vsyncEnd == other.vsyncEnd
            && vtotal == other.vtotal && vscan == other.vscan && vrefresh == other.vrefresh && flags == other.flags
    }

    public var description: String { "\(hdisplay)x\(vdisplay)@\(vrefresh)" }
}

public enum KMSConnection: String, Hashable, Sendable {
    case connected, disconnected, unknown
}

/// The connector's "panel orientation" property: how the panel is mounted in its case.
public enum PanelOrientation: String, Hashable, Sendable {
    case normal = "Normal"
    case upsideDown = "Upside Down"
    case leftSideUp = "Left Side Up"
    case rightSideUp = "Right Side Up"

    /// The turn that makes the picture upright on such a panel, in `Rotation`'s clockwise
    /// convention: a panel whose right side is up is turned counter-clockwise in its case,
    /// so the picture must be turned clockwise (Plymouth and the kernel docs agree).
    public var correction: Rotation {
        switch self {
        case .normal: .none
        case .upsideDown: .upsideDown
        case .leftSideUp: .clockwise270
        case .rightSideUp: .clockwise90
        }
    }
}

public struct KMSConnector: Hashable, Sendable {
    public var id: UInt32
    /// DRM_MODE_CONNECTOR_*.
    public var type: UInt32
    /// The number after the type in the kernel's name (`HDMI-A-1`).
    public var typeID: UInt32
    public var connection: KMSConnection
    public var modes: [KMSMode]
    /// The encoder driving it now (0: none).
    public var encoderID: UInt32
    public var encoderIDs: [UInt32]
    /// The enum name as the kernel spells it; nil when the connector has no such property.
    public var panelOrientation: String?
    /// The "DPMS" property's id, for blanking; nil when the driver has none.
    public var dpmsPropertyID: UInt32?
    public var widthMillimetres: UInt32 = 0
    public var heightMillimetres: UInt32 = 0

    public init(
        id: UInt32, type: UInt32, typeID: UInt32, connection: KMSConnection, modes: [KMSMode],
        encoderID: UInt32 = 0, encoderIDs: [UInt32] = [], panelOrientation: String? = nil, dpmsPropertyID: UInt32? = nil
    ) {
        self.id = id
        self.type = type
        self.typeID = typeID
        self.connection = connection
        self.modes = modes
        self.encoderID = encoderID
        self.encoderIDs = encoderIDs
        self.panelOrientation = panelOrientation
        self.dpmsPropertyID = dpmsPropertyID
    }

    /// As in /sys/class/drm (without the `cardN-` prefix) and in modetest, weston, Xorg.
    public var name: String { "\(KMSConnector.typeName(type))-\(typeID)" }

    /// Built-in panels, which a kiosk means when it says "the display".
    public var isInternalPanel: Bool { DRMModeConstants.internalPanelConnectorTypes.contains(type) }

    /// The kernel's `drm_connector_enum_list` names.
    public static func typeName(_ type: UInt32) -> String {
        let names = [
            "Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component", "DIN",
            "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB",
        ]
        return Int(type) < names.count ? names[Int(type)] : "Unknown"
    }
}

/// The kernel's KMS numbers that decisions here depend on, from include/uapi/drm/drm_mode.h.
/// The kernel's spellings are kept, as in `InputCodes`, so a reader can grep for them; a
/// test checks each against libdrm's copy of the header.
public enum DRMModeConstants {
    // Connector types (`KMSConnector.type`).
    public static let DRM_MODE_CONNECTOR_LVDS: UInt32 = 7
    public static let DRM_MODE_CONNECTOR_eDP: UInt32 = 14
    public static let DRM_MODE_CONNECTOR_DSI: UInt32 = 16
    public static let DRM_MODE_CONNECTOR_DPI: UInt32 = 17
    /// Not a display: a sink that writes frames back to memory.
    public static let DRM_MODE_CONNECTOR_WRITEBACK: UInt32 = 18

    /// Connectors wired to a built-in panel.
    public static let internalPanelConnectorTypes: Set<UInt32> = [
        DRM_MODE_CONNECTOR_LVDS, DRM_MODE_CONNECTOR_eDP, DRM_MODE_CONNECTOR_DSI, DRM_MODE_CONNECTOR_DPI,
    ]

    // Values of a connector's "DPMS" property.
    public static let DRM_MODE_DPMS_ON: UInt64 = 0
    public static let DRM_MODE_DPMS_OFF: UInt64 = 3
}

public struct KMSEncoder: Hashable, Sendable {
    public var id: UInt32
    /// The CRTC it is attached to now (0: none).
    public var crtcID: UInt32
    /// Bit i set: the i-th CRTC of the resources can drive it.
    public var possibleCrtcs: UInt32

    public init(id: UInt32, crtcID: UInt32, possibleCrtcs: UInt32) {
        self.id = id
        self.crtcID = crtcID
        self.possibleCrtcs = possibleCrtcs
    }
}

public struct KMSCrtc: Hashable, Sendable {
    public var id: UInt32
    /// The framebuffer scanned out now (0: none).
    public var bufferID: UInt32
    /// Where in that framebuffer scan-out starts (restored as it was).
    public var x: UInt32 = 0, y: UInt32 = 0
    /// The mode set now; nil when the CRTC is off.
    public var mode: KMSMode?

    public init(id: UInt32, bufferID: UInt32 = 0, x: UInt32 = 0, y: UInt32 = 0, mode: KMSMode? = nil) {
        self.id = id
        self.bufferID = bufferID
        self.x = x
        self.y = y
        self.mode = mode
    }
}

/// Everything one card exposes, in the kernel's order (CRTC order matters: `possibleCrtcs` indexes it).
public struct KMSCard: Hashable, Sendable {
    public var path: String
    public var driver: String
    public var supportsDumbBuffers: Bool
    public var connectors: [KMSConnector]
    public var encoders: [KMSEncoder]
    public var crtcs: [KMSCrtc]

    public init(
        path: String, driver: String = "", supportsDumbBuffers: Bool = true, connectors: [KMSConnector],
        encoders: [KMSEncoder], crtcs: [KMSCrtc]
    ) {
        self.path = path
        self.driver = driver
        self.supportsDumbBuffers = supportsDumbBuffers
        self.connectors = connectors
        self.encoders = encoders
        self.crtcs = crtcs
    }

    public func encoder(_ id: UInt32) -> KMSEncoder? { encoders.first { $0.id == id } }
    public func crtc(_ id: UInt32) -> KMSCrtc? { crtcs.first { $0.id == id } }
}

/// What the config asks for (the daemon's `[display]` section, mapped by the daemon).
public struct KMSRequest: Hashable, Sendable {
    public enum Device: Hashable, Sendable { case auto, path(String) }
    public enum Connector: Hashable, Sendable { case auto, named(String) }
    public enum Mode: Hashable, Sendable {
        case preferred, current
        case size(width: Int, height: Int, refreshHz: Int?)
    }

    public var device: Device
    public var connector: Connector
    public var mode: Mode
    /// `rotation=`; the panel's orientation is added to it.
    public var rotation: Rotation

    public init(device: Device = .auto, connector: Connector = .auto, mode: Mode = .preferred, rotation: Rotation = .none) {
        self.device = device
        self.connector = connector
        self.mode = mode
        self.rotation = rotation
    }
}

/// A complete choice: what to light and how.
public struct KMSSelection: Hashable, Sendable {
    public var connector: KMSConnector
    public var mode: KMSMode
    /// Why this mode (for the log and `gridlock devices`).
    public var modeReason: String
    public var crtcID: UInt32
    /// The config's rotation followed by the panel's orientation correction.
    public var rotation: Rotation

    /// The frame the renderer draws.
    public var logicalSize: Size { rotation.logicalSize(physical: mode.size) }
}
