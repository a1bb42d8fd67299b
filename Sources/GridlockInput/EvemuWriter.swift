import GridlockCore

/// Writes evemu's text format (file format 1.3, as evemu-record 2.x does), so that
/// `evemu-device` and `evemu-play` accept the output and `EvemuRecording(parsing:)`
/// reads back exactly what was written.
///
/// The description and the event lines are separate calls so that `gridlock record`
/// can stream events as they arrive.
public enum EvemuWriter {
    /// The `# EVEMU 1.3` line, `header` as comment lines, then the N:, I:, P:, B: and A: lines.
    public static func description(_ device: DeviceDescription, header: [String] = []) throws(RecordingError) -> String {
        let name = device.name
        guard let first = name.first, first != " ", first != "\t", !name.contains(where: \.isNewline) else {
            throw .unwritable(problem: "device name \(String(reflecting: name)) must be one line not starting with a blank")
        }
        var out = "# EVEMU 1.3\n"
        for line in header.flatMap({ $0.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) }) {
            out += line.isEmpty ? "#\n" : "# \(line)\n"
        }
        let id = device.id
        out += "N: \(name)\n"
        out += "I: \(hex(id.bustype, 4)) \(hex(id.vendor, 4)) \(hex(id.product, 4)) \(hex(id.version, 4))\n"
        // evemu always writes at least one P: line; an empty one means "no properties".
        for line in maskLines(device.properties, minimumLines: 1) { out += "P: \(line)\n" }
        for type in device.codes.keys.sorted() {
            for line in maskLines(device.codes[type]!, minimumLines: 1) { out += "B: \(hex(type, 2)) \(line)\n" }
        }
        for code in device.axes.keys.sorted() {
            let a = device.axes[code]!
            out += "A: \(hex(code, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        return out
    }

    /// One `E:` line with evemu-record's readable comment after it. Times are written in
    /// whole microseconds, as the kernel's timeval has them; anything finer is dropped.
    public static func line(for event: InputEvent) throws(RecordingError) -> String {
        let ns = event.time.nanoseconds
        guard ns >= 0 else { throw .unwritable(problem: "event time \(event.time) is before zero") }
        let seconds = ns / 1_000_000_000
        let micros = (ns % 1_000_000_000) / 1_000
        let time = "\(seconds).\(padded(String(micros), 6))"
        let value = evemuValue(event.value)
        let typeName = InputCodeNames.type(event.type)
        let codeName = InputCodeNames.code(type: event.type, code: event.code)
        let comment: String
        if event.type == InputCodes.EV_SYN {
            comment = "# ------------ \(codeName) (\(event.value)) ----------"
        } else {
            comment = "# \(typeName) / \(padded(codeName, 20, right: true)) \(event.value)"
        }
        return "E: \(time) \(hex(event.type, 4)) \(hex(event.code, 4)) \(value)\t\(comment)\n"
    }

    public static func text(_ recording: EvemuRecording, header: [String] = []) throws(RecordingError) -> String {
        var out = try description(recording.device, header: header)
        for event in recording.events { out += try line(for: event) }
        return out
    }

    // MARK: Formatting

    /// Bitmask bytes, eight to a line, enough lines to hold the highest bit.
    static func maskLines(_ bits: Set<UInt16>, minimumLines: Int) -> [String] {
        let lineCount = max(minimumLines, bits.max().map { Int($0) / 64 + 1 } ?? 0)
        var bytes = [UInt8](repeating: 0, count: lineCount * 8)
        for bit in bits { bytes[Int(bit) / 8] |= 1 << (bit % 8) }
        return (0..<lineCount).map { line in
            bytes[(line * 8)..<(line * 8 + 8)].map { hex(UInt16($0), 2) }.joined(separator: " ")
        }
    }

    static func hex(_ value: UInt16, _ width: Int) -> String { padded(String(value, radix: 16), width) }

    /// C's `%04d`, which evemu uses for values: zero-padded to four characters, sign included.
    static func evemuValue(_ value: Int32) -> String {
        let magnitude = String(value.magnitude)
        return value < 0 ? "-" + padded(magnitude, 3) : padded(magnitude, 4)
    }

    static func padded(_ s: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: right ? " " : "0", count: max(0, width - s.count))
        return right ? s + fill : fill + s
    }
}

extension EvemuRecording {
    public func evemuText(header: [String] = []) throws(RecordingError) -> String {
        try EvemuWriter.text(self, header: header)
    }
}
