import CCairo
import CPango
import GridlockCore

/// Sets text in a box with Pango: shaped (joined Arabic, Thai marks, CJK), in its own
/// direction (right to left where the text is), each character from the configured font
/// or, where that lacks it, from an installed font that has it.
final class TextSetter {
    /// A long translation shrinks to one line down to this fraction of the preferred size;
    /// below it, wrapping keeps the words larger.
    static let oneLineShrink = 0.75
    /// Smaller than this no text is set; a message that long is the config's mistake, and
    /// it still fits, as dots rather than being cut off.
    static let smallestSize = 3.0

    let fonts: FontLibrary
    private let context: OpaquePointer

    init(fonts: FontLibrary) {
        self.fonts = fonts
        context = pango_font_map_create_context(fonts.fontMap)
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        // Whole-pixel glyph positions, as the toy API had: text does not shimmer as it changes.
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_ON)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit {
        gridlock_object_unref(UnsafeMutableRawPointer(context))
    }

    /// `text` laid out at `preferred` pixels, or smaller, or wrapped, so that it fits `width`
    /// by `height`: one line if it fits or shrinks a little; otherwise wrapped to the width
    /// (between words where the script has them, anywhere else) and shrunk until the lines
    /// fit the height. Never wider or taller than the box, so nothing is cut off.
    func fit(_ text: String, preferred: Double, width: Double, height: Double) -> SetText {
        let layout = pango_layout_new(context)!
        let set = SetText(layout: layout)
        pango_layout_set_text(layout, text, -1)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_width(layout, pangoUnits(width))

        set.setSize(preferred, description: fonts.description)
        if set.lineCount == 1, set.size.height <= height { return set }

        if set.lineCount > 1 {
            pango_layout_set_width(layout, -1)
            let oneLine = preferred * width / set.size.width
            pango_layout_set_width(layout, pangoUnits(width))
            if oneLine >= preferred * Self.oneLineShrink {
                var size = oneLine
                for _ in 0..<8 {
                    set.setSize(size, description: fonts.description)
                    if set.lineCount == 1, set.size.height <= height { return set }
                    size *= 0.97
                }
            }
        }
        var size = preferred
        for _ in 0..<24 {
            set.setSize(size, description: fonts.description)
            let (w, h) = set.size
            if (w <= width && h <= height) || size <= Self.smallestSize { break }
            // Area goes with the square of the size; a step a little past that converges fast.
            size = max(Self.smallestSize, size * min(0.95, (height / h).squareRoot()))
        }
        return set
    }
}

/// One laid-out text; draw it with its top-left at `origin`.
final class SetText {
    let layout: OpaquePointer
    /// The font size it was set at, in pixels.
    private(set) var fontSize = 0.0

    init(layout: OpaquePointer) {
        self.layout = layout
    }

    deinit {
        gridlock_object_unref(UnsafeMutableRawPointer(layout))
    }

    func setSize(_ pixels: Double, description: OpaquePointer) {
        let sized = pango_font_description_copy(description)
        pango_font_description_set_absolute_size(sized, Double(pangoUnits(pixels)))
        pango_layout_set_font_description(layout, sized)
        pango_font_description_free(sized)
        fontSize = pixels
    }

    var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

    /// The logical size (lines' full height, advance widths), in pixels.
    var size: (width: Double, height: Double) {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return (Double(logical.width) / Double(PANGO_SCALE), Double(logical.height) / Double(PANGO_SCALE))
    }

    /// Characters no installed font could draw (shown as boxes with their code).
    var missingGlyphs: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

    /// The top-left corner that centres the text in a box centred on `center` and `width`
    /// wide (the lines are centred across that width), in whole pixels, which keep hinted
    /// glyphs crisp.
    func origin(centeredOn center: Point, width: Double) -> Point {
        Point(x: (center.x - width / 2).rounded(), y: (center.y - size.height / 2).rounded())
    }

    func draw(_ cr: OpaquePointer, at origin: Point) {
        cairo_move_to(cr, origin.x, origin.y)
        pango_cairo_show_layout(cr, layout)
    }
}

private func pangoUnits(_ pixels: Double) -> Int32 {
    Int32((pixels * Double(PANGO_SCALE)).rounded(.down))
}
