import CCairo
import LinuxSys

/// Shadow buffers as PNG files, for tests, the demo and screenshots.
public enum PNGFile {
    /// Written under a temporary name and renamed, so whoever watches the folder (a test,
    /// the demo's viewer) never reads half a frame.
    public static func write(_ buffer: ShadowBuffer, to path: String) throws(RenderError) {
        cairo_surface_flush(buffer.surface)
        let partial = path + ".partial"
        let (status, systemError) = Errno.leftBehind { cairo_surface_write_to_png(buffer.surface, partial) }
        guard status == CAIRO_STATUS_SUCCESS else {
            unlinkIfPresent(partial)
            throw .pngUnwritable(path: path, reason: reason(status, systemError: systemError))
        }
        do {
            try AtomicFile.move(partial, to: path)
        } catch {
            unlinkIfPresent(partial)
            throw .pngUnwritable(path: path, reason: "\(error.errno)")
        }
    }

    /// Any PNG cairo can read; transparency is dropped, as the screen has none.
    public static func read(_ path: String) throws(RenderError) -> ShadowBuffer {
        let (created, systemError) = Errno.leftBehind { cairo_image_surface_create_from_png(path) }
        guard let image = created else {
            throw .pngUnreadable(path: path, reason: "no surface")
        }
        defer { cairo_surface_destroy(image) }
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .pngUnreadable(path: path, reason: reason(status, systemError: systemError))
        }
        let buffer = try ShadowBuffer(
            width: Int(cairo_image_surface_get_width(image)), height: Int(cairo_image_surface_get_height(image)))
        // Painting converts whatever format the file decoded to (with alpha, 16-bit) into XRGB.
        let cr = cairo_create(buffer.surface)
        defer { cairo_destroy(cr) }
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_paint(cr)
        let paintStatus = cairo_status(cr)
        guard paintStatus == CAIRO_STATUS_SUCCESS else {
            throw .pngUnreadable(path: path, reason: describe(paintStatus))
        }
        cairo_surface_flush(buffer.surface)
        return buffer
    }

    /// cairo's status says "file not found" or "error while writing"; errno, when the
    /// failure came from opening the file, says which directory or permission was wrong.
    private static func reason(_ status: cairo_status_t, systemError: Errno?) -> String {
        let text = describe(status)
        guard let systemError,
              status == CAIRO_STATUS_FILE_NOT_FOUND || status == CAIRO_STATUS_WRITE_ERROR
                || status == CAIRO_STATUS_READ_ERROR
        else { return text }
        return "\(text) (\(systemError.text))"
    }
}
