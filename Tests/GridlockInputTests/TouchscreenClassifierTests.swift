import GridlockInput
import Testing

@Suite("TouchscreenClassifier")
struct TouchscreenClassifierTests {
    @Test(
        "touchscreens are recognised with their kind",
        arguments: [
            ("ilitek-multitouch", TouchscreenClassifier.Kind.multitouch),
            ("ft5406-multitouch", .multitouch),
            ("goodix-multitouch", .multitouch),
            ("protocol-a-multitouch", .multitouch),
            ("egalax-single-touch", .singleTouch),
        ])
    func touchscreens(device: String, kind: TouchscreenClassifier.Kind) throws {
        #expect(TouchscreenClassifier.classify(try Fixtures.device(device)) == .touchscreen(kind: kind))
    }

    @Test(
        "other pointing devices are refused with a reason",
        arguments: [
            ("synaptics-touchpad", "touchpad: has BTN_TOOL_FINGER without INPUT_PROP_DIRECT"),
            ("logitech-mouse", "no absolute X/Y axes"),
            ("wacom-pen-tablet", "pen tablet: has BTN_TOOL_PEN"),
        ])
    func rejected(device: String, reason: String) throws {
        let result = TouchscreenClassifier.classify(try Fixtures.device(device))
        guard case .notTouchscreen(let actual) = result else {
            Issue.record("\(device) classified as \(result)")
            return
        }
        #expect(actual.contains(reason))
    }

    @Test("udev's edge cases: direct finger devices, absolute mice, fake multitouch, accelerometers")
    func edgeCases() throws {
        typealias C = InputCodes
        var device = try Fixtures.device("synaptics-touchpad")
        device.properties = [C.INPUT_PROP_DIRECT]
        #expect(TouchscreenClassifier.classify(device) == .touchscreen(kind: .multitouch))

        var absMouse = DeviceDescription(name: "QEMU USB Tablet", id: DeviceID(bustype: 3, vendor: 0x627, product: 1, version: 1))
        for code in [C.ABS_X, C.ABS_Y] { absMouse.enable(type: C.EV_ABS, code: code) }
        for code in [C.BTN_LEFT, C.BTN_TOUCH] { absMouse.enable(type: C.EV_KEY, code: code) }
        #expect(!TouchscreenClassifier.classify(absMouse).isTouchscreen)

        var noTouch = DeviceDescription(name: "joystick-ish", id: absMouse.id)
        for code in [C.ABS_X, C.ABS_Y] { noTouch.enable(type: C.EV_ABS, code: code) }
        #expect(
            TouchscreenClassifier.classify(noTouch)
                == .notTouchscreen(reason: "absolute X/Y but neither BTN_TOUCH nor INPUT_PROP_DIRECT"))

        var fakeMT = DeviceDescription(name: "claims every axis", id: absMouse.id)
        for code in UInt16(0)...C.ABS_MAX { fakeMT.enable(type: C.EV_ABS, code: code) }
        fakeMT.enable(type: C.EV_KEY, code: C.BTN_TOUCH)
        #expect(!fakeMT.hasMultitouchPosition)
        #expect(TouchscreenClassifier.classify(fakeMT) == .touchscreen(kind: .singleTouch))

        var accelerometer = DeviceDescription(name: "accel", id: absMouse.id)
        for code in [C.ABS_X, C.ABS_Y, C.ABS_Z] { accelerometer.enable(type: C.EV_ABS, code: code) }
        #expect(!TouchscreenClassifier.classify(accelerometer).isTouchscreen)
    }
}
