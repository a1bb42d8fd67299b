/// Why a theme image cannot be used, as the reason after its path.
public enum ThemeImageProblem: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(String)
    case notPNG
    case empty(width: Int, height: Int)
    case tooLarge(width: Int, height: Int)
    /// Over `ThemeImageBudget` on its own (`total` is its own pixels) or with the images before it.
    case overBudget(width: Int, height: Int, total: Int)
    /// More bytes than an image of its size needs (`size` nil: beyond the hard limit, not
    /// even looked at), or, with `total`, more than all theme files together may have.
    case tooManyBytes(size: Int?, allowed: Int, width: Int?, height: Int?)
    case overByteBudget(size: Int, total: Int)
    /// The file changed between its header's check and its reading.
    case changed
    case undecodable(String)

    public var description: String {
        switch self {
        case .unreadable(let reason): reason
        case .notPNG: "not a PNG file (it does not start with the PNG signature)"
        case let .empty(width, height): "the image is \(width)x\(height) pixels, nothing to draw"
        case let .tooLarge(width, height):
            "the image is \(width)x\(height) pixels; at most \(ThemeImageLimits.largestSide) a side"
        case let .overBudget(width, height, total) where total == width * height:
            "the image is \(width)x\(height) pixels, more than the \(ThemeImageBudget.pixels) (2048x2048) all theme images together may have"
        case let .overBudget(width, height, total):
            "the image is \(width)x\(height) pixels and brings the theme's images to \(total); together they may have at most \(ThemeImageBudget.pixels) (2048x2048)"
        case let .tooManyBytes(size?, allowed, width?, height?):
            "the file is \(size) bytes, more than the \(allowed) a \(width)x\(height) PNG may take (its image data uncompressed, and \(ThemeImageBudget.metadataBytes) bytes of metadata)"
        case let .tooManyBytes(_, allowed, _, _):
            "the file is larger than \(allowed) bytes, the most a theme image may take"
        case let .overByteBudget(size, total):
            "the file is \(size) bytes and brings the theme's image files to \(total); together they may take at most \(ThemeImageBudget.bytes) bytes (24 MiB)"
        case .changed: "the file changed while it was read; replace it atomically (write a new file, then rename it into place)"
        case .undecodable(let reason): "not a valid PNG: \(reason)"
        }
    }
}
