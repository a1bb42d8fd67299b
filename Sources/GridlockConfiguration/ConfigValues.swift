import GridlockCore
import GridlockThemeFiles
import GridlockInput
import LinuxSys

/// Why one value was refused, said as what is allowed.
package struct ValueProblem: Error, Hashable, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
}

/// The parsers of single values. Strict on purpose: a kiosk config is written once and must
/// mean exactly one thing, so `1.0` is not an integer and `0x10` is not a number.
package enum ConfigValues {
    package static func boolean(_ text: String) throws(ValueProblem) -> Bool {
        switch text.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw ValueProblem("expected true or false (or yes/no, 1/0, on/off), got '\(text)'")
        }
    }

    package static func integer(_ text: String, in range: ClosedRange<Int>) throws(ValueProblem) -> Int {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw ValueProblem("expected a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        guard let value = Int(text), range.contains(value) else {
            throw ValueProblem("must be from \(range.lowerBound) to \(range.upperBound), not \(text)")
        }
        return value
    }

    /// Plain decimal notation (`0.8`, `-1`, `1e-3`); no hex, nan or infinity.
    package static func decimal(_ text: String) throws(ValueProblem) -> Double {
        guard isPlainDecimal(text), let value = Double(text), value.isFinite else {
            throw ValueProblem("expected a decimal number, got '\(text)'")
        }
        return value
    }

    package static func decimal(_ text: String, in range: ClosedRange<Double>) throws(ValueProblem) -> Double {
        let value = try decimal(text)
        guard range.contains(value) else {
            throw ValueProblem("must be from \(range.lowerBound) to \(range.upperBound), not \(text)")
        }
        return value
    }

    package static func choice<T>(_ text: String, _ options: [(String, T)]) throws(ValueProblem) -> T {
        guard let match = options.first(where: { $0.0 == text }) else {
            throw ValueProblem("expected \(alternatives(options.map(\.0))), got '\(text)'")
        }
        return match.1
    }

    /// `WxH`, both from 1 to 16384 (DRM's largest framebuffers are 16384 wide).
    package static func pixelSize(_ text: String) throws(ValueProblem) -> PixelSize {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let width = try? integer(String(parts[0]), in: 1...16384),
            let height = try? integer(String(parts[1]), in: 1...16384)
        else { throw ValueProblem("expected WIDTHxHEIGHT in pixels, each 1 to 16384 (e.g. 800x480), got '\(text)'") }
        return PixelSize(width: width, height: height)
    }

    package static func displayMode(_ text: String) throws(ValueProblem) -> DisplayMode {
        switch text {
        case "preferred": return .preferred
        case "current": return .current
        default:
            let problem = ValueProblem("expected preferred, current, WxH or WxH@HZ (e.g. 1280x800@60), got '\(text)'")
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count <= 2, let size = try? pixelSize(String(parts[0])) else { throw problem }
            guard parts.count == 2 else { return .size(size, refreshHz: nil) }
            guard let hz = try? integer(String(parts[1]), in: 1...1000) else { throw problem }
            return .size(size, refreshHz: hz)
        }
    }

    package static func rotation(_ text: String) throws(ValueProblem) -> Rotation {
        guard let degrees = Int(text), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let rotation = Rotation(degrees: degrees)
        else { throw ValueProblem("expected 0, 90, 180 or 270 (degrees clockwise), got '\(text)'") }
        return rotation
    }

    package static func displayDevice(_ text: String) throws(ValueProblem) -> DisplayDevice {
        if text == "auto" { return .auto }
        try refuseMiscased(text, keywords: ["auto"])
        guard text.hasPrefix("/") else { throw ValueProblem("expected auto or an absolute path such as /dev/dri/card0, got '\(text)'") }
        return .path(text)
    }

    package static func connector(_ text: String) throws(ValueProblem) -> ConnectorSelector {
        guard !text.isEmpty else { throw ValueProblem("expected auto or a connector name such as HDMI-A-1") }
        if text == "auto" { return .auto }
        try refuseMiscased(text, keywords: ["auto"])
        return .named(text)
    }

    package static func touchDevice(_ text: String, _ source: ValueSource) throws(ValueProblem) -> TouchDevice {
        if text == "auto" { return .auto }
        try refuseMiscased(text, keywords: ["auto"], prefixes: ["name:"], relativePath: true)
        if text.hasPrefix("name:") {
            let name = String(text.dropFirst("name:".count))
            guard !name.isEmpty else { throw ValueProblem("name: needs part of the device's name, e.g. name:Goodix") }
            return .nameContaining(name)
        }
        guard !text.isEmpty else { throw ValueProblem("expected auto, a path, or name:SUBSTRING") }
        return .path(try path(text, source))
    }

    /// Absolute, relative to the folder of the file that holds it (`ConfigPaths`).
    package static func path(_ text: String, _ source: ValueSource) throws(ValueProblem) -> String {
        guard !text.isEmpty else { throw ValueProblem("expected a path, got nothing") }
        return ConfigPaths.resolve(text, relativeTo: source.file, currentDirectory: source.currentDirectory)
    }

    /// A family name, or a file (`FontChoice.isFileName`; relative to the config's folder).
    /// Whether it can be drawn with is judged with the files the config names
    /// (`NamedFileCheck`), so a typo or an unreadable file shows in `check-config` with its
    /// line, not as a blank screen.
    package static func font(_ text: String, _ source: ValueSource) throws(ValueProblem) -> FontChoice {
        guard !text.isEmpty else { throw ValueProblem("expected a font family or a font file, got nothing") }
        return FontChoice.isFileName(text) ? FontChoice.file(try path(text, source)) : .family(text)
    }

    /// `valid=Mon-Fri 07:00-09:30; Sat 08:00-12:00`.
    package static func weeklyWindows(_ text: String) throws(ValueProblem) -> [WeeklyWindow] {
        do throws(ScheduleSyntaxError) {
            return try PatternSchedule.windows(from: text)
        } catch {
            throw ValueProblem("\(error.message); expected windows like 'Mon-Fri 07:00-09:30; Sat 08:00-12:00'")
        }
    }

    package static func validFrom(_ text: String) throws(ValueProblem) -> LocalDateTime {
        try localDateTime(text, endOfDay: false)
    }

    /// A bare date means its last second: `valid-until=2026-12-31` includes that day.
    package static func validUntil(_ text: String) throws(ValueProblem) -> LocalDateTime {
        try localDateTime(text, endOfDay: true)
    }

    private static func localDateTime(_ text: String, endOfDay: Bool) throws(ValueProblem) -> LocalDateTime {
        guard let time = LocalDateTime(iso8601: text, endOfDay: endOfDay) else {
            throw ValueProblem("expected a local date or date-time as YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (no time zone), got '\(text)'")
        }
        return time
    }

    /// `3x3`: rows, then columns, as `[grid]` gives them.
    package static func gridShape(_ text: String) throws(ValueProblem) -> GridShape {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let rows = Int(parts[0]), let columns = Int(parts[1]),
              let shape = try? GridShape(rows: rows, columns: columns) else {
            throw ValueProblem("expected ROWSxCOLUMNS with 2 to 8 each (e.g. 3x3), got '\(text)'")
        }
        return shape
    }

    package static func color(_ text: String) throws(ValueProblem) -> Color {
        guard let color = Color(hex: text) else {
            throw ValueProblem("expected a colour as #RRGGBB (e.g. #2E9BFF), got '\(text)'")
        }
        return color
    }

    /// Parsed into the matrix here, once: every part that maps touches takes this value.
    package static func calibration(_ text: String) throws(ValueProblem) -> CalibrationMatrix {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count == 6 else {
            throw ValueProblem("expected 6 numbers 'a b c d e f' (a LIBINPUT_CALIBRATION_MATRIX), got \(fields.count)")
        }
        var numbers: [Double] = []
        for field in fields { numbers.append(try decimal(String(field))) }
        do {
            // The mapper inverts nothing, but a matrix that folds the panel onto a line
            // (or whose determinant underflows to zero) maps every touch to one line.
            return try CalibrationMatrix(values: numbers)
        } catch {
            throw ValueProblem("\(error)")
        }
    }

    /// A message: every `{name}` must be one of its values, and `%d` may appear once where
    /// the message had a number before names existed (with the same meaning).
    package static func template(_ text: String, _ values: MessageValues) throws(ValueProblem) -> String {
        do throws(MessageTemplateProblem) {
            try MessageTemplate.check(text, accepts: values)
        } catch {
            if case .unknownName(let name, let known) = error, let near = ClosestName.suggestion(for: name, among: known) {
                throw ValueProblem("\(error.description); did you mean {\(near)}?")
            }
            throw ValueProblem(error.description)
        }
        return text
    }

    /// Read and its chunks checked now, so a missing, broken or absurd image is a config
    /// error at its line and never a blank screen; the images in effect are decoded, all
    /// together within their pixel budget, by `ConfigVerdict.namedFiles`.
    package static func pngImage(_ text: String, _ source: ValueSource) throws(ValueProblem) -> String {
        let image = try path(text, source)
        do throws(ThemeImageProblem) {
            _ = try ThemeImageHead(path: image)
        } catch {
            throw ValueProblem("cannot use '\(image)': \(error)")
        }
        return image
    }

    package static func beeper(_ text: String, _ source: ValueSource) throws(ValueProblem) -> BeeperChoice {
        switch text {
        case "auto": return .auto
        case "off": return .off
        case "": throw ValueProblem("expected auto, off or the path of an input device with EV_SND, got nothing")
        default:
            try refuseMiscased(text, keywords: ["auto", "off"], relativePath: true)
            return .path(try path(text, source))
        }
    }

    /// `off`, or up to `ToneStep.mostSteps` steps `HZ:MS` separated by commas; 0 Hz is a rest.
    package static func sound(_ text: String) throws(ValueProblem) -> [ToneStep] {
        if text == "off" { return [] }
        let hz = ToneStep.allowedHertz
        let ms = ToneStep.allowedMilliseconds
        let form = "off or HZ:MS steps separated by commas (HZ 0 for a rest or \(hz.lowerBound) to \(hz.upperBound), MS \(ms.lowerBound) to \(ms.upperBound)), e.g. 1047:90,1568:140"
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= ToneStep.mostSteps else {
            throw ValueProblem("at most \(ToneStep.mostSteps) steps, got \(parts.count)")
        }
        var steps: [ToneStep] = []
        for part in parts {
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 2, let hertz = try? integer(String(fields[0]), in: 0...hz.upperBound),
                  hertz == 0 || hz.contains(hertz),
                  let milliseconds = try? integer(String(fields[1]), in: ms)
            else { throw ValueProblem("expected \(form), got '\(text)' ('\(part)' is not a step)") }
            steps.append(ToneStep(hertz: hertz, duration: .milliseconds(milliseconds)))
        }
        return steps
    }

    package static func schedule(_ text: String) throws(ValueProblem) -> LockoutSchedule {
        do throws(LockoutScheduleError) { return try LockoutSchedule(text: text) } catch { throw ValueProblem(error.description) }
    }

    /// The whole PHC string, as `verify` will read it: a hash that passes here can match.
    package static func argon2Hash(_ text: String) throws(ValueProblem) -> String {
        guard text.hasPrefix("$argon2id$") else {
            throw ValueProblem("expected an argon2id hash starting with $argon2id$ (make one with 'gridlock hash'), got '\(abbreviated(text))'")
        }
        guard Argon2idHash.isWellFormed(text) else {
            throw ValueProblem(
                "malformed argon2id hash '\(abbreviated(text))': expected $argon2id$v=19$m=KIB,t=PASSES,p=1$SALT$KEY with a cost libsodium accepts, a salt of at least 8 and a key of at least 16 bytes in unpadded base64 (copy it whole from 'gridlock hash'); this pattern could never match")
        }
        return text
    }

    package static func argv(_ text: String) throws(ValueProblem) -> [String] {
        do throws(ArgvError) { return try ArgvSplitter.split(text) } catch { throw ValueProblem(error.description) }
    }

    package static let maximumPatternNameLength = 64

    /// `[A-Za-z0-9_.-]{1,64}`: safe in logs, file names and the child's environment.
    package static func isPatternName(_ name: String) -> Bool {
        (1...maximumPatternNameLength).contains(name.utf8.count)
            && name.utf8.allSatisfy { c in
                (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
                    || c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: "-")
            }
    }

    /// Keywords are lower case, as everywhere in the config (`drm`, `fill`, `off`): a
    /// keyword in other letters (`AUTO`, `Off`, `Name:`) would otherwise be taken for a
    /// path or a name, and is refused instead. Booleans alone take any case.
    /// `relativePath`: the value may also be a relative path, which the message says how to write.
    package static func refuseMiscased(
        _ text: String, keywords: [String], prefixes: [String] = [], relativePath: Bool = false
    ) throws(ValueProblem) {
        let lower = text.lowercased()
        let meant = keywords.first { $0 == lower && $0 != text }
            ?? prefixes.first { lower.hasPrefix($0) && !text.hasPrefix($0) }.map { $0 + text.dropFirst($0.count) }
        guard let meant else { return }
        let file = relativePath ? " (for a file of that name write ./\(text))" : ""
        throw ValueProblem("keywords are lower case: write '\(meant)', not '\(text)'\(file)")
    }

    package static func alternatives(_ words: [String]) -> String {
        switch words.count {
        case 0: ""
        case 1: words[0]
        default: words.dropLast().joined(separator: ", ") + " or " + words.last!
        }
    }

    private static func isPlainDecimal(_ text: String) -> Bool {
        var sawDigit = false
        var sawExponent = false
        var previous: UInt8? = nil
        for c in text.utf8 {
            switch c {
            case 0x30...0x39: sawDigit = true
            case UInt8(ascii: "."): if sawExponent { return false }
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                if sawExponent || !sawDigit { return false }
                sawExponent = true
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                if previous != nil && previous != UInt8(ascii: "e") && previous != UInt8(ascii: "E") { return false }
            default: return false
            }
            previous = c
        }
        return sawDigit
    }

    /// Secrets-adjacent values are quoted only in part: a hash typo should be recognisable, not reproduced.
    private static func abbreviated(_ text: String) -> String {
        text.count <= 16 ? text : String(text.prefix(12)) + "…"
    }
}
