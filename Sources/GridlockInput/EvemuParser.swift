import GridlockCore
import LinuxSys

extension EvemuRecording {
    /// Reads the text `evemu-record` writes. It accepts what libevemu's `evemu_read` and
    /// `evemu_read_event` accept (evemu.c), and refuses instead of guessing wherever evemu
    /// would fail or silently misread, so a fixture that parses here also replays with
    /// `evemu-play`:
    /// - `#` lines and blank lines are skipped anywhere; the first line may be `# EVEMU x.y`;
    /// - `N:` then `I:` come first, then `P:`, `B:`, `A:`, `L:`, `S:` lines in that order, then `E:`;
    /// - `A:` lines have a resolution field exactly when the file says `# EVEMU 1.2` or later;
    /// - an event's microseconds are the six digits `evemu-record` prints (`0.5` would be
    ///   5 microseconds to evemu, so it is refused here).
    ///
    /// `file` is only used to name the place of an error.
    public init(parsing text: String, file: String = "<recording>") throws(RecordingError) {
        try self.init(parsing: text, file: file, bytesFirst: true)
    }

    /// `bytesFirst: false` reads every line through the `Character` path alone: the
    /// reference the byte path is tested against.
    init(parsing text: String, file: String, bytesFirst: Bool) throws(RecordingError) {
        var parser = EvemuParser(file: file)
        var text = text
        // Lines end at "\n" only when the text has no other character Swift counts as a
        // line break ("\r", "\u{0B}", "\u{0C}", U+0085, U+2028, U+2029): then the bytes can
        // be cut at each "\n" and every line is the one `split(whereSeparator: \.isNewline)`
        // would make.
        let plainLines = bytesFirst && text.withUTF8 { EvemuParser.hasOnlyLineFeeds($0) }
        guard plainLines else {
            var number = 0
            var events: [InputEvent] = []
            for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                number += 1
                if let event = try parser.consume(line, number: number) { events.append(event) }
            }
            self = EvemuRecording(device: try parser.device(lastLine: number), events: events)
            return
        }
        let parsed: Result<(events: [InputEvent], lines: Int), RecordingError> = text.withUTF8 { bytes in
            var events: [InputEvent] = []
            // A recording is mostly E: lines of about 40 bytes each.
            events.reserveCapacity(bytes.count / 40)
            var number = 0
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                number += 1
                do throws(RecordingError) {
                    if let event = try parser.consume(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]), number: number) {
                        events.append(event)
                    }
                } catch {
                    return .failure(error)
                }
                start = end + 1
            }
            return .success((events, number))
        }
        switch parsed {
        case .success(let result):
            self = EvemuRecording(device: try parser.device(lastLine: result.lines), events: result.events)
        case .failure(let error):
            throw error
        }
    }
}

/// Where a replay's events come from: a recording in memory, or one read from its file
/// as it is played.
public protocol RecordedEvents: AnyObject {
    var device: DeviceDescription { get }
    /// The next event; nil after the last.
    func next() throws(RecordingError) -> InputEvent?
}

/// A recording already in memory (fixtures, tests, a recording made on the fly).
public final class RecordedEventList: RecordedEvents {
    public let device: DeviceDescription
    private let events: [InputEvent]
    private var index = 0

    public init(_ recording: EvemuRecording) {
        device = recording.device
        events = recording.events
    }

    public func next() throws(RecordingError) -> InputEvent? {
        guard index < events.count else { return nil }
        defer { index += 1 }
        return events[index]
    }
}

/// An evemu recording read from its file line by line: the description first, then one
/// event per call, so a recording of any length is replayed in constant memory, with the
/// same checks and `FILE:LINE` errors as `EvemuRecording(parsing:)`.
public final class EvemuFileStream: RecordedEvents {
    public let device: DeviceDescription
    private let reader: LineReader
    private var parser: EvemuParser
    private var number = 0
    /// The first event, read while looking for the end of the description.
    private var pending: InputEvent?

    public init(path: String) throws(RecordingError) {
        do {
            reader = try LineReader(path: path)
        } catch {
            throw .unreadable(file: path, reason: error.reason)
        }
        parser = EvemuParser(file: path)
        while true {
            guard let line = try Self.line(reader, path) else { break }
            number += 1
            if let event = try parser.consume(line, number: number) {
                pending = event
                break
            }
        }
        device = try parser.device(lastLine: number)
    }

