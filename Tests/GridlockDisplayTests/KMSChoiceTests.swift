import GridlockCore
import GridlockDisplay
import Testing

@Suite("KMS choice")
struct KMSChoiceTests {
    typealias F = KMSFixtures

    // MARK: Connector

    @Test("auto prefers the connected internal panel even when HDMI is listed first")
    func prefersInternalPanel() throws {
        let connector = try KMSChoice.connector(.auto, on: F.laptop)
        #expect(connector.name == "eDP-1")
    }

    @Test("auto takes the first connected connector when there is no panel")
    func firstConnectedWithoutPanel() throws {
        let card = F.with(F.laptop, connector: 2) { $0.connection = .disconnected }
        #expect(try KMSChoice.connector(.auto, on: card).name == "HDMI-A-1")
    }

    @Test("the connected panel is chosen over unplugged HDMI; with nothing connected the error says wait")
    func nothingConnected() throws {
        #expect(try KMSChoice.connector(.auto, on: F.piPortrait).name == "DSI-1")
        let card = F.with(F.piPortrait, connector: 1) { $0.connection = .disconnected }
        let error = expectError(KMSChoiceError.self) { try KMSChoice.connector(.auto, on: card) }
        #expect(error == .noConnectedConnector(card: "/dev/dri/card1"))
        #expect(error?.mayResolveLater == true)
    }

    @Test("a connector in unknown state with modes is used only when nothing reports connected")
    func unknownState() throws {
        var card = F.with(F.laptop, connector: 0) { $0.connection = .unknown }
        #expect(try KMSChoice.connector(.auto, on: card).name == "eDP-1")
        card = F.with(card, connector: 2) { $0.connection = .disconnected }
        #expect(try KMSChoice.connector(.auto, on: card).name == "HDMI-A-1")
    }

    @Test("names are the kernel's: type name and number")
    func names() {
        #expect(F.laptop.connectors.map(\.name) == ["HDMI-A-1", "DP-1", "eDP-1"])
        #expect(F.bochs.connectors[0].name == "Virtual-1")
        #expect(F.simpledrm.connectors[0].name == "Unknown-1")
        #expect(KMSConnector.typeName(17) == "DPI")
        #expect(KMSConnector.typeName(999) == "Unknown")
    }

    @Test("a named connector is found; a missing one lists what exists; an unplugged one says so")
    func named() throws {
        #expect(try KMSChoice.connector(.named("HDMI-A-1"), on: F.laptop).id == 236)
        let missing = expectError(KMSChoiceError.self) { try KMSChoice.connector(.named("HDMI-A-2"), on: F.laptop) }
        #expect(missing == .noSuchConnector(card: "/dev/dri/card0", name: "HDMI-A-2", available: ["HDMI-A-1", "DP-1", "eDP-1"]))
        #expect(missing?.description.contains("HDMI-A-1, DP-1, eDP-1") == true)
        let unplugged = expectError(KMSChoiceError.self) { try KMSChoice.connector(.named("DP-1"), on: F.laptop) }
        #expect(unplugged == .connectorNotConnected(card: "/dev/dri/card0", name: "DP-1"))
    }

    // MARK: Mode

    @Test("preferred: video= first, then PREFERRED, then the current mode, then the first")
    func preferredOrder() throws {
        var connector = F.bochs.connectors[0]
        let current = F.m1024x768at60()
        // PREFERRED wins over the mode set now.
        #expect(try KMSChoice.mode(.preferred, for: connector, current: current).0 == F.m1280x800at75(type: F.preferred))
        // A video= mode wins over PREFERRED.
        connector.modes[3].type |= KMSMode.typeUserDefined
        let (user, reason) = try KMSChoice.mode(.preferred, for: connector, current: current)
        #expect(user.width == 1024 && user.isUserDefined)
        #expect(reason.contains("video="))
        // Without either, the mode set now (matched by timings, not by type bits).
        connector = F.bochs.connectors[0]
        connector.modes[0].type = F.driver
        #expect(try KMSChoice.mode(.preferred, for: connector, current: current).0.width == 1024)
        // Without a current mode, the first listed.
        #expect(try KMSChoice.mode(.preferred, for: connector, current: nil).0.width == 1280)
        // A current mode the connector does not list is not forced on it.
        #expect(try KMSChoice.mode(.preferred, for: connector, current: F.eDP1080at48()).0 == connector.modes[0])
    }

