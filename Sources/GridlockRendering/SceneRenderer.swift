import CCairo
import GridlockCore

/// Draws scenes into its shadow buffer with cairo.
///
/// Every size comes from `SceneMetrics`, the same source `Damage.between` uses, and the
/// frame is always drawn in the fixed squares of a `TileGrid`, so a render limited to
/// that damage produces exactly the pixels of a full redraw.
public final class SceneRenderer {
    /// The frame as last rendered.
    public let buffer: ShadowBuffer
    public private(set) var theme: Theme
    private let context: OpaquePointer
    private var text: TextSetter
    /// Without it only a font file's own characters are drawn (tests show what it adds).
    private let fontFallback: Bool
    /// Decoded at load, kept across resizes; scaled copies are made once per size.
    private var images: ThemeImages
    /// The current message's words and placement, kept so that a frame spends no time
    /// or memory on text that has not changed.
    private var line: MessageLine?
    private var tiles: TileGrid
    /// The plain look's rings as coverage masks, for the node size last drawn.
    private var nodeMasks: NodeMasks?

    /// Loads the theme's fonts and decodes its images.
    public convenience init(size: Size, theme: Theme, fontFallback: Bool = true) throws(RenderError) {
        let fonts = try FontLibrary(theme.font, fallback: fontFallback)
        try self.init(
            size: size, theme: theme, text: TextSetter(fonts: fonts), fontFallback: fontFallback,
            images: try ThemeImages(theme: theme))
    }

    /// A renderer for a display of another size with this one's theme, fonts and decoded
    /// images: a new mode reads no file again (the images are only scaled anew).
    public func resized(to size: Size) throws(RenderError) -> SceneRenderer {
        try SceneRenderer(size: size, theme: theme, text: TextSetter(fonts: text.fonts), fontFallback: fontFallback, images: images)
    }