    public func next() throws(RecordingError) -> InputEvent? {
        if let event = pending {
            pending = nil
            return event
        }
        while var line = try Self.line(reader, reader.path) {
            number += 1
            let quick = line.withUTF8 { parser.consumeQuickly($0) }
            switch quick {
            case .skipped: continue
            case .event(let event): return event
            case .unsure: if let event = try parser.consume(line, number: number) { return event }
            }
        }
        return nil
    }

    private static func line(_ reader: LineReader, _ path: String) throws(RecordingError) -> Substring? {
        do {
            return try reader.nextLine()
        } catch {
            throw .unreadable(file: path, reason: "\(error.errno.text)")
        }
    }
}

/// The state of one parse, fed one line at a time.
private struct EvemuParser {
    /// The order evemu reads the parts of a file in.
    enum Stage: Int, Comparable {
        case start, name, id, properties, bits, axes, leds, switches, events
        static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }
    }

    let file: String
    var sawContent = false
    var hasResolution = false
    var stage = Stage.start
    var name = ""
    var id = DeviceID(bustype: 0, vendor: 0, product: 0, version: 0)
    var properties: Set<UInt16> = []
    var propertyBytes = 0
    var codes: [UInt16: Set<UInt16>] = [:]
    var maskBytes: [UInt16: Int] = [:]
    var axes: [UInt16: AbsInfo] = [:]
    init(file: String) { self.file = file }

    /// `consume` of a line given as its UTF-8 bytes: the common lines (blank, `#` comments,
    /// well-formed `E:` events) are read from the bytes; every other line, and any line the
    /// bytes leave in doubt, goes through `consume` as text, which reads or refuses it.
    mutating func consume(bytes line: UnsafeBufferPointer<UInt8>, number: Int) throws(RecordingError) -> InputEvent? {
        switch consumeQuickly(line) {
        case .skipped: return nil
        case .event(let event): return event
        case .unsure: return try consume(Substring(String(decoding: line, as: UTF8.self)), number: number)
        }
    }

    /// What the byte path made of a line.
    enum QuickLine {
        case skipped
        case event(InputEvent)
        /// Not a line the byte path reads: `consume` decides, with the same state.
        case unsure
    }

    /// The byte path. It accepts only lines that `consume` reads to the very same result,
    /// all ASCII where it looks (a byte of 0x80 or more can start a character that joins
    /// with the one before, e.g. "#" and a combining keycap, which `consume` would not read
    /// as "#"), and changes the state only as `consume` would for them. Everything else
    /// is `.unsure`, untouched. Reading bytes instead of `Character`s, and making no
    /// `String` for a line that parses, is what makes a recording quick to read.
    mutating func consumeQuickly(_ line: UnsafeBufferPointer<UInt8>) -> QuickLine {
        let space: UInt8 = 0x20, tab: UInt8 = 0x09, hash: UInt8 = 0x23
        var i = 0
        while i < line.count && (line[i] == space || line[i] == tab) { i += 1 }
        if i == line.count { return .skipped }
        // The first non-blank line decides the format version: left to `consume`.
        guard sawContent else { return .unsure }
        if line[0] == hash { return line.count == 1 || line[1] < 0x80 ? .skipped : .unsure }
        guard line.count >= 2, line[0] == UInt8(ascii: "E"), line[1] == UInt8(ascii: ":"), stage >= .id else {
            return .unsure
        }
        // The fields, up to a `#` description; exactly four, ASCII, split by blanks.
        var fields: [(start: Int, end: Int)] = []
        fields.reserveCapacity(4)
        i = 2
        while i < line.count {
            let byte = line[i]
            if byte == hash {
                if i + 1 < line.count && line[i + 1] >= 0x80 { return .unsure }
                break
            }
            if byte >= 0x80 { return .unsure }
            if byte == space || byte == tab {
                i += 1
                continue
            }
            let start = i
            while i < line.count, line[i] != space, line[i] != tab, line[i] != hash {
                if line[i] >= 0x80 { return .unsure }
                i += 1
            }
            guard fields.count < 4 else { return .unsure }
            fields.append((start, i))
        }
        guard fields.count == 4,
            let time = Self.quickTime(line, fields[0]),
            let type = Self.quickHex(line, fields[1]),
            let code = Self.quickHex(line, fields[2]),
            let value = Self.quickDecimal(line, fields[3])
        else { return .unsure }
        stage = .events
        return .event(InputEvent(time: time, type: type, code: code, value: value))
    }

    /// `<seconds>.<six digits>`, as `time` reads it; nil for anything else.
    static func quickTime(_ line: UnsafeBufferPointer<UInt8>, _ field: (start: Int, end: Int)) -> Instant? {
        var i = field.start
        var seconds: Int64 = 0
        while i < field.end, let digit = asciiDigit(line[i]) {
            // More digits than this is left to `time` (and refused there).
            guard i - field.start < 18 else { return nil }
            seconds = seconds * 10 + Int64(digit)
            i += 1
        }
        guard i > field.start, i < field.end, line[i] == UInt8(ascii: "."), field.end - (i + 1) == 6 else { return nil }
        var micros: Int64 = 0
        for j in (i + 1)..<field.end {
            guard let digit = asciiDigit(line[j]) else { return nil }
            micros = micros * 10 + Int64(digit)
        }
        guard seconds <= Int64.max / 1_000_000_000 - 1 else { return nil }
        return Instant(seconds: seconds, fraction: micros, perSecond: 1_000_000)
    }

    /// One to four hex digits, as `hex(_:digits: 4, ...)` reads them.
    static func quickHex(_ line: UnsafeBufferPointer<UInt8>, _ field: (start: Int, end: Int)) -> UInt16? {
        guard (1...4).contains(field.end - field.start) else { return nil }
        var value: UInt16 = 0
        for i in field.start..<field.end {
            let byte = line[i]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// A 32-bit decimal integer with an optional sign, as `Int32(_:)` reads it.
    static func quickDecimal(_ line: UnsafeBufferPointer<UInt8>, _ field: (start: Int, end: Int)) -> Int32? {
        var i = field.start
        var negative = false
        if line[i] == UInt8(ascii: "-") || line[i] == UInt8(ascii: "+") {
            negative = line[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < field.end, field.end - i <= 10 else { return nil }
        var magnitude: Int64 = 0
        while i < field.end {
            guard let digit = asciiDigit(line[i]) else { return nil }
            magnitude = magnitude * 10 + Int64(digit)
            i += 1
        }
        let value = negative ? -magnitude : magnitude
        guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        return Int32(value)
    }

    static func asciiDigit(_ byte: UInt8) -> UInt8? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : nil
    }

    /// Whether "\n" is the text's only line break, by its UTF-8 bytes: no "\r", VT or FF,
    /// and no lead byte of U+0085 (0xC2 0x85) or U+2028/U+2029 (0xE2 0x80 0xA8/0xA9).
    static func hasOnlyLineFeeds(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case 0x0B, 0x0C, 0x0D: return false
            case 0xC2 where i + 1 < bytes.count && bytes[i + 1] == 0x85: return false
            case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                return false
            default: break
            }
            i += 1
        }
        return true
    }

    /// The line's event, for an `E:` line; nil for every other line.
    mutating func consume(_ line: Substring, number: Int) throws(RecordingError) -> InputEvent? {
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return nil }
        let location = RecordingLocation(file: file, line: number, text: String(line))
        if !sawContent {
            sawContent = true
            // evemu only looks for the version on the first non-empty line.
            hasResolution = Self.formatVersion(line).map { $0 > (1, 1) } ?? false
        }
        if line.first == "#" { return nil }
        guard line.count >= 2, line.dropFirst().first == ":" else {
            throw .malformedLine(location, problem: "expected a `#` comment or an N:, I:, P:, B:, A:, L:, S: or E: line")
        }
        let tag = line.first!
        let body = line.dropFirst(2)
        switch tag {
        case "N": try parseName(body, location)
        case "I": try parseID(body, location)
        case "P": try enter(.properties, location); try parseProperties(body, location)
        case "B": try enter(.bits, location); try parseBits(body, location)
        case "A": try enter(.axes, location); try parseAxis(body, location)
        case "L": try enter(.leds, location); try parseState(body, location, what: "LED")
        case "S": try enter(.switches, location); try parseState(body, location, what: "switch")
        case "E": try enter(.events, location); return try parseEvent(body, location)
        default:
            throw .malformedLine(location, problem: "unknown line type `\(tag):`")
        }
        return nil
    }

    /// The description, once its lines have been read (and only then).
    func device(lastLine: Int) throws(RecordingError) -> DeviceDescription {
        guard stage >= .id else {
            let missing = stage == .start ? "an N: (device name) line" : "an I: (bus vendor product version) line"
            throw .missingDescription(file: file, line: lastLine, problem: "the recording ended without \(missing)")
        }
        return DeviceDescription(name: name, id: id, properties: properties, codes: codes, axes: axes)
    }

    // MARK: Order

    mutating func enter(_ next: Stage, _ location: RecordingLocation) throws(RecordingError) {
        guard stage >= .id else {
            throw .malformedLine(location, problem: "the N: and I: lines must come before any other line")
        }
        guard stage <= next else {
            throw .malformedLine(
                location, problem: "out of order: evemu reads N:, I:, P:, B:, A:, L:, S: and then E: lines")
        }
        stage = next
    }

    static func formatVersion(_ line: Substring) -> (Int, Int)? {
        let prefix = "# EVEMU "
        guard line.hasPrefix(prefix) else { return nil }
        let parts = line.dropFirst(prefix.count).split(separator: ".", maxSplits: 1)
        guard parts.count == 2,
            let major = Int(parts[0]),
            let minor = Int(parts[1].prefix(while: \.isNumber))
        else { return nil }
        return (major, minor)
    }

    // MARK: Description lines

    mutating func parseName(_ body: Substring, _ location: RecordingLocation) throws(RecordingError) {
        guard stage == .start else {
            throw .malformedLine(location, problem: "the N: line must come first, and only once")
        }
        // evemu's `N: %m[^\n\r]` skips the blanks after the colon and keeps the rest verbatim.
        let value = body.drop(while: { $0 == " " || $0 == "\t" })
        guard !value.isEmpty else { throw .malformedLine(location, problem: "empty device name") }
        name = String(value)
        stage = .name
    }

    mutating func parseID(_ body: Substring, _ location: RecordingLocation) throws(RecordingError) {
        guard stage == .name else {
            throw .malformedLine(location, problem: "the I: line must follow the N: line, once")
        }
        let fields = Self.fields(body)
        guard fields.count == 4 else {
            throw .malformedLine(location, problem: "expected 4 hex numbers: bustype vendor product version")
        }
        var values: [UInt16] = []
        for field in fields { values.append(try Self.hex(field, digits: 4, location, what: "id")) }
        id = DeviceID(bustype: values[0], vendor: values[1], product: values[2], version: values[3])
        stage = .id
    }

    mutating func parseProperties(_ body: Substring, _ location: RecordingLocation) throws(RecordingError) {
        let bytes = try Self.maskBytes(Self.fields(body), location, what: "P: line (8 property bitmask bytes)")
        for (index, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                properties.insert(UInt16((propertyBytes + index) * 8 + bit))
            }
        }
        propertyBytes += 8
    }

    mutating func parseBits(_ body: Substring, _ location: RecordingLocation) throws(RecordingError) {
        let fields = Self.fields(body)
        guard let first = fields.first else {
            throw .malformedLine(location, problem: "expected an event type and 8 bitmask bytes")
        }
        let type = try Self.hex(first, digits: 2, location, what: "event type")
        guard type <= InputCodes.EV_MAX else {
            throw .malformedLine(location, problem: "event type 0x\(String(type, radix: 16)) is above EV_MAX (0x1f)")
        }
        let bytes = try Self.maskBytes(fields.dropFirst(), location, what: "B: line (type and 8 bitmask bytes)")
        let offset = maskBytes[type, default: 0]
        guard (offset + 8) * 8 <= Int(UInt16.max) + 1 else {
            throw .malformedLine(location, problem: "too many B: lines for event type 0x\(String(type, radix: 16))")
        }
        for (index, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                codes[type, default: []].insert(UInt16((offset + index) * 8 + bit))
            }
        }
        maskBytes[type] = offset + 8
    }

    mutating func parseAxis(_ body: Substring, _ location: RecordingLocation) throws(RecordingError) {
        let fields = Self.fields(body)
        let needed = hasResolution ? 6 : 5
        guard fields.count == needed else {
            let form =
                hasResolution
                ? "code min max fuzz flat resolution (the file says # EVEMU 1.2 or later)"
                : "code min max fuzz flat (without `# EVEMU 1.2` or later on the first line evemu reads no resolution)"
            throw .malformedLine(location, problem: "expected \(needed) fields: \(form)")
        }
        let code = try Self.hex(fields[0], digits: 2, location, what: "ABS code")
        guard codes[InputCodes.EV_ABS]?.contains(code) == true else {
            throw .malformedLine(location, problem: "ABS code 0x\(String(code, radix: 16)) is not set in the B: 03 lines")
        }
        guard axes[code] == nil else {
            throw .malformedLine(location, problem: "second A: line for ABS code 0x\(String(code, radix: 16))")
        }
        var values: [Int32] = []
        for field in fields.dropFirst() { values.append(try Self.decimal(field, location, what: "axis value")) }
        axes[code] = AbsInfo(
            minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3],
            resolution: hasResolution ? values[4] : 0)
    }

    /// LED and switch states are part of the format but mean nothing to a touch decoder:
    /// checked, then dropped.
    func parseState(_ body: Substring, _ location: RecordingLocation, what: String) throws(RecordingError) {
        let fields = Self.fields(body)
        guard fields.count == 2 else {
            throw .malformedLine(location, problem: "expected a hex \(what) code and a decimal state")
        }
        _ = try Self.hex(fields[0], digits: 2, location, what: "\(what) code")
        _ = try Self.decimal(fields[1], location, what: "\(what) state")
    }

    // MARK: Events

    func parseEvent(_ body: Substring, _ location: RecordingLocation) throws(RecordingError) -> InputEvent {
        // evemu-record appends a `# EV_ABS / ABS_X ...` description after the value.
        let data = body.firstIndex(of: "#").map { body[..<$0] } ?? body
        let fields = Self.fields(data)
        guard fields.count == 4 else {
            throw .malformedLine(location, problem: "expected `E: <sec>.<usec> <type hex> <code hex> <value>`")
        }
        let time = try Self.time(fields[0], location)
        let type = try Self.hex(fields[1], digits: 4, location, what: "event type")
        let code = try Self.hex(fields[2], digits: 4, location, what: "event code")
        let value = try Self.decimal(fields[3], location, what: "event value")
        return InputEvent(time: time, type: type, code: code, value: value)
    }

    static func time(_ field: Substring, _ location: RecordingLocation) throws(RecordingError) -> Instant {
        let parts = field.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy(\.isASCIIDigit),
            parts[1].count == 6, parts[1].allSatisfy(\.isASCIIDigit),
            let seconds = Int64(parts[0]), let micros = Int64(parts[1]),
            seconds <= Int64.max / 1_000_000_000 - 1
        else {
            throw .malformedLine(location, problem: "time `\(field)` is not <seconds>.<six digits of microseconds>")
        }
        return Instant(seconds: seconds, fraction: micros, perSecond: 1_000_000)
    }

    // MARK: Fields

    static func fields(_ text: Substring) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    static func maskBytes(
        _ fields: some Collection<Substring>, _ location: RecordingLocation, what: String
    ) throws(RecordingError) -> [UInt8] {
        guard fields.count == 8 else { throw .malformedLine(location, problem: "expected a \(what)") }
        var bytes: [UInt8] = []
        for field in fields { bytes.append(UInt8(try hex(field, digits: 2, location, what: "bitmask byte"))) }
        return bytes
    }

    static func hex(
        _ field: Substring, digits: Int, _ location: RecordingLocation, what: String
    ) throws(RecordingError) -> UInt16 {
        guard (1...digits).contains(field.count), field.allSatisfy(\.isHexDigit), let value = UInt16(field, radix: 16)
        else {
            throw .malformedLine(location, problem: "\(what) `\(field)` is not a hex number of at most \(digits) digits")
        }
        return value
    }

    static func decimal(_ field: Substring, _ location: RecordingLocation, what: String) throws(RecordingError) -> Int32 {
        guard let value = Int32(field) else {
            throw .malformedLine(location, problem: "\(what) `\(field)` is not a 32-bit decimal integer")
        }
        return value
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
