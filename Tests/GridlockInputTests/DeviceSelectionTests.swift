import GridlockCore
import GridlockInput
import GridlockEvdev
import LinuxSys
import Testing

@Suite("Device choice, udev calibration, devices report")
struct DeviceSelectionTests {
    /// A /dev/input as a kiosk might have it: keyboard-less, a mouse, a touchpad, a pen
    /// tablet, an unreadable node, then two touchscreens (event10 sorts after event9).
    static func scanned() throws -> [ScannedDevice] {
        func node(_ n: Int, _ fixture: String) throws -> ScannedDevice {
            ScannedDevice(path: "/dev/input/event\(n)", device: .success(try Fixtures.device(fixture)))
        }
        return [
            try node(10, "goodix-multitouch"),
            try node(0, "logitech-mouse"),
            try node(1, "synaptics-touchpad"),
            try node(2, "wacom-pen-tablet"),
            ScannedDevice(path: "/dev/input/event3", device: .failure(.open(path: "/dev/input/event3", .permissionDenied))),
            try node(9, "egalax-single-touch"),
        ]
    }

    @Test("auto takes the first touchscreen and says why every other node was skipped")
    func auto() throws {
        let selection = DeviceSelection(.auto, among: try Self.scanned())
        #expect(selection.chosen?.path == "/dev/input/event9")
        #expect(selection.chosen?.reason == "first touchscreen (single touch)")
        #expect(selection.candidates.map(\.path) == [0, 1, 2, 3, 9, 10].map { "/dev/input/event\($0)" })
        let reasons = Dictionary(uniqueKeysWithValues: selection.candidates.map { ($0.path, $0.reason) })
        #expect(reasons["/dev/input/event0"]!.hasPrefix("not a touchscreen: no absolute X/Y axes"))
        #expect(reasons["/dev/input/event1"] == "not a touchscreen: touchpad: has BTN_TOOL_FINGER without INPUT_PROP_DIRECT")
        #expect(reasons["/dev/input/event2"] == "not a touchscreen: pen tablet: has BTN_TOOL_PEN")
        #expect(reasons["/dev/input/event3"] == "unreadable: \(Errno.permissionDenied)")
        #expect(reasons["/dev/input/event10"] == "also a touchscreen, but /dev/input/event9 comes first")
        let lines = selection.logLines
        #expect(lines.count == 6)
        #expect(lines[0] == "touch device /dev/input/event9 \"eGalax Inc. USB TouchController\": first touchscreen (single touch)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  skipped /dev/input/event") })
    }

    @Test("auto passes over a touchscreen node with pen tools for the digitizer's finger node")
    func autoPrefersFingers() throws {
        // A SMART board (0b8c:0092) through hid-multitouch: the pen tray's contacts arrive on a
        // node udev calls a touchscreen too (MT axes, BTN_TOUCH, direct) but with an eraser
        // key; the fingers on the next node. The first one was taken before, so no stroke worked.
        var pens = try Fixtures.device("ilitek-multitouch")
        pens.enable(type: InputCodes.EV_KEY, code: 0x141)  // BTN_TOOL_RUBBER
        #expect(TouchscreenClassifier.classify(pens).isTouchscreen, "udev's rule: still a touchscreen")
        let fingers = try Fixtures.device("ilitek-multitouch")
        let nodes = [ScannedDevice(path: "/dev/input/event1", device: .success(pens)),
                     ScannedDevice(path: "/dev/input/event2", device: .success(fingers)),
                     ScannedDevice(path: "/dev/input/event3", device: .success(fingers))]
        let selection = DeviceSelection(.auto, among: nodes)
        #expect(selection.chosen?.path == "/dev/input/event2")
        let reasons = Dictionary(uniqueKeysWithValues: selection.candidates.map { ($0.path, $0.reason) })
        #expect(reasons["/dev/input/event1"] == "a touchscreen, but with pen tools (BTN_TOOL_RUBBER); /dev/input/event2 has none")
        #expect(reasons["/dev/input/event3"] == "also a touchscreen, but /dev/input/event2 comes first")
        // Only pen-tool touchscreens: the first of them, as before.
        let onlyPens = DeviceSelection(.auto, among: [nodes[0]])
        #expect(onlyPens.chosen?.path == "/dev/input/event1")
        // By path or name the configured node is taken whatever its tools.
        #expect(DeviceSelection(.path("/dev/input/event1"), among: nodes).chosen?.path == "/dev/input/event1")
    }

    @Test("auto with the multitouch panel alone says which protocol")
    func autoMultitouch() throws {
        let nodes = [ScannedDevice(path: "/dev/input/event4", device: .success(try Fixtures.device("ilitek-multitouch")))]
        #expect(DeviceSelection(.auto, among: nodes).chosen?.reason == "first touchscreen (multitouch, protocol B)")
        let a = [ScannedDevice(path: "/dev/input/event4", device: .success(try Fixtures.device("protocol-a-multitouch")))]
        #expect(DeviceSelection(.auto, among: a).chosen?.reason == "first touchscreen (multitouch, protocol A)")
    }

