/// An opaque colour, written `#RRGGBB` in the config.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#RRGGBB` (case-insensitive).
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        for d in digits[1...] {
            let nibble: UInt8
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = d - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = d - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = d - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(nibble)
        }
        self.init(red: UInt8(value >> 16), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    public var description: String {
        let hex = Array("0123456789ABCDEF")
        return "#" + String([red >> 4, red & 15, green >> 4, green & 15, blue >> 4, blue & 15].map { hex[Int($0)] })
    }
}

/// Colours, font and words: everything about the look that the config can change.
public struct Theme: Hashable, Sendable {
    public var background = Color(hex: "#101418")!
    public var node = Color(hex: "#5A6270")!
    public var selected = Color(hex: "#2E9BFF")!
    public var error = Color(hex: "#F0454B")!
    public var success = Color(hex: "#3CC873")!
    public var text = Color(hex: "#DDE3EA")!
    /// Path alpha, as in the benchmark scene.
    public var pathAlpha = 0.8
    /// The family or file the messages are set in.
    public var font = FontChoice.standard

    /// Message templates; `%d` is replaced by the message's number.
    public var prompt = "Draw your unlock pattern"
    public var verifying = "Checking…"
    public var wrong = "Wrong pattern, try again"
    public var tooShort = "Connect at least %d dots"
    public var lockedOut = "Too many attempts. Try again in %d s"
    public var cannotRecord = "Out of service: attempts cannot be recorded"
    public var successText = "Unlocked"
    public var enrollDraw = "Draw a new unlock pattern"
    public var enrollConfirm = "Draw the pattern again to confirm"
    public var enrollMismatch = "Patterns don't match, start over"
    public var enrollSaved = "Pattern saved"
    public var calibrate = "Touch the centre of the cross (%d of 5)"

    public init() {}

    public func color(for look: NodeLook) -> Color {
        switch look {
        case .idle: node
        case .selected: selected
        case .error: error
        case .success: success
        }
    }

    /// The words for a message, with `%d` filled in.
    public func text(for message: Message) -> String {
        switch message {
        case .none: ""
        case .prompt: prompt
        case .verifying: verifying
        case .wrong: wrong
        case .tooShort(let minimum): Self.fill(tooShort, minimum)
        case .lockedOut(let seconds): Self.fill(lockedOut, seconds)
        case .cannotRecord: cannotRecord
        case .success: successText
        case .enrollDraw: enrollDraw
        case .enrollConfirm: enrollConfirm
        case .enrollMismatch: enrollMismatch
        case .enrollSaved: enrollSaved
        case .calibrate(let step, _): Self.fill(calibrate, step)
        }
    }

    /// The colour of the message line for a message.
    public func textColor(for message: Message) -> Color {
        switch message {
        case .wrong, .tooShort, .lockedOut, .cannotRecord, .enrollMismatch: error
        case .success, .enrollSaved: success
        default: text
        }
    }

    /// By UTF-8 bytes, as the config check counts `%d`: by characters, a combining mark
    /// after the `d` would make `d` part of another character and hide the `%d`.
    static func fill(_ template: String, _ number: Int) -> String {
        let bytes = Array(template.utf8)
        guard let i = bytes.indices.dropLast().first(where: { bytes[$0] == UInt8(ascii: "%") && bytes[$0 + 1] == UInt8(ascii: "d") })
        else { return template }
        return String(decoding: bytes[..<i], as: UTF8.self) + String(number) + String(decoding: bytes[(i + 2)...], as: UTF8.self)
    }
}
