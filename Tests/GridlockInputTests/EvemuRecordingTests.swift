import GridlockCore
import GridlockInput
import GridlockEvdev
import Testing

@Suite("evemu recordings")
struct EvemuRecordingTests {
    static let header = """
        # EVEMU 1.3
        N: Test Panel
        I: 0018 0416 038f 1060
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 799 0 0 0
        A: 01 0 479 0 0 0
        A: 2f 0 9 0 0 0
        A: 35 0 799 0 0 0
        A: 36 0 479 0 0 0
        A: 39 0 65535 0 0 0

        """

    @Test("every fixture parses, and writing then parsing gives it back", arguments: try Fixtures.names() + Fixtures.names(in: "devices"))
    func roundTrip(name: String) throws {
        let recording = try Fixtures.recording(name)
        let text = try recording.evemuText(header: ["round trip of \(name)"])
        #expect(try EvemuRecording(parsing: text) == recording)
    }

    @Test("the description, the -1 value and the times are read as written")
    func readsFields() throws {
        let text = Self.header + """
            E: 0.000001 0003 0039 0005\t# EV_ABS / ABS_MT_TRACKING_ID 5
            E: 12.345678 0003 0039 -001
            E: 12.345678 0000 0000 0000
            """
        let recording = try EvemuRecording(parsing: text)
        let device = recording.device
        #expect(device.name == "Test Panel")
        #expect(device.id == DeviceID(bustype: 0x18, vendor: 0x416, product: 0x38f, version: 0x1060))
        #expect(device.properties == [InputCodes.INPUT_PROP_DIRECT])
        #expect(device.codes[InputCodes.EV_SYN] == [0, 1, 3])
        #expect(device.codes[InputCodes.EV_ABS] == [0x00, 0x01, 0x2f, 0x35, 0x36, 0x39])
        #expect(device.absInfo(InputCodes.ABS_MT_POSITION_X) == AbsInfo(minimum: 0, maximum: 799))
        #expect(
            recording.events == [
                InputEvent(time: .init(nanoseconds: 1_000), type: 3, code: 0x39, value: 5),
                InputEvent(time: .init(nanoseconds: 12_345_678_000), type: 3, code: 0x39, value: -1),
                InputEvent(time: .init(nanoseconds: 12_345_678_000), type: 0, code: 0, value: 0),
            ])
    }

    @Test("files before format 1.2 have A: lines without resolution")
    func oldFormat() throws {
        let text = "N: Old\nI: 0003 0001 0002 0003\nB: 03 03 00 00 00 00 00 00 00\nA: 00 0 100 1 2\nA: 01 0 50 0 0\n"
        let recording = try EvemuRecording(parsing: text)
        #expect(recording.device.absInfo(InputCodes.ABS_X) == AbsInfo(minimum: 0, maximum: 100, fuzz: 1, flat: 2))
    }

    @Test(
        "malformed recordings name the file, line and text",
        arguments: [
            ("I: 0003 0001 0002 0003\n", 1, "must follow the N: line"),
            ("N: x\nN: y\n", 2, "only once"),
            ("N: x\nI: 0003 0001 0002\n", 2, "4 hex numbers"),
            ("N: x\nI: 0003 0001 0002 zz\n", 2, "not a hex number"),
            ("N: x\nI: 0003 0001 0002 0003\nB: 03 03 00 00\n", 3, "8 bitmask bytes"),
            ("N: x\nI: 0003 0001 0002 0003\nB: 20 00 00 00 00 00 00 00 00\n", 3, "above EV_MAX"),
            ("# EVEMU 1.3\nN: x\nI: 0003 0001 0002 0003\nB: 03 01 00 00 00 00 00 00 00\nA: 00 0 1 0 0\n", 5, "resolution"),
            ("N: x\nI: 0003 0001 0002 0003\nB: 03 01 00 00 00 00 00 00 00\nA: 00 0 1 0 0 0\n", 4, "no resolution"),
            ("N: x\nI: 0003 0001 0002 0003\nB: 03 01 00 00 00 00 00 00 00\nA: 01 0 1 0 0\n", 4, "not set in the B: 03"),
            ("N: x\nI: 0003 0001 0002 0003\nE: 0.000001 0000 0000 0000\nP: 00 00 00 00 00 00 00 00\n", 4, "out of order"),
            ("N: x\nI: 0003 0001 0002 0003\n\n# fine\nE: 0.5 0000 0000 0000\n", 5, "six digits"),
            ("N: x\nI: 0003 0001 0002 0003\nE: 1.000000 0003 0035 twelve\n", 3, "decimal"),
            ("N: x\nI: 0003 0001 0002 0003\nE: 1.000000 0003 0035 99999999999\n", 3, "32-bit"),
            ("N: x\nI: 0003 0001 0002 0003\nX: what\n", 3, "unknown line type"),
            ("N: x\nI: 0003 0001 0002 0003\nhello\n", 3, "expected a `#` comment"),
        ])
    func malformed(text: String, line: Int, problem: String) {
        do {
            _ = try EvemuRecording(parsing: text, file: "bad.evemu")
            Issue.record("accepted a malformed recording")
        } catch {
            #expect(error.location?.file == "bad.evemu")
            #expect(error.location?.line == line)
            #expect(error.location?.text == text.split(separator: "\n", omittingEmptySubsequences: false)[line - 1].description)
            #expect(error.description.contains(problem), "\(error)")
            #expect(error.description.hasPrefix("bad.evemu:\(line): "))
        }
    }

    @Test("a recording without N: and I: lines is refused", arguments: ["", "# EVEMU 1.3\n", "N: only a name\n"])
    func missingDescription(text: String) {
        #expect(throws: RecordingError.self) { try EvemuRecording(parsing: text) }
    }

    @Test("the writer's output reads back, with properties past the first P: line and negative values")
    func writerRoundTrip() throws {
        let device = DeviceDescription(
            name: "Odd #1 device",
            id: DeviceID(bustype: 3, vendor: 0xffff, product: 0, version: 1),
            properties: [InputCodes.INPUT_PROP_DIRECT, 70],
            codes: [
                InputCodes.EV_SYN: [0, 3], InputCodes.EV_KEY: [InputCodes.BTN_TOUCH, 0x2ff],
                InputCodes.EV_ABS: [InputCodes.ABS_X, InputCodes.ABS_Y], InputCodes.EV_MSC: [],
            ],
            axes: [
                InputCodes.ABS_X: AbsInfo(minimum: -100, maximum: 100, fuzz: 1, flat: 2, resolution: 3),
                InputCodes.ABS_Y: AbsInfo(minimum: Int32.min, maximum: Int32.max),
            ])
        let recording = EvemuRecording(
            device: device,
            events: [
                InputEvent(time: .init(nanoseconds: 0), type: 3, code: 0, value: -100),
                InputEvent(time: .init(nanoseconds: 1_000_001_000), type: 3, code: 1, value: Int32.min),
                InputEvent(time: .init(nanoseconds: 9_999_000_000), type: 0, code: 0, value: 0),
            ])
        let text = try recording.evemuText(header: ["two\nlines"])
        #expect(text.hasPrefix("# EVEMU 1.3\n# two\n# lines\nN: Odd #1 device\nI: 0003 ffff 0000 0001\n"))
        #expect(text.contains("E: 1.000001 0003 0001 -2147483648\t"))
        #expect(text.contains("E: 0.000000 0003 0000 -100\t"))
        #expect(try EvemuRecording(parsing: text) == recording)
        #expect(device.codes[InputCodes.EV_MSC] == nil, "empty code sets are dropped")
    }

    @Test("the writer refuses what the format cannot hold")
    func unwritable() {
        let id = DeviceID(bustype: 0, vendor: 0, product: 0, version: 0)
        #expect(throws: RecordingError.self) {
            try EvemuRecording(device: DeviceDescription(name: "two\nlines", id: id)).evemuText()
        }
        #expect(throws: RecordingError.self) {
            try EvemuRecording(device: DeviceDescription(name: "", id: id)).evemuText()
        }
        #expect(throws: RecordingError.self) {
            try EvemuWriter.line(for: InputEvent(time: .init(nanoseconds: -1), type: 0, code: 0, value: 0))
        }
    }
}
