import CCairo
import GridlockCore

/// Several frames scaled down into one picture, in a grid, each captioned: a one-page
/// summary of a run (`gridlock demo`) that a person can look over at a glance.
public struct ContactSheet {
    public struct Entry {
        public var frame: ShadowBuffer
        public var caption: String

        public init(frame: ShadowBuffer, caption: String) {
            self.frame = frame
            self.caption = caption
        }
    }

    public var columns: Int
    /// Each frame is scaled, keeping its proportions, to fit a square of this side.
    public var thumbnailSize: Int
    public var font: FontChoice
    public var background: Color
    public var captionColor: Color
    public var borderColor: Color

    static let margin = 16
    static let captionHeight = 28
    static let captionFontSize = 14.0

    public init(
        columns: Int = 3,
        thumbnailSize: Int = 320,
        font: FontChoice = .standard,
        background: Color = Color(red: 0x26, green: 0x2A, blue: 0x30),
        captionColor: Color = Color(red: 0xDD, green: 0xE3, blue: 0xEA),
        borderColor: Color = Color(red: 0x50, green: 0x56, blue: 0x60)
    ) {
        self.columns = columns
        self.thumbnailSize = thumbnailSize
        self.font = font
        self.background = background
        self.captionColor = captionColor
        self.borderColor = borderColor
    }

    /// Where the thumbnail box of entry `index` starts on the sheet (its caption is below it).
    public func cellOrigin(of index: Int) -> (x: Int, y: Int) {
        let columns = max(1, self.columns)
        return (
            x: Self.margin + (index % columns) * (thumbnailSize + Self.margin),
            y: Self.margin + (index / columns) * (thumbnailSize + Self.captionHeight + Self.margin)
        )
    }

    public func compose(_ entries: [Entry]) throws(RenderError) -> ShadowBuffer {
        guard !entries.isEmpty else { throw .noFrames }
        let setter = TextSetter(fonts: try FontLibrary(font))
        let used = min(max(1, columns), entries.count)
        let rows = (entries.count + used - 1) / used
        let sheet = try ShadowBuffer(
            width: Self.margin + used * (thumbnailSize + Self.margin),
            height: Self.margin + rows * (thumbnailSize + Self.captionHeight + Self.margin)
        )
        guard let cr = cairo_create(sheet.surface) else {
            throw .cairo(operation: "create a drawing context", status: "no context")
        }
        defer {
            cairo_destroy(cr)
            cairo_surface_flush(sheet.surface)
        }
        setSource(cr, background)
        cairo_paint(cr)

        for (index, entry) in entries.enumerated() {
            let (x, y) = cellOrigin(of: index)
            drawThumbnail(cr, entry.frame, x: Double(x), y: Double(y))
            drawCaption(cr, setter, entry.caption, x: Double(x), y: Double(y + thumbnailSize))
        }
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .cairo(operation: "draw the contact sheet", status: describe(status))
        }
        return sheet
    }

    private func drawThumbnail(_ cr: OpaquePointer, _ frame: ShadowBuffer, x: Double, y: Double) {
        let box = Double(thumbnailSize)
        let scale = min(box / Double(frame.width), box / Double(frame.height))
        let width = Double(frame.width) * scale, height = Double(frame.height) * scale
        // Standing on the caption, so a landscape frame is not separated from its words.
        let left = (x + (box - width) / 2).rounded(), top = (y + box - height).rounded()

        // A thin border, so a frame whose background matches the sheet's still shows its edges.
        setSource(cr, borderColor)
        cairo_rectangle(cr, left - 1, top - 1, width.rounded() + 2, height.rounded() + 2)
        cairo_fill(cr)

        cairo_save(cr)
        cairo_translate(cr, left, top)
        cairo_scale(cr, scale, scale)
        cairo_surface_flush(frame.surface)
        cairo_set_source_surface(cr, frame.surface, 0, 0)
        // Thumbnails shrink frames several times; the default filter would drop thin lines.
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        // Filtering near the edge would otherwise mix in transparent black from outside the frame.
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_rectangle(cr, 0, 0, Double(frame.width), Double(frame.height))
        cairo_fill(cr)
        cairo_restore(cr)
    }

    private func drawCaption(_ cr: OpaquePointer, _ setter: TextSetter, _ caption: String, x: Double, y: Double) {
        let box = Double(thumbnailSize), height = Double(Self.captionHeight)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, x, y, box, height)
        cairo_clip(cr)
        let text = setter.fit(caption, preferred: Self.captionFontSize, width: box, height: height)
        setSource(cr, captionColor)
        text.draw(cr, at: text.origin(centeredOn: Point(x: x + box / 2, y: y + height / 2), width: box))
    }

    private func setSource(_ cr: OpaquePointer, _ color: Color) {
        cairo_set_source_rgb(cr, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
    }
}
