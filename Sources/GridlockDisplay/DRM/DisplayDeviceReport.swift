import GridlockCore

/// The display half of `gridlock devices`: every card, its connectors (status, modes,
/// panel orientation) and what the configured request (`auto` by default) would light.
public enum DisplayDeviceReport {
    /// Reads /dev/dri now. Needs no DRM master: only reads.
    public static func text(request: KMSRequest = KMSRequest(), directory: String = "/dev/dri") -> String {
        let cards = DRMDevice.openAll(directory: directory)
        if cards.opened.isEmpty {
            return cards.tried.isEmpty
                ? "display: no DRM cards in \(directory)\n"
                : "display: none of \(cards.tried.joined(separator: ", ")) could be opened with modesetting\n"
        }
        return text(cards: cards.opened.map(\.card), request: request)
    }

    /// The report for cards already read (pure; what the tests check).
    public static func text(cards: [KMSCard], request: KMSRequest) -> String {
        var out = ""
        for card in cards {
            out += "\(card.path)" + (card.driver.isEmpty ? "" : " (\(card.driver))")
            out += card.supportsDumbBuffers ? "" : " — no dumb buffers, unusable"
            out += "\n"
            for connector in card.connectors {
                let current = KMSChoice.currentMode(of: connector, on: card)
                out += "  \(connector.name): \(connector.connection.rawValue)"
                if connector.isInternalPanel { out += ", internal panel" }
                if let orientation = connector.panelOrientation { out += ", panel orientation \(orientation)" }
                if connector.widthMillimetres > 0 { out += ", \(connector.widthMillimetres)x\(connector.heightMillimetres) mm" }
                out += "\n"
                for mode in connector.modes {
                    var tags: [String] = []
                    if mode.isPreferred { tags.append("preferred") }
                    if mode.isUserDefined { tags.append("video=") }
                    if let current, mode.hasSameTimings(as: current) { tags.append("current") }
                    out += "    \(mode)" + (tags.isEmpty ? "" : " (\(tags.joined(separator: ", ")))") + "\n"
                }
            }
        }
        out += "display choice: "
        let card: KMSCard?
        switch request.device {
        case .auto: card = KMSChoice.card(request, among: cards)
        case .path(let path): card = cards.first { $0.path == path }
        }
        guard let card else {
            return out + (request.device == .auto ? "no usable card\n" : "the configured card is not among these\n")
        }
        do {
            let s = try KMSChoice.select(request, on: card)
            out += "\(card.path) \(s.connector.name) \(s.mode) (\(s.modeReason)), CRTC \(s.crtcID), rotation \(s.rotation.degrees)"
            out += ", logical frame \(Int(s.logicalSize.width))x\(Int(s.logicalSize.height))\n"
        } catch {
            out += "\(card.path): \(error)\n"
        }
        return out
    }
}