    @Test("current keeps the mode set now, and falls back to the preferred order when none is")
    func current() throws {
        let connector = F.bochs.connectors[0]
        #expect(try KMSChoice.mode(.current, for: connector, current: F.m1024x768at60()).0.width == 1024)
        let (mode, reason) = try KMSChoice.mode(.current, for: connector, current: nil)
        #expect(mode.width == 1280 && mode.height == 800)
        #expect(reason.contains("no mode was set"))
    }

    @Test("WxH takes the preferred mode of that size, else the fastest; WxH@Hz that rate")
    func sized() throws {
        let hdmi = F.laptop.connectors[0]
        let any = try KMSChoice.mode(.size(width: 1920, height: 1080, refreshHz: nil), for: hdmi, current: nil).0
        #expect(any.vrefresh == 60 && any.isPreferred)
        let fifty = try KMSChoice.mode(.size(width: 1920, height: 1080, refreshHz: 50), for: hdmi, current: nil).0
        #expect(fifty.vrefresh == 50)
        var unflagged = hdmi
        unflagged.modes[0].type = F.driver
        unflagged.modes.swapAt(0, 1)
        #expect(try KMSChoice.mode(.size(width: 1920, height: 1080, refreshHz: nil), for: unflagged, current: nil).0.vrefresh == 60)
    }

    @Test("a size or rate the connector does not offer is an error listing what it does")
    func missingMode() {
        let hdmi = F.laptop.connectors[0]
        let error = expectError(KMSChoiceError.self) {
            try KMSChoice.mode(.size(width: 1920, height: 1080, refreshHz: 30), for: hdmi, current: nil)
        }
        #expect(error == .noSuchMode(connector: "HDMI-A-1", requested: "1920x1080@30", available: ["1920x1080@60", "1920x1080@50", "1280x720@60"]))
        #expect(error?.mayResolveLater == false)
    }

    // MARK: CRTC

    @Test("the CRTC the connector's encoder drives now is kept")
    func keepsLitCrtc() throws {
        #expect(try KMSChoice.crtc(for: F.laptop.connectors[2], on: F.laptop) == 51)
        #expect(try KMSChoice.crtc(for: F.bochs.connectors[0], on: F.bochs) == 34)
    }

    @Test("otherwise the first compatible CRTC that lights no other connector")
    func firstFreeCompatible() throws {
        // HDMI may use all three, but CRTC 51 drives the panel.
        #expect(try KMSChoice.crtc(for: F.laptop.connectors[0], on: F.laptop) == 72)
        // The DSI encoder can only use the second CRTC.
        #expect(try KMSChoice.crtc(for: F.piPortrait.connectors[1], on: F.piPortrait) == 77)
    }

    @Test("a connector no CRTC can drive is an error")
    func noCrtc() {
        var card = F.piPortrait
        card.encoders[1].possibleCrtcs = 0
        #expect(throws: KMSChoiceError.noCrtc(connector: "DSI-1")) { try KMSChoice.crtc(for: card.connectors[1], on: card) }
    }

    // MARK: Rotation

    @Test("panel orientation values map to the clockwise turn that makes the picture upright")
    func panelOrientation() {
        #expect(PanelOrientation.normal.correction == .none)
        #expect(PanelOrientation.upsideDown.correction == .upsideDown)
        #expect(PanelOrientation.rightSideUp.correction == .clockwise90)
        #expect(PanelOrientation.leftSideUp.correction == .clockwise270)
    }

