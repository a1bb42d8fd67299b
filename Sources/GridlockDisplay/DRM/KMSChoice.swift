import GridlockCore

/// Why nothing can be lit (yet, or at all).
public enum KMSChoiceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing is plugged in: not an error of the config, the daemon waits for hotplug.
    case noConnectedConnector(card: String)
    case noSuchConnector(card: String, name: String, available: [String])
    case connectorNotConnected(card: String, name: String)
    case noSuchMode(connector: String, requested: String, available: [String])
    case noCrtc(connector: String)
    /// A `panel orientation` value this program does not know how to honour.
    case unknownPanelOrientation(connector: String, value: String)

    public var description: String {
        switch self {
        case .noConnectedConnector(let card):
            "\(card): no connected display"
        case .noSuchConnector(let card, let name, let available):
            "\(card): no connector named \(name) (this card has \(available.isEmpty ? "none" : available.joined(separator: ", ")))"
        case .connectorNotConnected(let card, let name):
            "\(card): connector \(name) has no display connected"
        case .noSuchMode(let connector, let requested, let available):
            "\(connector): no mode \(requested) (it offers \(available.isEmpty ? "none" : available.joined(separator: ", ")))"
        case .noCrtc(let connector):
            "\(connector): no free CRTC can drive this connector"
        case .unknownPanelOrientation(let connector, let value):
            "\(connector): panel orientation \"\(value)\" is not one of Normal, Upside Down, Left Side Up, Right Side Up: cannot honour the rotation"
        }
    }

    /// True when waiting for hotplug may help (as opposed to a config that can never work here).
    public var mayResolveLater: Bool {
        switch self {
        case .noConnectedConnector, .connectorNotConnected, .noSuchConnector: true
        case .noSuchMode, .noCrtc, .unknownPanelOrientation: false
        }
    }
}

/// The pure decisions: which card, connector, mode and CRTC, and the effective rotation.
public enum KMSChoice {
    /// A connector worth lighting: connected with modes, or (the kernel's advice for when
    /// nothing reports connected) in unknown state with modes. Writeback connectors are
    /// not displays.
    static func isUsable(_ c: KMSConnector) -> Bool {
        c.type != DRMModeConstants.DRM_MODE_CONNECTOR_WRITEBACK && !c.modes.isEmpty && c.connection != .disconnected
    }

    /// `connector=auto`: a connected internal panel (eDP, DSI, LVDS, DPI), else the first
    /// connected connector, else (the kernel's advice) one in unknown state with modes.
    public static func connector(_ request: KMSRequest.Connector, on card: KMSCard) throws(KMSChoiceError) -> KMSConnector {
        switch request {
        case .named(let name):
            guard let connector = card.connectors.first(where: { $0.name == name }) else {
                throw .noSuchConnector(card: card.path, name: name, available: card.connectors.map(\.name))
            }
            guard isUsable(connector) else { throw .connectorNotConnected(card: card.path, name: name) }
            return connector
        case .auto:
            let candidates = card.connectors.filter(isUsable)
            let connected = candidates.filter { $0.connection == .connected }
            if let panel = connected.first(where: \.isInternalPanel) { return panel }
            if let first = connected.first { return first }
            if let unknown = candidates.first { return unknown }
            throw .noConnectedConnector(card: card.path)
        }
    }

    /// The mode set on the CRTC that drives `connector` now, if any.
    public static func currentMode(of connector: KMSConnector, on card: KMSCard) -> KMSMode? {
        guard let encoder = card.encoder(connector.encoderID), let crtc = card.crtc(encoder.crtcID) else { return nil }
        return crtc.mode
    }

