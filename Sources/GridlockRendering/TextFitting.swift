import CCairo
import GridlockCore

/// Sets text in a box: shaped and ordered by `ShapedParagraph`, then sized and broken into
/// lines so that it fits.
final class TextSetter {
    /// A long translation shrinks to one line down to this fraction of the preferred size;
    /// below it, wrapping keeps the words larger.
    static let oneLineShrink = 0.75
    /// Smaller than this no text is set; a message that long is the config's mistake, and
    /// it still fits, as specks rather than being cut off.
    static let smallestSize = 3.0

    let fonts: FontLibrary

    init(fonts: FontLibrary) {
        self.fonts = fonts
    }

    /// `text` laid out at `preferred` pixels, or smaller, or wrapped, so that it fits `width`
    /// by `height`: one line if it fits or shrinks a little; otherwise wrapped to the width
    /// and shrunk until the lines fit the height. Never wider or taller than the box, so
    /// nothing is cut off.
    func fit(_ text: String, preferred: Double, width: Double, height: Double) -> SetText {
        let paragraph = ShapedParagraph(text, fonts: fonts)
        func set(_ size: Double) -> SetText { SetText(paragraph, fonts: fonts, size: size, width: width) }

        let natural = set(preferred)
        if natural.lineCount <= 1, natural.fits(height: height) { return natural }
        if natural.lineCount > 1, paragraph.width > 0 {
            let oneLine = width / paragraph.width
            if oneLine >= preferred * Self.oneLineShrink {
                let shrunk = set(oneLine * 0.999)
                if shrunk.lineCount == 1, shrunk.fits(height: height) { return shrunk }
            }
        }
        var size = preferred
        var fitted = natural
        for _ in 0..<32 {
            if fitted.fits(height: height) || size <= Self.smallestSize { break }
            // Area goes with the square of the size; a step a little past that converges fast.
            size = max(Self.smallestSize, size * min(0.95, (height / fitted.size.height).squareRoot()))
            fitted = set(size)
        }
        return fitted
    }
}

/// One laid-out text; draw it with its top-left at `origin`.
final class SetText {
    private let paragraph: ShapedParagraph
    private let fonts: FontLibrary
    /// The font size it was set at, in pixels.
    let fontSize: Double
    /// The width it was set for; each line is centred across it.
    let boxWidth: Double
    private let lines: [Range<Int>]
    /// Each line's ascent and descent in pixels, from the fonts it uses.
    private let lineMetrics: [(ascent: Double, descent: Double)]

    init(_ paragraph: ShapedParagraph, fonts: FontLibrary, size: Double, width: Double) {
        self.paragraph = paragraph
        self.fonts = fonts
        fontSize = size
        boxWidth = width
        lines = paragraph.lines(maxWidth: width / size)
        lineMetrics = lines.map { line in
            let used = Set(paragraph.runs.filter { $0.range.overlaps(line) }.map(\.font))
            let faces = used.isEmpty ? [fonts.fonts[0]] : used.map { fonts.fonts[$0] }
            return (faces.map(\.ascent).max()! * size, faces.map(\.descent).max()! * size)
        }
    }

    var lineCount: Int { lines.count }

    /// The widest line and the lines' full height, in pixels.
    var size: (width: Double, height: Double) {
        (lines.map { paragraph.width(of: $0) * fontSize }.max() ?? 0, lineMetrics.reduce(0) { $0 + $1.ascent + $1.descent })
    }

    func fits(height: Double) -> Bool {
        let (width, total) = size
        return width <= boxWidth && total <= height
    }

    /// Characters no installed font could draw (shown as boxes).
    var missingGlyphs: Int { paragraph.missingGlyphs }

    /// The top-left corner that centres the text in a box centred on `center` and `width`
    /// wide, in whole pixels.
    func origin(centeredOn center: Point, width: Double) -> Point {
        Point(x: (center.x - width / 2).rounded(), y: (center.y - size.height / 2).rounded())
    }

    func draw(_ cr: OpaquePointer, at origin: Point) {
        cairo_set_font_options(cr, textOptions)
        var top = origin.y
        for (line, metrics) in zip(lines, lineMetrics) {
            var x = origin.x + (boxWidth - paragraph.width(of: line) * fontSize) / 2
            // Whole-pixel baselines keep hinted glyphs crisp.
            let baseline = (top + metrics.ascent).rounded()
            for piece in paragraph.pieces(of: line) {
                var glyphs: [cairo_glyph_t] = []
                glyphs.reserveCapacity(piece.glyphs.count)
                for glyph in piece.glyphs {
                    glyphs.append(cairo_glyph_t(
                        index: UInt(glyph.id), x: x + glyph.dx * fontSize, y: baseline - glyph.dy * fontSize))
                    x += glyph.advance * fontSize
                }
                cairo_set_font_face(cr, fonts.fonts[paragraph.runs[piece.run].font].cairoFace)
                cairo_set_font_size(cr, fontSize)
                cairo_show_glyphs(cr, glyphs, Int32(glyphs.count))
            }
            top += metrics.ascent + metrics.descent
        }
    }
}

/// Glyphs go where HarfBuzz put them (unhinted advances), in grey antialiasing.
private nonisolated(unsafe) let textOptions: OpaquePointer = {
    let options = cairo_font_options_create()!
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    return options
}()