    @Test("the config's rotation and the panel's orientation add up", arguments: Rotation.allCases)
    func rotationCombines(requested: Rotation) throws {
        let panel = F.piPortrait.connectors[1]  // Right Side Up
        let expected = Rotation(degrees: (requested.degrees + 90) % 360)!
        #expect(try KMSChoice.rotation(requested, panel: panel) == expected)
        #expect(try KMSChoice.rotation(requested, panel: F.bochs.connectors[0]) == requested)
    }

    @Test("an orientation this program does not know is an error, never ignored")
    func unknownOrientation() {
        var panel = F.piPortrait.connectors[1]
        panel.panelOrientation = "Diagonal"
        let error = expectError(KMSChoiceError.self) { try KMSChoice.rotation(.none, panel: panel) }
        #expect(error == .unknownPanelOrientation(connector: "DSI-1", value: "Diagonal"))
    }

    @Test("the whole selection on a portrait-mounted panel gives a portrait logical frame")
    func selectPortrait() throws {
        let s = try KMSChoice.select(KMSRequest(), on: F.piPortrait)
        #expect(s.connector.name == "DSI-1")
        #expect(s.mode.width == 800 && s.mode.height == 480)
        #expect(s.crtcID == 77)
        #expect(s.rotation == .clockwise90)
        #expect(s.logicalSize == Size(width: 480, height: 800))
    }

    // MARK: Card

    @Test("auto skips cards without KMS or dumb buffers")
    func skipsRenderOnly() {
        #expect(KMSChoice.card(KMSRequest(), among: [F.piRenderOnly, F.piPortrait])?.path == "/dev/dri/card1")
    }

    @Test("auto takes the first card that can meet the request, else the first usable one")
    func cardFallback() {
        let unplugged = F.with(F.piPortrait, connector: 1) { $0.connection = .disconnected }
        var other = F.bochs
        other.path = "/dev/dri/card2"
        #expect(KMSChoice.card(KMSRequest(), among: [unplugged, other])?.path == "/dev/dri/card2")
        #expect(KMSChoice.card(KMSRequest(), among: [unplugged])?.path == "/dev/dri/card1")
        #expect(KMSChoice.card(KMSRequest(), among: [F.piRenderOnly]) == nil)
        let named = KMSRequest(connector: .named("Virtual-1"))
        #expect(KMSChoice.card(named, among: [F.simpledrm, other])?.path == "/dev/dri/card2")
    }

    @Test("card nodes in numeric order; render nodes and others ignored")
    func cardPaths() {
        let names = ["renderD128", "card10", "by-path", "card2", "card0", "cardX", "controlD64"]
        #expect(KMSChoice.cardPaths(inDirectoryEntries: names) == ["/dev/dri/card0", "/dev/dri/card2", "/dev/dri/card10"])
    }

    // MARK: Report

    @Test("the device report lists connectors, modes, orientation and the choice")
    func report() {
        let text = DisplayDeviceReport.text(cards: [F.piRenderOnly, F.piPortrait], request: KMSRequest())
        #expect(text.contains("/dev/dri/card0 (v3d) — no dumb buffers, unusable"))
        #expect(text.contains("  DSI-1: connected, internal panel, panel orientation Right Side Up"))
        #expect(text.contains("    800x480@60 (preferred)"))
        #expect(text.contains("  HDMI-A-1: disconnected"))
        #expect(text.hasSuffix("display choice: /dev/dri/card1 DSI-1 800x480@60 (the display's preferred mode), CRTC 77, rotation 90, logical frame 480x800\n"))
        let laptop = DisplayDeviceReport.text(cards: [F.laptop], request: KMSRequest(mode: .size(width: 640, height: 480, refreshHz: nil)))
        #expect(laptop.contains("    1920x1080@60 (preferred, current)"))
        #expect(laptop.hasSuffix("display choice: /dev/dri/card0: eDP-1: no mode 640x480 (it offers 1920x1080@60, 1920x1080@48)\n"))
    }

    @Test("without /dev/dri the report says so")
    func reportWithoutCards() {
        #expect(DisplayDeviceReport.text(directory: "/nonexistent/dri") == "display: no DRM cards in /nonexistent/dri\n")
    }
}