    /// `mode=`:
    /// - `preferred` follows Plymouth: a mode the user defined with `video=` on the kernel
    ///   command line, then the one the panel marks PREFERRED, then the mode set now, then the first.
    /// - `current`: the mode set now (no modeset flicker when taking over from the boot
    ///   splash), else as `preferred`.
    /// - `WxH[@Hz]`: a listed mode of that size (and rate): the preferred one among them,
    ///   else the highest rate; an error when none matches, naming what is offered.
    public static func mode(
        _ request: KMSRequest.Mode, for connector: KMSConnector, current: KMSMode?
    ) throws(KMSChoiceError) -> (KMSMode, reason: String) {
        let modes = connector.modes
        // A current mode counts only if the connector lists it: a stale mode from another
        // display (before a hotplug) must not be forced on this one.
        let listedCurrent = current.flatMap { c in modes.first { $0.hasSameTimings(as: c) } }
        func preferredOrder() -> (KMSMode, reason: String)? {
            if let user = modes.first(where: \.isUserDefined) { return (user, "set with video= on the kernel command line") }
            if let preferred = modes.first(where: \.isPreferred) { return (preferred, "the display's preferred mode") }
            if let listedCurrent { return (listedCurrent, "the mode set now (no preferred mode)") }
            if let first = modes.first { return (first, "the first listed mode (no preferred mode)") }
            return nil
        }
        switch request {
        case .preferred:
            if let choice = preferredOrder() { return choice }
        case .current:
            if let listedCurrent { return (listedCurrent, "the mode set now") }
            if let (mode, reason) = preferredOrder() { return (mode, reason + "; no mode was set") }
        case .size(let width, let height, let hz):
            let sized = modes.filter { $0.width == width && $0.height == height && (hz == nil || Int($0.vrefresh) == hz) }
            if let preferred = sized.first(where: \.isPreferred) { return (preferred, "as configured") }
            if let best = sized.max(by: { $0.vrefresh < $1.vrefresh }) { return (best, "as configured") }
            let requested = "\(width)x\(height)" + (hz.map { "@\($0)" } ?? "")
            throw .noSuchMode(connector: connector.name, requested: requested, available: uniqueNames(modes))
        }
        throw .noSuchMode(connector: connector.name, requested: "any", available: [])
    }

    static func uniqueNames(_ modes: [KMSMode]) -> [String] {
        var seen: Set<String> = []
        return modes.map(\.description).filter { seen.insert($0).inserted }
    }

    /// The CRTC the connector's encoder drives now; else the first CRTC any of its encoders
    /// can use that is not lighting another connector (stealing it would blank that display),
    /// else the first one it can use at all.
    public static func crtc(for connector: KMSConnector, on card: KMSCard) throws(KMSChoiceError) -> UInt32 {
        if let encoder = card.encoder(connector.encoderID), encoder.crtcID != 0, card.crtc(encoder.crtcID) != nil {
            return encoder.crtcID
        }
        var possible: UInt32 = 0
        for id in connector.encoderIDs {
            if let encoder = card.encoder(id) { possible |= encoder.possibleCrtcs }
        }
        let busy = Set(card.connectors.filter { $0.id != connector.id }.compactMap { other in
            card.encoder(other.encoderID).map(\.crtcID)
        }.filter { $0 != 0 })
        let compatible = card.crtcs.enumerated().filter { index, _ in index < 32 && possible & (1 << UInt32(index)) != 0 }
            .map(\.element.id)
        if let free = compatible.first(where: { !busy.contains($0) }) { return free }
        if let any = compatible.first { return any }
        throw .noCrtc(connector: connector.name)
    }

    /// The config's rotation followed by the correction for how the panel is mounted.
    public static func rotation(_ requested: Rotation, panel connector: KMSConnector) throws(KMSChoiceError) -> Rotation {
        guard let value = connector.panelOrientation else { return requested }
        guard let orientation = PanelOrientation(rawValue: value) else {
            throw .unknownPanelOrientation(connector: connector.name, value: value)
        }
        return requested.followed(by: orientation.correction)
    }

    /// All four decisions for one card.
    public static func select(_ request: KMSRequest, on card: KMSCard) throws(KMSChoiceError) -> KMSSelection {
        let connector = try connector(request.connector, on: card)
        let (mode, reason) = try mode(request.mode, for: connector, current: currentMode(of: connector, on: card))
        let crtc = try crtc(for: connector, on: card)
        let rotation = try rotation(request.rotation, panel: connector)
        return KMSSelection(connector: connector, mode: mode, modeReason: reason, crtcID: crtc, rotation: rotation)
    }

    /// `device=auto`: among the cards that expose KMS resources and can allocate dumb
    /// buffers (in /dev/dri order), the first on which the request can be met; when none
    /// can yet (nothing plugged in), the first usable card, to wait on for hotplug.
    /// nil when there is no usable card at all.
    public static func card(_ request: KMSRequest, among cards: [KMSCard]) -> KMSCard? {
        let usable = cards.filter { $0.supportsDumbBuffers && !$0.crtcs.isEmpty && !$0.connectors.isEmpty }
        if let ready = usable.first(where: { (try? select(request, on: $0)) != nil }) { return ready }
        return usable.first
    }

    /// /dev/dri entries that are primary nodes (`card0`, `card1`, ...), in numeric order
    /// (`card10` after `card2`); render nodes have no KMS.
    public static func cardPaths(inDirectoryEntries names: [String], directory: String = "/dev/dri") -> [String] {
        names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("card"), let number = Int(name.dropFirst(4)), number >= 0 else { return nil }
            return (number, "\(directory)/\(name)")
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
