import GridlockInput
import CEvdev
import LinuxSys

/// `gridlock devices`: every input device with what decides whether gridlock can use it
/// (name, node, links, properties, axes with ranges, touchscreen or why not), and which
/// one `device=auto` would choose. Concise, like `libinput list-devices`.
public enum InputDeviceReport {
    /// Scans `directory` (and its `by-path`/`by-id` links) and describes what it found.
    public static func text(directory: String = InputDeviceDirectory.defaultPath) -> String {
        let scanned: [ScannedDevice]
        do {
            scanned = try InputDeviceDirectory.scan(directory)
        } catch {
            return "cannot list \(directory): \(error)\n"
        }
        return text(scanned, directory: directory, links: links(in: directory))
    }

    /// The report for nodes already scanned; `links` maps a node to the links naming it.
    public static func text(_ scanned: [ScannedDevice], directory: String, links: [String: [String]] = [:]) -> String {
        let selection = DeviceSelection(.auto, among: scanned)
        guard !selection.candidates.isEmpty else {
            return "no input devices in \(directory)\n"
        }
        var out = ""
        for node in InputDeviceDirectory.sortedByEventNumber(scanned) {
            let candidate = selection.candidates.first { $0.path == node.path }
            let mark = candidate?.chosen == true ? "   <- device=auto" : ""
            switch node.device {
            case .failure(let error):
                out += "\(node.path)\(mark)\n  unreadable: \(error.errno)\n"
            case .success(let device):
                out += "\(node.path)  \"\(device.name)\"\(mark)\n"
                out += describe(device, links: links[node.path] ?? [])
            }
        }
        out += "\n"
        if let beeper = BeeperSelector.auto.choose(among: scanned) {
            out += "beeper=auto chooses \(beeper.path) (\(beeper.kind.rawValue))\n"
        } else {
            out += "beeper=auto finds no device with EV_SND (no sounds)\n"
        }
        if let chosen = selection.chosen {
            out += "device=auto chooses \(chosen.path) \"\(chosen.name ?? "")\": \(chosen.reason)\n"
        } else {
            out += "device=auto finds no touchscreen\n"
            if !selection.permissionDenied.isEmpty {
                out += "some devices are unreadable (permission denied): run as root or in group `input`\n"
            }
        }
        return out
    }

    static func describe(_ device: DeviceDescription, links: [String]) -> String {
        var out = ""
        let id = device.id
        out += "  id: bus \(hex(id.bustype)) vendor \(hex(id.vendor)) product \(hex(id.product)) version \(hex(id.version))\n"
        for link in links.sorted() { out += "  link: \(link)\n" }
        if let kind = device.beeperKind { out += "  beeper: \(kind.rawValue)\(kind == .bell ? " (one pitch)" : "")\n" }
        switch TouchscreenClassifier.classify(device) {
        case .touchscreen(let kind):
            let detail: String
            switch (kind, try? TouchProtocol(device: device)) {
            case (_, .protocolB?):
                let slots = (device.absInfo(InputCodes.ABS_MT_SLOT)?.maximum ?? 0) + 1
                detail = "multitouch, protocol B, \(slots) slots"
            case (_, .protocolA?): detail = "multitouch, protocol A"
            default: detail = "single touch"
            }
            out += "  touchscreen: yes (\(detail))\n"
        case .notTouchscreen(let reason):
            out += "  touchscreen: no (\(reason))\n"
        }
        let properties = device.properties.sorted().map { name(property: $0) }
        out += "  properties: \(properties.isEmpty ? "none" : properties.joined(separator: " "))\n"
        for code in device.axes.keys.sorted() {
            let a = device.axes[code]!
            var line = "  \(name(type: InputCodes.EV_ABS, code: code)) \(a.minimum)...\(a.maximum)"
            if a.resolution != 0 { line += " resolution \(a.resolution)/mm" }
            if a.fuzz != 0 { line += " fuzz \(a.fuzz)" }
            out += line + "\n"
        }
        let buttons = (device.codes[InputCodes.EV_KEY] ?? []).filter { $0 >= InputCodes.BTN_0 }.sorted()
        if !buttons.isEmpty {
            let shown = buttons.prefix(12).map { name(type: InputCodes.EV_KEY, code: $0) }
            out += "  buttons: \(shown.joined(separator: " "))\(buttons.count > 12 ? " (+\(buttons.count - 12))" : "")\n"
        }
        let keys = (device.codes[InputCodes.EV_KEY] ?? []).filter { $0 < InputCodes.BTN_0 }.count
        if keys > 0 { out += "  keys: \(keys)\n" }
        return out
    }

    /// Links in `directory/by-path` and `by-id` by the node they resolve to.
    public static func links(in directory: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for sub in ["by-path", "by-id"] {
            let folder = "\(directory)/\(sub)"
            guard let names = try? Directory.entries(folder) else { continue }
            for name in names {
                let link = "\(folder)/\(name)"
                if let target = try? PathLookup.resolve(link) { result[target, default: []].append(link) }
            }
        }
        return result
    }

    /// libevdev's names (the kernel's spellings), for codes `InputCodeNames` does not know.
    static func name(type: UInt16, code: UInt16) -> String {
        libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) }
            ?? InputCodeNames.code(type: type, code: code)
    }

    static func name(property: UInt16) -> String {
        libevdev_property_get_name(UInt32(property)).map { String(cString: $0) } ?? "INPUT_PROP_0x\(String(property, radix: 16))"
    }

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
