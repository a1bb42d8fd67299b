/// What `[theme] font=` names: a family that fontconfig finds among the installed fonts,
/// or one font file. Either way, characters the font lacks come from another installed
/// font that has them.
public enum FontChoice: Hashable, Sendable, CustomStringConvertible {
    case family(String)
    case file(String)

    /// What the messages are set in unless the config says otherwise (package fonts-dejavu-core).
    public static let standard = FontChoice.family("DejaVu Sans")

    /// File name endings that make a `font=` value a file even without a slash.
    static let fileEndings = [".ttf", ".otf", ".ttc", ".otc", ".pfb", ".pfa", ".woff", ".woff2"]

    /// A value with a slash, or ending like a font file, is a file; anything else a family.
    public static func isFileName(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return text.contains("/") || fileEndings.contains { lowered.hasSuffix($0) }
    }

    public var description: String {
        switch self {
        case .family(let name): "family '\(name)'"
        case .file(let path): "file '\(path)'"
        }
    }
}
