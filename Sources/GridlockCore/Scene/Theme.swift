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

/// Colours, font, images, sizes and words: everything about the look that the config can change.
/// Images are named by path only: the renderer decodes them, the core knows their roles
/// (which node look, the background) and where they go.
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

    /// PNG files drawn instead of a node's ring in that look, centred and scaled to `nodeSize`;
    /// nil draws the ring (and dot) in the look's colour.
    public var nodeImage: String? = nil
    public var selectedImage: String? = nil
    public var errorImage: String? = nil
    public var successImage: String? = nil
    /// A PNG file behind everything, placed by `backgroundFit`; where it leaves room, `background` shows.
    public var backgroundImage: String? = nil
    public var backgroundFit: BackgroundFit = .fill
    /// The drawn diameter of a node (ring or image) as a fraction of a cell.
    public var nodeSize = SceneGeometry.standard.nodeSize
    /// The path's colour in every look; nil takes the look's colour.
    public var lineColor: Color? = nil
    /// The path's width as a fraction of a cell.
    public var lineWidth = SceneGeometry.standard.lineWidth

    /// Message templates: `{name}` shows a value (`MessageValues`), today's `%d` the traditional one.
    public var prompt = "Draw your unlock pattern"
    public var verifying = "Checking…"
    public var wrong = "Wrong pattern, try again"
    public var tooShort = "Connect at least {minimum} dots"
    public var lockedOut = "Too many attempts. Try again in {seconds} s"
    public var cannotRecord = "Out of service: attempts cannot be recorded"
    public var serviceUnavailable = "Cannot check patterns: the gridlock service is not running"
    public var busy = "Busy, try again"
    public var successText = "Unlocked"
    public var enrollDraw = "Draw a new unlock pattern"
    public var enrollConfirm = "Draw the pattern again to confirm"
    public var enrollMismatch = "Patterns don't match, start over"
    public var enrollSaved = "Pattern saved"
    public var calibrate = "Touch the centre of the cross ({step} of {count})"

    public init() {}

    /// The image drawn for nodes in `look`, if the theme has one.
    public func image(for look: NodeLook) -> String? {
        switch look {
        case .idle: nodeImage
        case .selected: selectedImage
        case .error: errorImage
        case .success: successImage
        }
    }

    /// Every image the theme names, for loading them all at once.
    public var imagePaths: [String] {
        [backgroundImage, nodeImage, selectedImage, errorImage, successImage].compactMap { $0 }
    }

    /// The sizes the theme gives what is drawn.
    public var geometry: SceneGeometry { SceneGeometry(nodeSize: nodeSize, lineWidth: lineWidth) }

    /// The path's colour in `look`.
    public func lineColor(for look: NodeLook) -> Color { lineColor ?? color(for: look) }

    public func color(for look: NodeLook) -> Color {
        switch look {
        case .idle: node
        case .selected: selected
        case .error: error
        case .success: success
        }
    }

    /// The words for a message, with its values filled in.
    public func text(for message: Message) -> String {
        switch message {
        case .none: ""
        case .prompt: Self.plain(prompt)
        case .verifying: Self.plain(verifying)
        case let .wrong(failures, remaining):
            MessageTemplate.fill(wrong, .wrong) { name in
                name == "failures" ? String(failures) : remaining.map(String.init) ?? Self.noLockoutAhead
            }
        case .tooShort(let minimum): MessageTemplate.fill(tooShort, .tooShort) { _ in String(minimum) }
        case .lockedOut(let seconds): MessageTemplate.fill(lockedOut, .lockedOut) { _ in String(seconds) }
        case .cannotRecord: Self.plain(cannotRecord)
        case .serviceUnavailable: Self.plain(serviceUnavailable)
        case .busy: Self.plain(busy)
        case .success: Self.plain(successText)
        case .enrollDraw: Self.plain(enrollDraw)
        case .enrollConfirm: Self.plain(enrollConfirm)
        case .enrollMismatch: Self.plain(enrollMismatch)
        case .enrollSaved: Self.plain(enrollSaved)
        case let .calibrate(step, count):
            MessageTemplate.fill(calibrate, .calibrate) { name in name == "count" ? String(count) : String(step) }
        }
    }

    /// A message without values still writes `{{` and `}}` as one brace, as every message does.
    private static func plain(_ template: String) -> String { MessageTemplate.fill(template, .none) { _ in "" } }

    /// `{remaining}` when no number of failures locks out (`schedule=none`, or only zeros ahead).
    public static let noLockoutAhead = "∞"

    /// The colour of the message line for a message.
    public func textColor(for message: Message) -> Color {
        switch message {
        case .wrong, .tooShort, .lockedOut, .cannotRecord, .serviceUnavailable, .busy, .enrollMismatch: error
        case .success, .enrollSaved: success
        default: text
        }
    }
}
