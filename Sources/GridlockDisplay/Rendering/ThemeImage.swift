import CCairo
import GridlockCore
import LinuxSys

/// A PNG named by the theme (a node image, the background), decoded into a cairo surface
/// with its transparency. The config check decodes each one the same way, so a file that
/// passes `gridlock check-config` is one the renderer can draw.
final class ThemeImage {
    /// Larger sides are refused: no panel needs them, and each costs 4 bytes a pixel decoded.
    static let largestSide = 16384
    /// A PNG file larger than this is refused before it is decoded.
    static let largestFile = 64 << 20

    let path: String
    let surface: OpaquePointer
    var size: Size { Size(width: Double(cairo_image_surface_get_width(surface)), height: Double(cairo_image_surface_get_height(surface))) }

    /// Read without blocking (a FIFO named as an image fails instead of hanging the check),
    /// its header checked before anything is decoded, then decoded from memory.
    init(path: String) throws(ThemeImageProblem) {
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.regularFileContents(of: path, limit: Self.largestFile)
        } catch {
            throw .unreadable(error.reason)
        }
        let (width, height) = try Self.headerSize(bytes)
        guard width > 0, height > 0 else { throw .empty(width: width, height: height) }
        guard width <= Self.largestSide, height <= Self.largestSide else { throw .tooLarge(width: width, height: height) }
        let surface = try Self.decode(bytes)
        guard Int(cairo_image_surface_get_width(surface)) == width, Int(cairo_image_surface_get_height(surface)) == height else {
            cairo_surface_destroy(surface)
            throw .undecodable("the decoded size differs from the header's \(width)x\(height)")
        }
        self.path = path
        self.surface = surface
    }

    deinit {
        cairo_surface_destroy(surface)
    }

    /// The size the IHDR chunk gives: the first chunk of every PNG, right after the signature.
    static func headerSize(_ bytes: [UInt8]) throws(ThemeImageProblem) -> (width: Int, height: Int) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw .notPNG }
        guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw .undecodable("no IHDR chunk after the signature")
        }
        func bigEndian(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (bigEndian(16), bigEndian(20))
    }

    private static func decode(_ bytes: [UInt8]) throws(ThemeImageProblem) -> OpaquePointer {
        let reader = MemoryReader(bytes)
        let context = Unmanaged.passUnretained(reader).toOpaque()
        let decoded = cairo_image_surface_create_from_png_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            let reader = Unmanaged<MemoryReader>.fromOpaque(closure).takeUnretainedValue()
            return reader.read(into: data, count: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
        }, context)
        withExtendedLifetime(reader) {}
        guard let decoded else { throw .undecodable("cairo made no surface") }
        let status = cairo_surface_status(decoded)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(decoded)
            // A truncated file ends the stream early: cairo calls that a read error.
            throw .undecodable(status == CAIRO_STATUS_READ_ERROR ? "the file ends early (truncated?)" : describe(status))
        }
        return decoded
    }

    /// A copy of `surface` scaled to `size` once (cairo's good filter averages when shrinking),
    /// so that frames only copy it: drawing at 1:1 on whole pixels involves no filtering.
    func scaled(to size: Size) throws(RenderError) -> OpaquePointer {
        let width = Int32(size.width), height = Int32(size.height)
        guard let scaled = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height),
              cairo_surface_status(scaled) == CAIRO_STATUS_SUCCESS
        else { throw .cairo(operation: "scale \(path) to \(width)x\(height)", status: "no surface") }
        let cr = cairo_create(scaled)
        defer { cairo_destroy(cr) }
        let original = self.size
        cairo_scale(cr, size.width / original.width, size.height / original.height)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        // Edge pixels are not blended with transparent black from outside the image.
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_rectangle(cr, 0, 0, original.width, original.height)
        cairo_fill(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(scaled)
            throw .cairo(operation: "scale \(path)", status: describe(status))
        }
        cairo_surface_flush(scaled)
        return scaled
    }
}

/// Why a theme image cannot be used, as the reason after its path.
public enum ThemeImageProblem: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(String)
    case notPNG
    case empty(width: Int, height: Int)
    case tooLarge(width: Int, height: Int)
    case undecodable(String)

    public var description: String {
        switch self {
        case .unreadable(let reason): reason
        case .notPNG: "not a PNG file (it does not start with the PNG signature)"
        case let .empty(width, height): "the image is \(width)x\(height) pixels, nothing to draw"
        case let .tooLarge(width, height):
            "the image is \(width)x\(height) pixels; at most \(ThemeImage.largestSide) a side"
        case .undecodable(let reason): "not a valid PNG: \(reason)"
        }
    }
}

/// The check the config runs on every image it names: the very decoding the renderer does.
public enum ThemeImageCheck {
    /// The image's size in pixels, or why it cannot be drawn.
    public static func check(_ path: String) throws(ThemeImageProblem) -> (width: Int, height: Int) {
        let image = try ThemeImage(path: path)
        return (Int(image.size.width), Int(image.size.height))
    }
}

/// Hands a byte array to cairo's PNG reader a piece at a time.
private final class MemoryReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        guard count <= bytes.count - offset else { return false }
        bytes.withUnsafeBufferPointer { source in
            destination.update(from: source.baseAddress! + offset, count: count)
        }
        offset += count
        return true
    }
}