    @Test("no touchscreen: nothing chosen, one line says so, and denied nodes get the permission advice")
    func noneFound() throws {
        let nodes = try Self.scanned().filter { !$0.path.hasSuffix("event9") && !$0.path.hasSuffix("event10") }
        let selection = DeviceSelection(.auto, among: nodes)
        #expect(selection.chosen == nil)
        #expect(selection.permissionDenied == ["/dev/input/event3"])
        let lines = selection.logLines
        #expect(lines.first == "no touch device matches device=auto (4 input device(s) looked at); waiting for one to appear")
        #expect(lines.last!.contains("group `input`"))
        #expect(lines.last!.contains("70-gridlock.rules"))
    }

    @Test("explicit path: resolved links match the node, even one udev would not call a touchscreen")
    func byPath() throws {
        let nodes = try Self.scanned()
        let link = "/dev/input/by-path/platform-goodix-event"
        let selection = DeviceSelection(.path(link), among: nodes, resolvedPath: "/dev/input/event10")
        #expect(selection.chosen?.path == "/dev/input/event10")
        #expect(selection.chosen?.reason == "configured by path (via \(link))")
        #expect(selection.candidates.filter { !$0.chosen && $0.name != nil }.allSatisfy { $0.reason == "not the configured device \(link)" })

        var pad = try Fixtures.device("synaptics-touchpad")
        pad.name = "odd panel"
        let touchpad = DeviceSelection(.path("/dev/input/event1"), among: [ScannedDevice(path: "/dev/input/event1", device: .success(pad))])
        #expect(touchpad.chosen?.reason.hasPrefix("configured by path, although udev would not call it a touchscreen: touchpad") == true)

        let mouse = DeviceSelection(.path("/dev/input/event0"), among: nodes)
        #expect(mouse.chosen == nil)
        #expect(mouse.candidates.first { $0.path == "/dev/input/event0" }?.reason.contains("no touch position axes") == true)

        #expect(DeviceSelection(.path("/dev/input/event7"), among: nodes).chosen == nil)
    }

    @Test("explicit name: the first readable device with positions whose name contains the text")
    func byName() throws {
        let nodes = try Self.scanned()
        let goodix = DeviceSelection(.name("Goodix"), among: nodes)
        #expect(goodix.chosen?.path == "/dev/input/event10")
        #expect(goodix.chosen?.reason == "name contains \"Goodix\"")
        #expect(goodix.candidates.first { $0.path == "/dev/input/event9" }?.reason == "name does not contain \"Goodix\"")
        // Case-sensitive, as names are printed.
        #expect(DeviceSelection(.name("goodix"), among: nodes).chosen == nil)
        // A mouse's name matches but it cannot say where a finger is.
        let mouseName = try Fixtures.device("logitech-mouse").name
        let mouse = DeviceSelection(.name(String(mouseName.prefix(8))), among: nodes)
        #expect(mouse.chosen == nil)
        #expect(mouse.candidates.first { $0.path == "/dev/input/event0" }?.reason == "name matches, but it has no touch position axes")
    }

    @Test("event nodes only, in numeric order")
    func eventNodeNames() {
        #expect(InputDeviceDirectory.isEventNode("event0"))
        #expect(InputDeviceDirectory.isEventNode("event12"))
        for name in ["event", "mouse0", "js0", "by-path", "event1x", "eventa"] {
            #expect(!InputDeviceDirectory.isEventNode(name))
        }
    }

    @Test("event nodes of a directory: numeric order, others left out, missing directory is empty")
    func listing() throws {
        let directory = try makeScratchDirectory()
        defer { removeScratch(directory) }
        for name in ["event10", "event2", "mouse0", "event1"] { try touchFile("\(directory)/\(name)") }
        try Directory.create("\(directory)/by-path")
        #expect(try InputDeviceDirectory.eventNodes(in: directory) == ["event1", "event2", "event10"].map { "\(directory)/\($0)" })
        #expect(try InputDeviceDirectory.eventNodes(in: "\(directory)/missing") == [])
        // Plain files are not evdev devices: scanning lists them as unreadable, with the reason.
        let scanned = try InputDeviceDirectory.scan(directory)
        #expect(scanned.count == 3)
        #expect(scanned.allSatisfy { $0.description == nil })
        #expect(DeviceSelection(.auto, among: scanned).chosen == nil)
    }

    // MARK: udev

