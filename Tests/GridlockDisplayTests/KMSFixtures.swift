import GridlockCore
import GridlockDisplay

/// Cards as `modetest`/`drm_info` show them on real machines (ids, types, timings and
/// flags copied from such dumps), for the choice logic.
enum KMSFixtures {
    static let preferred = KMSMode.typePreferred | (1 << 6)  // PREFERRED | DRIVER, as drivers list it
    static let driver: UInt32 = 1 << 6

    // CEA/VESA timings.
    static func m1920x1080at60(type: UInt32 = driver) -> KMSMode {
        KMSMode(clock: 148_500, hdisplay: 1920, hsyncStart: 2008, hsyncEnd: 2052, htotal: 2200, vdisplay: 1080,
                vsyncStart: 1084, vsyncEnd: 1089, vtotal: 1125, vrefresh: 60, flags: 5, type: type)
    }
    static func m1920x1080at50(type: UInt32 = driver) -> KMSMode {
        KMSMode(clock: 148_500, hdisplay: 1920, hsyncStart: 2448, hsyncEnd: 2492, htotal: 2640, vdisplay: 1080,
                vsyncStart: 1084, vsyncEnd: 1089, vtotal: 1125, vrefresh: 50, flags: 5, type: type)
    }
    static func m1280x720at60(type: UInt32 = driver) -> KMSMode {
        KMSMode(clock: 74_250, hdisplay: 1280, hsyncStart: 1390, hsyncEnd: 1430, htotal: 1650, vdisplay: 720,
                vsyncStart: 725, vsyncEnd: 730, vtotal: 750, vrefresh: 60, flags: 5, type: type)
    }
    static func m1024x768at60(type: UInt32 = driver) -> KMSMode {
        KMSMode(clock: 65_000, hdisplay: 1024, hsyncStart: 1048, hsyncEnd: 1184, htotal: 1344, vdisplay: 768,
                vsyncStart: 771, vsyncEnd: 777, vtotal: 806, vrefresh: 60, flags: 10, type: type)
    }
    static func m1280x800at75(type: UInt32 = driver) -> KMSMode {
        KMSMode(clock: 106_500, hdisplay: 1280, hsyncStart: 1360, hsyncEnd: 1488, htotal: 1696, vdisplay: 800,
                vsyncStart: 803, vsyncEnd: 809, vtotal: 838, vrefresh: 75, flags: 6, type: type)
    }
    static func m800x480at60(type: UInt32 = driver) -> KMSMode {
        KMSMode(clock: 33_300, hdisplay: 800, hsyncStart: 1010, hsyncEnd: 1030, htotal: 1056, vdisplay: 480,
                vsyncStart: 502, vsyncEnd: 505, vtotal: 525, vrefresh: 60, flags: 10, type: type)
    }
    static func eDP1080at48() -> KMSMode {
        KMSMode(clock: 110_880, hdisplay: 1920, hsyncStart: 1968, hsyncEnd: 2000, htotal: 2080, vdisplay: 1080,
                vsyncStart: 1083, vsyncEnd: 1088, vtotal: 1111, vrefresh: 48, flags: 10, type: driver)
    }

    /// A laptop on i915: HDMI listed first (as the kernel may), eDP lit by the firmware on CRTC 51.
    static var laptop: KMSCard {
        KMSCard(
            path: "/dev/dri/card0", driver: "i915",
            connectors: [
                KMSConnector(id: 236, type: 11, typeID: 1, connection: .connected,
                             modes: [m1920x1080at60(type: preferred), m1920x1080at50(), m1280x720at60()],
                             encoderID: 0, encoderIDs: [235], dpmsPropertyID: 2),
                KMSConnector(id: 245, type: 10, typeID: 1, connection: .disconnected, modes: [], encoderIDs: [244]),
                KMSConnector(id: 226, type: 14, typeID: 1, connection: .connected,
                             modes: [m1920x1080at60(type: preferred), eDP1080at48()],
                             encoderID: 225, encoderIDs: [225], panelOrientation: "Normal", dpmsPropertyID: 2),
            ],
            encoders: [
                KMSEncoder(id: 225, crtcID: 51, possibleCrtcs: 0b111),
                KMSEncoder(id: 235, crtcID: 0, possibleCrtcs: 0b111),
                KMSEncoder(id: 244, crtcID: 0, possibleCrtcs: 0b111),
            ],
            crtcs: [
                KMSCrtc(id: 51, bufferID: 300, mode: m1920x1080at60(type: preferred)),
                KMSCrtc(id: 72),
                KMSCrtc(id: 93),
            ])
    }

    /// QEMU `-vga std` (bochs-drm): one virtual connector, EDID preferring 1280x800.
    static var bochs: KMSCard {
        KMSCard(
            path: "/dev/dri/card0", driver: "bochs-drm",
            connectors: [
                KMSConnector(id: 36, type: 15, typeID: 1, connection: .connected,
                             modes: [m1280x800at75(type: preferred), m1920x1080at60(), m1280x720at60(), m1024x768at60(), m800x480at60()],
                             encoderID: 35, encoderIDs: [35], dpmsPropertyID: 2),
            ],
            encoders: [KMSEncoder(id: 35, crtcID: 34, possibleCrtcs: 0b1)],
            crtcs: [KMSCrtc(id: 34, bufferID: 40, mode: m1024x768at60())])
    }

    /// A Raspberry Pi (vc4) with the 7" DSI panel mounted on its side, HDMI unplugged; the
    /// firmware left nothing lit.
    static var piPortrait: KMSCard {
        KMSCard(
            path: "/dev/dri/card1", driver: "vc4",
            connectors: [
                KMSConnector(id: 32, type: 11, typeID: 1, connection: .disconnected, modes: [], encoderIDs: [31]),
                KMSConnector(id: 40, type: 16, typeID: 1, connection: .connected, modes: [m800x480at60(type: preferred)],
                             encoderID: 0, encoderIDs: [39], panelOrientation: "Right Side Up", dpmsPropertyID: 2),
            ],
            encoders: [
                KMSEncoder(id: 31, crtcID: 0, possibleCrtcs: 0b0100),
                KMSEncoder(id: 39, crtcID: 0, possibleCrtcs: 0b0010),
            ],
            crtcs: [KMSCrtc(id: 60), KMSCrtc(id: 77), KMSCrtc(id: 94), KMSCrtc(id: 111)])
    }

    /// The Pi's card0 is the v3d render-only GPU: no connectors, no CRTCs.
    static var piRenderOnly: KMSCard {
        KMSCard(path: "/dev/dri/card0", driver: "v3d", supportsDumbBuffers: false, connectors: [], encoders: [], crtcs: [])
    }

    /// simpledrm on the firmware framebuffer, before the real driver loads.
    static var simpledrm: KMSCard {
        KMSCard(
            path: "/dev/dri/card0", driver: "simpledrm",
            connectors: [
                KMSConnector(id: 31, type: 0, typeID: 1, connection: .connected, modes: [m1024x768at60(type: preferred)],
                             encoderID: 30, encoderIDs: [30]),
            ],
            encoders: [KMSEncoder(id: 30, crtcID: 29, possibleCrtcs: 1)],
            crtcs: [KMSCrtc(id: 29, bufferID: 33, mode: m1024x768at60(type: preferred))])
    }

    static func with(_ card: KMSCard, connector index: Int, _ change: (inout KMSConnector) -> Void) -> KMSCard {
        var card = card
        change(&card.connectors[index])
        return card
    }
}
