/// What counts as whitespace at the ends of a config value, for the config reader and for the
/// command-line values that become config (`IniValueCheck`) alike: Unicode's White_Space
/// property, every space there is. inih strips the ASCII ones (its `isspace`) from both ends
/// of a key and a value; every other one it keeps, where nobody sees it (`exec=/bin/echo
/// open` followed by a no-break space passes `open\u{A0}`). So the reader refuses a value
/// that begins or ends with one of those, and the CLI refuses a value with any of them at
/// either end, since it would be read back otherwise than given or not at all.
public enum ConfigWhitespace {
    /// Unicode's White_Space (PropList.txt): tab, line feed, line and form feed, carriage
    /// return, space, next line, no-break space, Ogham space mark, the en quad to the hair
    /// space, the line and paragraph separators, the narrow no-break space, the medium
    /// mathematical space and the ideographic space.
    public static let scalars: Set<Unicode.Scalar> = Set(
        [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
            .map { Unicode.Scalar(UInt32($0))! } + (0x2000...0x200A).map { Unicode.Scalar(UInt32($0))! })

    public static func contains(_ scalar: Unicode.Scalar) -> Bool { scalars.contains(scalar) }

    /// The ones inih strips from both ends (C's `isspace`): the ASCII ones.
    public static func isStrippedByReader(_ scalar: Unicode.Scalar) -> Bool { scalar.isASCII && contains(scalar) }

    /// A byte that is one of those (`IniReader` works on a line's bytes).
    package static func isStrippedByReader(byte: UInt8) -> Bool { byte < 0x80 && contains(Unicode.Scalar(byte)) }

    /// The whitespace at the start or the end of `text`, the first found; nil when there is none.
    public static func atEitherEnd(of text: String) -> Unicode.Scalar? {
        let scalars = text.unicodeScalars
        if let first = scalars.first, contains(first) { return first }
        if let last = scalars.last, contains(last) { return last }
        return nil
    }

    /// `text` without what inih strips from both ends.
    package static func strippedByReader(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, isStrippedByReader(first) { scalars = scalars.dropFirst() }
        while let last = scalars.last, isStrippedByReader(last) { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// `U+00A0 (a no-break space)`: how a message names one.
    public static func name(of scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let names: [UInt32: String] = [
            0x09: "a tab", 0x0A: "a line feed", 0x0B: "a line tabulation", 0x0C: "a form feed", 0x0D: "a carriage return",
            0x20: "a space", 0x85: "a next line", 0xA0: "a no-break space", 0x1680: "an Ogham space mark",
            0x2000: "an en quad", 0x2001: "an em quad", 0x2002: "an en space", 0x2003: "an em space",
            0x2004: "a three-per-em space", 0x2005: "a four-per-em space", 0x2006: "a six-per-em space",
            0x2007: "a figure space", 0x2008: "a punctuation space", 0x2009: "a thin space", 0x200A: "a hair space",
            0x2028: "a line separator", 0x2029: "a paragraph separator", 0x202F: "a narrow no-break space",
            0x205F: "a medium mathematical space", 0x3000: "an ideographic space",
        ]
        return names[scalar.value].map { "\(code) (\($0))" } ?? code
    }
}
