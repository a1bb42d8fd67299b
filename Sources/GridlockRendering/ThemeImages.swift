import CCairo
import GridlockCore

/// The theme's images, decoded when the theme is loaded and scaled when the frame or the
/// node size changes, never per frame: a frame only copies prepared pixels.
final class ThemeImages {
    let paths: [String]
    private let background: ThemeImage?
    private let nodes: [NodeLook: ThemeImage]
    /// The background as the frame shows it: colour and image composed at the frame's size.
    private var backdrop: (surface: OpaquePointer, key: BackdropKey)?
    /// Node images at the size last drawn.
    private var scaledNodes: [NodeLook: ScaledImage] = [:]

    private struct BackdropKey: Equatable {
        var width: Int, height: Int, fit: BackgroundFit, color: Color
    }

    struct ScaledImage {
        let surface: OpaquePointer
        let size: Size
        let side: Double
    }

    /// Decodes every image `theme` names, once their headers together are within the budget.
    init(theme: Theme) throws(RenderError) {
        paths = theme.imagePaths
        var roles: [(look: NodeLook?, path: String)] = []
        if let path = theme.backgroundImage { roles.append((nil, path)) }
        for look in [NodeLook.idle, .selected, .error, .success] {
            if let path = theme.image(for: look) { roles.append((look, path)) }
        }
        let images: [ThemeImage]
        do throws(ThemeImageSetProblem) {
            images = try ThemeImageCheck.decoded(roles.map(\.path))
        } catch {
            throw .imageUnusable(path: roles[error.index].path, reason: "\(error.problem)")
        }
        var background: ThemeImage?
        var nodes: [NodeLook: ThemeImage] = [:]
        for (role, image) in zip(roles, images) {
            if let look = role.look { nodes[look] = image } else { background = image }
        }
        self.background = background
        self.nodes = nodes
    }

    deinit {
        if let backdrop { cairo_surface_destroy(backdrop.surface) }
        for image in scaledNodes.values { cairo_surface_destroy(image.surface) }
    }

    /// The background colour with the image placed on it, at `width`x`height`; made once per size.
    func backdrop(width: Int, height: Int, theme: Theme) throws(RenderError) -> OpaquePointer? {
        guard let background else { return nil }
        let key = BackdropKey(width: width, height: height, fit: theme.backgroundFit, color: theme.background)
        if let backdrop, backdrop.key == key { return backdrop.surface }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw .cairo(operation: "make a \(width)x\(height) background", status: "no surface") }
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        setSource(cr, theme.background)
        cairo_paint(cr)
        let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        let place = theme.backgroundFit.placement(image: background.size, frame: frame)
        cairo_save(cr)
        cairo_translate(cr, place.x, place.y)
        cairo_scale(cr, place.width / background.size.width, place.height / background.size.height)
        cairo_set_source_surface(cr, background.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        if theme.backgroundFit == .tile {
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_REPEAT)
            cairo_paint(cr)
        } else {
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_rectangle(cr, 0, 0, background.size.width, background.size.height)
            cairo_fill(cr)
        }
        cairo_restore(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .cairo(operation: "draw the background image", status: describe(status))
        }
        cairo_surface_flush(surface)
        if let old = backdrop { cairo_surface_destroy(old.surface) }
        backdrop = (surface, key)
        return surface
    }

    /// The image for nodes in `look`, scaled to fit a square of `side`; scaled again only
    /// when `side` changes (a new layout or theme), not per frame.
    func node(_ look: NodeLook, side: Double) throws(RenderError) -> ScaledImage? {
        guard let image = nodes[look] else { return nil }
        if let scaled = scaledNodes[look], scaled.side == side { return scaled }
        let size = image.size.fitted(inSquare: side)
        let made = ScaledImage(surface: try image.scaled(to: size), size: size, side: side)
        if let old = scaledNodes[look] { cairo_surface_destroy(old.surface) }
        scaledNodes[look] = made
        return made
    }

    private func setSource(_ cr: OpaquePointer?, _ color: Color) {
        cairo_set_source_rgb(cr, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
    }
}