    @Test("udev database: E: properties, calibration matrix found, refused, or absent")
    func udev() throws {
        let text = """
            S:input/by-path/platform-3f204000.i2c-event
            W:3
            I:1234567
            E:ID_INPUT=1
            E:ID_INPUT_TOUCHSCREEN=1
            E:LIBINPUT_CALIBRATION_MATRIX=0 -1 1 1 0 0
            E:WEIRD=a=b
            G:seat
            """
        let properties = UdevDatabase.properties(text)
        #expect(properties["ID_INPUT_TOUCHSCREEN"] == "1")
        #expect(properties["WEIRD"] == "a=b")
        #expect(properties["S"] == nil && properties.count == 4)
        let matrix = try CalibrationMatrix(values: [0, -1, 1, 1, 0, 0])
        #expect(UdevDatabase.calibration(properties: properties, source: "db") == .matrix(matrix, source: "db"))
        #expect(UdevDatabase.calibration(properties: ["ID_INPUT": "1"], source: "db") == .none)
        guard case .invalid(let problem, "db") = UdevDatabase.calibration(
            properties: ["LIBINPUT_CALIBRATION_MATRIX": "1 0 0 0 1"], source: "db")
        else {
            Issue.record("five numbers accepted")
            return
        }
        #expect(problem.contains("six numbers"))
        #expect(UdevDatabase.path(for: DeviceNumber(major: 13, minor: 67)) == "/run/udev/data/c13:67")
    }

    @Test("dev_t splits like glibc's major()/minor(), including large minors")
    func deviceNumbers() {
        #expect(DeviceNumber(rawValue: 13 << 8 | 67) == DeviceNumber(major: 13, minor: 67))
        // makedev(259, 300000): minor's high bits live above bit 20.
        let dev: UInt64 = (259 & 0xfff) << 8 | (300_000 & 0xff) | (UInt64(300_000) & ~0xff) << 12
        #expect(DeviceNumber(rawValue: dev) == DeviceNumber(major: 259, minor: 300_000))
    }

    @Test("a regular file has no device number; /dev/null is 1:3")
    func fstatNumbers() throws {
        let null = try FileDescriptor.openDeviceForReading("/dev/null")
        defer { null.close() }
        #expect(try null.deviceNumber() == DeviceNumber(major: 1, minor: 3))
        // /dev/null has no udev record here or it has no calibration: either way, none.
        #expect(UdevDatabase.calibration(of: null, directory: "/nonexistent") == .none)
    }

    // MARK: Opening

    @Test("opening errors name the device and, for permissions, the group and the udev rule")
    func openErrors() {
        #expect(throws: EvdevError.open(path: "/nonexistent/event0", .noSuchFile)) {
            try EvdevDevice(path: "/nonexistent/event0")
        }
        #expect(throws: EvdevError.notEvdev(path: "/dev/null", .notATerminal)) {
            try EvdevDevice(path: "/dev/null")
        }
        let denied = EvdevError.open(path: "/dev/input/event5", .permissionDenied).description
        #expect(denied.contains("/dev/input/event5") && denied.contains("group `input`") && denied.contains("udev/70-gridlock.rules"))
        let busy = EvdevError.grab(path: "/dev/input/event5", .busy).description
        #expect(busy.contains("fuser -v /dev/input/event5"))
    }

    // MARK: gridlock devices

    @Test("the devices report marks auto's choice and explains the others")
    func report() throws {
        let text = InputDeviceReport.text(
            try Self.scanned(), directory: "/dev/input",
            links: ["/dev/input/event9": ["/dev/input/by-id/usb-eGalax-event-if00"]])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let marked = lines.filter { $0.contains("<- device=auto") }
        #expect(marked == ["/dev/input/event9  \"eGalax Inc. USB TouchController\"   <- device=auto"])
        #expect(text.contains("  link: /dev/input/by-id/usb-eGalax-event-if00\n"))
        #expect(text.contains("  touchscreen: no (touchpad: has BTN_TOOL_FINGER without INPUT_PROP_DIRECT)\n"))
        #expect(text.contains("  touchscreen: yes (multitouch, protocol B, 10 slots)\n"))
        #expect(text.contains("/dev/input/event3\n  unreadable: \(Errno.permissionDenied)\n"))
        #expect(text.contains("  ABS_MT_POSITION_X 0...") && text.contains("  properties: INPUT_PROP_DIRECT"))
        #expect(text.contains("\nbeeper=auto finds no device with EV_SND (no sounds)\ndevice=auto chooses"))
        #expect(text.hasSuffix("device=auto chooses /dev/input/event9 \"eGalax Inc. USB TouchController\": first touchscreen (single touch)\n"))
        // Nodes in numeric order.
        let order = lines.filter { $0.hasPrefix("/dev/input/event") }.map { String($0.split(separator: " ")[0]) }
        #expect(order == [0, 1, 2, 3, 9, 10].map { "/dev/input/event\($0)" })
    }
}
