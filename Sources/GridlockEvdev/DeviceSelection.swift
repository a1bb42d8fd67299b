import GridlockInput
/// Which device `[touch] device=` asks for.
public enum DeviceSelector: Hashable, Sendable, CustomStringConvertible {
    /// The first touchscreen, by udev's ID_INPUT_TOUCHSCREEN rule (`TouchscreenClassifier`).
    case auto
    /// A node or a link to one (`/dev/input/by-path/...`); compared after resolving links.
    case path(String)
    /// The first readable device with position axes whose name contains this text
    /// (case-sensitive, as `gridlock devices` prints names).
    case name(String)

    public var description: String {
        switch self {
        case .auto: "auto"
        case .path(let path): path
        case .name(let text): "name:\(text)"
        }
    }
}

/// One `/dev/input/event*` node as a scan found it: its description, or why it could not be read.
public struct ScannedDevice: Hashable, Sendable {
    public var path: String
    public var device: Result<DeviceDescription, EvdevError>

    public init(path: String, device: Result<DeviceDescription, EvdevError>) {
        self.path = path
        self.device = device
    }

    public var description: DeviceDescription? { try? device.get() }
}

/// The choice of the touch device among scanned nodes, with a reason for every node, so
/// the log can say which device was taken and why each other one was not. Pure: the
/// scanning is `InputDeviceDirectory`'s.
public struct DeviceSelection: Hashable, Sendable {
    public struct Candidate: Hashable, Sendable {
        public var path: String
        public var name: String?
        public var chosen: Bool
        public var reason: String
    }

    public let selector: DeviceSelector
    /// Every scanned node, in the order considered (event number).
    public let candidates: [Candidate]

    public var chosen: Candidate? { candidates.first { $0.chosen } }

    /// Nodes that could not be opened for lack of permission: the likely cause when
    /// nothing was chosen.
    public let permissionDenied: [String]

    /// `resolvedPath`: for `.path`, the selector's path with links resolved (the caller
    /// does that I/O); the node whose path equals it is the one asked for.
    public init(_ selector: DeviceSelector, among scanned: [ScannedDevice], resolvedPath: String? = nil) {
        self.selector = selector
        var candidates: [Candidate] = []
        var denied: [String] = []
        var chosen: String?
        let ordered = InputDeviceDirectory.sortedByEventNumber(scanned)
        let preferred = selector == .auto ? Self.preferredTouchscreen(ordered) : nil
        for node in ordered {
            let device: DeviceDescription
            switch node.device {
            case .failure(let error):
                if error.errno == .permissionDenied || error.errno == .notPermitted { denied.append(node.path) }
                candidates.append(Candidate(path: node.path, name: nil, chosen: false, reason: "unreadable: \(error.errno)"))
                continue
            case .success(let description):
                device = description
            }
            let verdict = Self.judge(
                device, at: node.path, selector, resolvedPath: resolvedPath, alreadyChosen: chosen, preferred: preferred)
            if verdict.chosen { chosen = node.path }
            candidates.append(Candidate(path: node.path, name: device.name, chosen: verdict.chosen, reason: verdict.reason))
        }
        self.candidates = candidates
        permissionDenied = denied
    }

    /// Keys of pen tools other than BTN_TOOL_PEN and BTN_STYLUS (which already make a device a
    /// pen tablet, for udev too): an eraser, brush, pencil, airbrush, puck, lens, a second or
    /// third stylus button.
    static let penToolKeys: [(code: UInt16, name: String)] = [
        (0x141, "BTN_TOOL_RUBBER"), (0x142, "BTN_TOOL_BRUSH"), (0x143, "BTN_TOOL_PENCIL"),
        (0x144, "BTN_TOOL_AIRBRUSH"), (0x146, "BTN_TOOL_MOUSE"), (0x147, "BTN_TOOL_LENS"),
        (0x149, "BTN_STYLUS3"), (0x14c, "BTN_STYLUS2"),
    ]

    static func penTools(_ device: DeviceDescription) -> [String] {
        penToolKeys.filter { device.supports(type: InputCodes.EV_KEY, code: $0.code) }.map(\.name)
    }

