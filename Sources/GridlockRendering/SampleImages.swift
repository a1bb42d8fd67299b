import CCairo
import GridlockCore
import LinuxSys

/// Theme images drawn by code, for `gridlock bench`'s themed row: with transparency and
/// gradients, so that they cost what a designer's images cost.
public enum SampleImages {
    /// A `side`x`side` disc of `color`, lighter in the middle, with a thin ring and
    /// transparent corners.
    public static func disc(side: Int, color: Color, to path: String) throws(RenderError) {
        try draw(width: side, height: side, to: path) { cr in
            let r = Double(side) / 2
            let shade = cairo_pattern_create_radial(r * 0.7, r * 0.7, 0, r, r, r)
            defer { cairo_pattern_destroy(shade) }
            cairo_pattern_add_color_stop_rgba(shade, 0, 1, 1, 1, 0.9)
            cairo_pattern_add_color_stop_rgba(shade, 1, unit(color.red), unit(color.green), unit(color.blue), 0.85)
            cairo_arc(cr, r, r, r * 0.92, 0, 2 * Double.pi)
            cairo_set_source(cr, shade)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, unit(color.red), unit(color.green), unit(color.blue), 1)
            cairo_set_line_width(cr, r * 0.08)
            cairo_stroke(cr)
        }
    }

    /// A `width`x`height` diagonal gradient from `from` to `to`, opaque.
    public static func gradient(width: Int, height: Int, from: Color, to end: Color, to path: String) throws(RenderError) {
        try draw(width: width, height: height, to: path) { cr in
            let shade = cairo_pattern_create_linear(0, 0, Double(width), Double(height))
            defer { cairo_pattern_destroy(shade) }
            cairo_pattern_add_color_stop_rgb(shade, 0, unit(from.red), unit(from.green), unit(from.blue))
            cairo_pattern_add_color_stop_rgb(shade, 1, unit(end.red), unit(end.green), unit(end.blue))
            cairo_set_source(cr, shade)
            cairo_paint(cr)
        }
    }

    private static func unit(_ channel: UInt8) -> Double { Double(channel) / 255 }

    private static func draw(width: Int, height: Int, to path: String, _ body: (OpaquePointer?) -> Void) throws(RenderError) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw .invalidSize(width: width, height: height) }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)
        body(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let (status, systemError) = Errno.leftBehind { cairo_surface_write_to_png(surface, path) }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .pngUnwritable(path: path, reason: systemError.map { "\($0)" } ?? describe(status))
        }
    }
}