    private init(size: Size, theme: Theme, text: TextSetter, fontFallback: Bool, images: ThemeImages) throws(RenderError) {
        let width = Int(size.width.rounded()), height = Int(size.height.rounded())
        buffer = try ShadowBuffer(width: width, height: height)
        self.text = text
        self.fontFallback = fontFallback
        self.images = images
        _ = try images.backdrop(width: width, height: height, theme: theme)
        guard let context = cairo_create(buffer.surface) else {
            throw .cairo(operation: "create a drawing context", status: "no context")
        }
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(context)
            throw .cairo(operation: "create a drawing context", status: describe(status))
        }
        self.context = context
        self.theme = theme
        tiles = TileGrid(width: width, height: height)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        cairo_set_antialias(context, CAIRO_ANTIALIAS_GRAY)
    }

    deinit {
        cairo_destroy(context)
    }

    /// Switches to a reloaded config's look. A font or an image that cannot be loaded
    /// leaves the current theme in place. Render the next scene in full afterwards.
    public func setTheme(_ newTheme: Theme) throws(RenderError) {
        try install(try Self.prepare(newTheme, after: preparation))
    }

    /// What `prepare` needs to know of the theme in use (plain values, read on the thread
    /// that draws).
    public var preparation: ThemePreparation {
        ThemePreparation(font: text.fonts.choice, fontFallback: fontFallback, hasImages: !images.paths.isEmpty)
    }

    /// Loads a theme's fonts and decodes its images without touching any renderer, so that
    /// a reload can do the slow part on another thread while this one keeps drawing the
    /// old look; `install` then takes it up. Images are decoded again even under the same
    /// names: a reload is how new files are taken up.
    public static func prepare(_ newTheme: Theme, after current: ThemePreparation) throws(RenderError) -> PreparedTheme {
        let text = newTheme.font != current.font
            ? TextSetter(fonts: try FontLibrary(newTheme.font, fallback: current.fontFallback)) : nil
        let images = newTheme.imagePaths.isEmpty && !current.hasImages ? nil : try ThemeImages(theme: newTheme)
        return PreparedTheme(theme: newTheme, text: text, images: images)
    }

    /// Takes up a prepared theme (its backdrop scaled to this canvas); on an error the
    /// current theme stays.
    public func install(_ prepared: PreparedTheme) throws(RenderError) {
        let newImages = prepared.images ?? images
        _ = try newImages.backdrop(width: buffer.width, height: buffer.height, theme: prepared.theme)
        images = newImages
        text = prepared.text ?? text
        theme = prepared.theme
        line = nil
    }

    /// Draws `scene`; with `damage`, only the squares of the tile grid its rectangles
    /// touch (a little more than the damage), leaving the rest of the previous frame as
    /// it was. Nil redraws everything. Either way the pixels are those of a full redraw.
    public func render(_ scene: Scene, damage: Damage?) {
        if let damage {
            for rect in damage.rects { tiles.mark(rect) }
        } else {
            tiles.markAll()
        }
        let cr = context
        let metrics = scene.metrics(theme.geometry)
        // The background first, as one fill of all marked squares: a solid fill (or a copy of
        // the prepared background at 1:1) of whole pixels comes out the same whatever the
        // clip, and most squares hold nothing else.
        cairo_new_path(cr)
        tiles.forEachMarked { tile in cairo_rectangle(cr, tile.x, tile.y, tile.width, tile.height) }
        // Made at load or resize; asked for each frame (a comparison of sizes) because a
        // renderer made by `resized(to:)` shares the images with the one it came from.
        if let backdrop = try? images.backdrop(width: buffer.width, height: buffer.height, theme: theme) {
            cairo_set_source_surface(cr, backdrop, 0, 0)
        } else {
            setSource(theme.background)
        }
        cairo_fill(cr)

        let empty = Rect(x: 0, y: 0, width: 0, height: 0)
        // A calibration cross replaces the grid.
        let pathBounds = scene.target == nil ? Self.pathBounds(scene, metrics) : empty
        let nodeBounds = scene.target == nil ? Self.nodeBounds(scene, metrics) : empty
        let targetBounds = scene.target.map { metrics.targetBounds(center: $0) } ?? empty
        let band = scene.message == .none ? Rect(x: 0, y: 0, width: 0, height: 0) : metrics.messageBand.integral
        tiles.drain { tile in
            let path = pathBounds.intersects(tile), nodes = nodeBounds.intersects(tile), text = band.intersects(tile)
            let target = targetBounds.intersects(tile)
            guard path || nodes || text || target else { return }
            cairo_save(cr)
            cairo_new_path(cr)
            cairo_rectangle(cr, tile.x, tile.y, tile.width, tile.height)
            cairo_clip(cr)
            if path { drawPath(scene, metrics) }
            if nodes { drawNodes(scene, metrics, within: tile) }
            if text { drawMessage(scene.message, metrics) }
            if target, let center = scene.target { drawTarget(at: center) }
            cairo_restore(cr)
        }
        cairo_surface_flush(buffer.surface)
    }

    /// Everything any node's drawing can touch (the grid is a rectangle of nodes).
    private static func nodeBounds(_ scene: Scene, _ metrics: SceneMetrics) -> Rect {
        let layout = scene.layout
        let count = layout.shape.nodeCount
        return metrics.nodeBounds(center: layout.center(of: 0)).union(
            metrics.nodeBounds(center: layout.center(of: count - 1)))
    }

    /// Everything the path's stroke can touch, so squares away from it skip the stroke.
    private static func pathBounds(_ scene: Scene, _ metrics: SceneMetrics) -> Rect {
        let path = scene.path
        guard let first = path.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        var bounds = metrics.segmentBounds(first, first)
        for point in path.dropFirst() { bounds = bounds.union(metrics.segmentBounds(point, point)) }
        if let finger = scene.finger { bounds = bounds.union(metrics.segmentBounds(finger, finger)) }
        return bounds
    }

    /// A cross with a small ring, in the text colour, for the finger to aim at.
    private func drawTarget(at center: Point) {
        let cr = context
        let arm = SceneMetrics.targetArm
        cairo_new_path(cr)
        cairo_move_to(cr, center.x - arm, center.y)
        cairo_line_to(cr, center.x + arm, center.y)
        cairo_move_to(cr, center.x, center.y - arm)
        cairo_line_to(cr, center.x, center.y + arm)
        cairo_new_sub_path(cr)
        cairo_arc(cr, center.x, center.y, arm / 2, 0, 2 * Double.pi)
        setSource(theme.text)
        cairo_set_line_width(cr, SceneMetrics.targetLineWidth)
        cairo_stroke(cr)
    }

    /// One stroke for the whole line, so that where segments overlap the alpha is not
    /// applied twice.
    private func drawPath(_ scene: Scene, _ metrics: SceneMetrics) {
        let path = scene.path
        guard let first = path.first else { return }
        let cr = context
        cairo_new_path(cr)
        cairo_move_to(cr, first.x, first.y)
        for point in path.dropFirst() {
            cairo_line_to(cr, point.x, point.y)
        }
        if let finger = scene.finger {
            cairo_line_to(cr, finger.x, finger.y)
        } else if path.count == 1 {
            // A lone move-to strokes nothing; a zero-length segment gets a round dot,
            // which is what Damage.between accounts for.
            cairo_line_to(cr, first.x, first.y)
        }
        setSource(theme.lineColor(for: scene.pathLook), alpha: theme.pathAlpha)
        cairo_set_line_width(cr, metrics.pathWidth)
        cairo_stroke(cr)
    }

    private func drawNodes(_ scene: Scene, _ metrics: SceneMetrics, within area: Rect) {
        let cr = context
        cairo_set_line_width(cr, metrics.ringWidth)
        for node in scene.nodes.indices {
            let center = scene.layout.center(of: node)
            guard metrics.nodeBounds(center: center).intersects(area) else { continue }
            let look = scene.nodes[node]
            if let image = nodeImage(look, metrics) {
                // On whole pixels, so the prepared image is copied, not filtered again.
                let x = (center.x - image.size.width / 2).rounded(), y = (center.y - image.size.height / 2).rounded()
                cairo_set_source_surface(cr, image.surface, x, y)
                cairo_new_path(cr)
                cairo_rectangle(cr, x, y, image.size.width, image.size.height)
                cairo_fill(cr)
                continue
            }
            setSource(theme.color(for: look))
            if let masks = masks(for: metrics) {
                let origin = masks.origin(for: center)
                cairo_mask_surface(cr, look == .idle ? masks.ring : masks.ringAndDot, origin.x, origin.y)
                continue
            }
            cairo_new_path(cr)
            cairo_arc(cr, center.x, center.y, metrics.ringRadius, 0, 2 * Double.pi)
            cairo_close_path(cr)
            cairo_stroke(cr)
            if look != .idle {
                cairo_arc(cr, center.x, center.y, metrics.dotRadius, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
        }
    }

    /// The masks for this node size, made on the first frame of a layout. Should cairo
    /// fail to make them (out of memory), the rings are stroked directly: the same shapes,
    /// placed up to half a pixel differently, and still the same in every square.
    private func masks(for metrics: SceneMetrics) -> NodeMasks? {
        if let nodeMasks, nodeMasks.key == NodeMasks.Key(metrics) { return nodeMasks }
        nodeMasks = try? NodeMasks(for: metrics)
        return nodeMasks
    }

    /// The theme's image for `look` at this layout's node size. Scaling happens on the first
    /// frame of a layout; should it fail (cairo out of memory), the ring is drawn instead.
    private func nodeImage(_ look: NodeLook, _ metrics: SceneMetrics) -> ThemeImages.ScaledImage? {
        try? images.node(look, side: metrics.nodeImageSide.rounded())
    }

    private func drawMessage(_ message: Message, _ metrics: SceneMetrics) {
        guard message != .none else { return }
        let band = metrics.messageBand.integral
        let line = messageLine(for: message, metrics)
        let cr = context
        cairo_save(cr)
        defer { cairo_restore(cr) }
        // The text is fitted inside the band; the clip only guards what Damage.between
        // repaints against a font whose ink reaches beyond its own line height.
        cairo_new_path(cr)
        cairo_rectangle(cr, band.x, band.y, band.width, band.height)
        cairo_clip(cr)
        setSource(line.color)
        line.text.draw(cr, at: line.origin)
    }

    /// How the current message was set, for tests: its font size, lines and characters no
    /// installed font could draw.
    public func messageLayout(for message: Message, in metrics: SceneMetrics) -> (fontSize: Double, lines: Int, missingGlyphs: Int) {
        let line = messageLine(for: message, metrics)
        return (line.text.fontSize, line.text.lineCount, line.text.missingGlyphs)
    }

    private func messageLine(for message: Message, _ metrics: SceneMetrics) -> MessageLine {
        if let line, line.message == message, line.metrics == metrics { return line }
        let made = MessageLine(message: message, metrics: metrics, theme: theme, setter: text)
        line = made
        return made
    }

    private func setSource(_ color: Color, alpha: Double = 1) {
        cairo_set_source_rgba(
            context, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255, alpha)
    }
}

/// A message's words, laid out and placed once per message.
private struct MessageLine {
    /// Leaves a little air at the band's ends and above and below the lines.
    static let widthFraction = 0.92
    static let heightFraction = 0.9

    let message: Message
    let metrics: SceneMetrics
    let text: SetText
    let color: Color
    let origin: Point

    init(message: Message, metrics: SceneMetrics, theme: Theme, setter: TextSetter) {
        self.message = message
        self.metrics = metrics
        let band = metrics.messageBand
        color = theme.textColor(for: message)
        let width = band.width * Self.widthFraction
        text = setter.fit(
            theme.text(for: message), preferred: metrics.fontSize, width: width, height: band.height * Self.heightFraction)
        // Centred on the band; one line of a font keeps its height from message to message,
        // so the words stay put when one message replaces another.
        origin = text.origin(centeredOn: band.center, width: width)
    }
}

/// The font and images of the theme a renderer uses, as `SceneRenderer.prepare` compares a
/// new theme with them.
public struct ThemePreparation: Hashable, Sendable {
    let font: FontChoice
    let fontFallback: Bool
    let hasImages: Bool
}

/// A theme's fonts loaded and images decoded (`SceneRenderer.prepare`), for one renderer to
/// `install`. Made on one thread and handed whole to another, never used by two at once:
/// its fonts and surfaces have no other owner until it is installed.
public final class PreparedTheme: @unchecked Sendable {
    public let theme: Theme
    /// Nil: the font is the one in use.
    fileprivate let text: TextSetter?
    /// Nil: neither theme has images.
    fileprivate let images: ThemeImages?

    fileprivate init(theme: Theme, text: TextSetter?, images: ThemeImages?) {
        self.theme = theme
        self.text = text
        self.images = images
    }
}
