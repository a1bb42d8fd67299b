import CCairo
import GridlockCore
import GridlockThemeFiles
import LinuxSys

/// A PNG named by the theme (a node image, the background), decoded into a cairo surface
/// with its transparency. The config check decodes each one the same way, so a file that
/// passes `gridlock check-config` is one the renderer can draw. Unchecked `Sendable`: the
/// surface is only read once made (scaled from, drawn from), never written.
final class ThemeImage: @unchecked Sendable {
    let path: String
    let surface: OpaquePointer
    var size: Size { Size(width: Double(cairo_image_surface_get_width(surface)), height: Double(cairo_image_surface_get_height(surface))) }

    /// Decodes a file whose chunks `ThemeImageFile` has checked. When cairo refuses it,
    /// its image data is inflated to say why (short, corrupt, a row filter that does not
    /// exist) rather than cairo's "out of memory"; a sound file is inflated only once.
    init(_ file: ThemeImageFile) throws(ThemeImageProblem) {
        let surface: OpaquePointer
        do throws(ThemeImageProblem) {
            surface = try Self.decode(file.bytes)
        } catch {
            try file.layout.checkImageData(in: file.bytes)
            throw error
        }
        let (width, height) = (file.layout.width, file.layout.height)
        guard Int(cairo_image_surface_get_width(surface)) == width, Int(cairo_image_surface_get_height(surface)) == height else {
            cairo_surface_destroy(surface)
            throw .undecodable("the decoded size differs from the header's \(width)x\(height)")
        }
        self.path = file.path
        self.surface = surface
    }

    deinit {
        cairo_surface_destroy(surface)
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
        // cairo keeps a copy of the whole PNG file on the surface (mime data, for PDF and SVG
        // output, which gridlock never makes): let it go, so an image costs its pixels only.
        cairo_surface_set_mime_data(decoded, "image/png", nil, 0, nil, nil)
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
