import CCairo

/// Why drawing could not be set up, worded for the person reading the log.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// The font file could not be loaded; `reason` is FreeType's (and the system's) account.
    case fontUnloadable(path: String, reason: String)
    /// A theme image could not be read or decoded (`ThemeImageProblem` in words).
    case imageUnusable(path: String, reason: String)
    /// No installed font has the family `font=` names.
    case fontFamilyMissing(name: String, reason: String)
    /// A canvas of this size cannot be made (zero, negative or beyond cairo's 32767 limit).
    case invalidSize(width: Int, height: Int)
    /// cairo refused to create something, usually for lack of memory.
    case cairo(operation: String, status: String)
    case pngUnwritable(path: String, reason: String)
    case pngUnreadable(path: String, reason: String)
    /// A contact sheet needs at least one frame.
    case noFrames

    public var description: String {
        switch self {
        case let .fontUnloadable(path, reason): "cannot load font \(path): \(reason)"
        case let .imageUnusable(path, reason): "cannot use image \(path): \(reason)"
        case let .fontFamilyMissing(name, reason): "cannot use font family '\(name)': \(reason)"
        case let .invalidSize(width, height): "cannot make a \(width)x\(height) canvas (each side must be 1...32767)"
        case let .cairo(operation, status): "cairo could not \(operation): \(status)"
        case let .pngUnwritable(path, reason): "cannot write PNG \(path): \(reason)"
        case let .pngUnreadable(path, reason): "cannot read PNG \(path): \(reason)"
        case .noFrames: "a contact sheet needs at least one frame"
        }
    }
}

/// cairo's own words for a status, e.g. "file not found".
func describe(_ status: cairo_status_t) -> String {
    String(cString: cairo_status_to_string(status))
}
