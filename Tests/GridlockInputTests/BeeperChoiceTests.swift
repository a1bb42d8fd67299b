import LinuxSys
import Testing
@testable import GridlockInput
@testable import GridlockEvdev

@Suite("beeper choice: EV_SND devices, SND_TONE before SND_BELL")
struct BeeperChoiceTests {
    static func device(_ name: String, sounds: Set<UInt16>?) -> DeviceDescription {
        var codes: [UInt16: Set<UInt16>] = [InputCodes.EV_SYN: [0]]
        if let sounds { codes[InputCodes.EV_SND] = sounds }
        return DeviceDescription(name: name, id: DeviceID(bustype: 0x10, vendor: 0x1f, product: 1, version: 0x100), codes: codes)
    }

    static let scanned = [
        ScannedDevice(path: "/dev/input/event0", device: .success(device("AT keyboard", sounds: [InputCodes.SND_BELL]))),
        ScannedDevice(path: "/dev/input/event1", device: .failure(.open(path: "/dev/input/event1", .permissionDenied))),
        ScannedDevice(path: "/dev/input/event2", device: .success(device("Power Button", sounds: nil))),
        ScannedDevice(path: "/dev/input/event3", device: .success(device("PC Speaker", sounds: [InputCodes.SND_BELL, InputCodes.SND_TONE]))),
    ]

    @Test("kinds") func kinds() {
        #expect(Self.device("a", sounds: [InputCodes.SND_TONE]).beeperKind == .tone)
        #expect(Self.device("b", sounds: [InputCodes.SND_BELL]).beeperKind == .bell)
        #expect(Self.device("c", sounds: [0x00]).beeperKind == nil)  // SND_CLICK only
        #expect(Self.device("d", sounds: nil).beeperKind == nil)
    }

    @Test("auto prefers any pitch then takes a bell") func autoPrefersAnyPitchThenTakesABell() {
        #expect(BeeperSelector.auto.choose(among: Self.scanned)! == ("/dev/input/event3", .tone))
        #expect(BeeperSelector.auto.choose(among: Array(Self.scanned.prefix(3)))! == ("/dev/input/event0", .bell))
        #expect(BeeperSelector.auto.choose(among: Array(Self.scanned[1...2])) == nil)
    }

    @Test("a path must have sound") func aPathMustHaveSound() {
        #expect(BeeperSelector.path("/dev/input/event0").choose(among: [Self.scanned[0]])! == ("/dev/input/event0", .bell))
        #expect(BeeperSelector.path("/dev/input/event2").choose(among: [Self.scanned[2]]) == nil)
    }

    @Test("gridlock devices names the beeper auto would sound, and each device's kind")
    func report() {
        let text = InputDeviceReport.text(Self.scanned, directory: "/dev/input")
        #expect(text.contains("/dev/input/event0  \"AT keyboard\"\n"))
        #expect(text.contains("  beeper: SND_BELL (one pitch)\n"))
        #expect(text.contains("  beeper: SND_TONE\n"))
        #expect(text.contains("\nbeeper=auto chooses /dev/input/event3 (SND_TONE)\n"))
    }
}