    /// What `auto` takes: the first touchscreen (udev's rule) that has no pen tools, else the
    /// first touchscreen. A digitizer can expose several nodes that udev calls touchscreens;
    /// one whose contacts are pens (an eraser key: SMART boards' pen tray, 0b8c:0092) is
    /// not where fingers arrive.
    private static func preferredTouchscreen(_ nodes: [ScannedDevice]) -> String? {
        let touchscreens = nodes.filter { node in
            node.description.map { TouchscreenClassifier.classify($0).isTouchscreen } ?? false
        }
        let fingers = touchscreens.first { penTools($0.description!).isEmpty }
        return (fingers ?? touchscreens.first)?.path
    }

    private static func judge(
        _ device: DeviceDescription, at path: String, _ selector: DeviceSelector, resolvedPath: String?,
        alreadyChosen: String?, preferred: String?
    ) -> (chosen: Bool, reason: String) {
        let classification = TouchscreenClassifier.classify(device)
        let decodable = (try? TouchProtocol(device: device)) != nil
        switch selector {
        case .auto:
            switch classification {
            case .notTouchscreen(let reason):
                return (false, "not a touchscreen: \(reason)")
            case .touchscreen(let kind):
                let pens = penTools(device)
                if path != preferred, !pens.isEmpty, let preferred {
                    return (false, "a touchscreen, but with pen tools (\(pens.joined(separator: ", "))); \(preferred) has none")
                }
                if let alreadyChosen { return (false, "also a touchscreen, but \(alreadyChosen) comes first") }
                if path != preferred, let preferred { return (false, "also a touchscreen, but \(preferred) comes first") }
                return (true, "first touchscreen (\(Self.kindText(kind, device)))")
            }
        case .path(let wanted):
            guard path == (resolvedPath ?? wanted) else { return (false, "not the configured device \(wanted)") }
            guard decodable else { return (false, "configured, but it has no touch position axes (ABS_MT_POSITION_X/Y or ABS_X/Y)") }
            let via = wanted == path ? "" : " (via \(wanted))"
            if case .notTouchscreen(let reason) = classification {
                return (true, "configured by path\(via), although udev would not call it a touchscreen: \(reason)")
            }
            return (true, "configured by path\(via)")
        case .name(let text):
            guard device.name.contains(text) else { return (false, "name does not contain \"\(text)\"") }
            guard decodable else { return (false, "name matches, but it has no touch position axes") }
            if let alreadyChosen { return (false, "name matches too, but \(alreadyChosen) comes first") }
            if case .notTouchscreen(let reason) = classification {
                return (true, "name contains \"\(text)\", although udev would not call it a touchscreen: \(reason)")
            }
            return (true, "name contains \"\(text)\"")
        }
    }

    private static func kindText(_ kind: TouchscreenClassifier.Kind, _ device: DeviceDescription) -> String {
        switch kind {
        case .singleTouch: return "single touch"
        case .multitouch:
            let b = device.supports(type: InputCodes.EV_ABS, code: InputCodes.ABS_MT_SLOT)
            return b ? "multitouch, protocol B" : "multitouch, protocol A"
        }
    }

    /// One line per node: the chosen one first, then every other with why it was not taken.
    public var logLines: [String] {
        var lines: [String] = []
        if let chosen {
            lines.append("touch device \(chosen.path) \"\(chosen.name ?? "")\": \(chosen.reason)")
        } else {
            lines.append("no touch device matches device=\(selector) (\(candidates.count) input device(s) looked at); waiting for one to appear")
        }
        for candidate in candidates where !candidate.chosen {
            let name = candidate.name.map { " \"\($0)\"" } ?? ""
            lines.append("  skipped \(candidate.path)\(name): \(candidate.reason)")
        }
        if chosen == nil, !permissionDenied.isEmpty {
            lines.append(
                "permission denied on \(permissionDenied.joined(separator: ", ")): run gridlockd as root or in group `input`, "
                    + "and install udev/70-gridlock.rules (/etc/udev/rules.d), which gives that group touchscreens")
        }
        return lines
    }
}
