import CCairo

/// Sets `cr`'s font size to `preferred`, or smaller so that `text` fits `width`, and
/// returns the size with the text's and the font's extents at that size.
func fitText(
    _ cr: OpaquePointer, _ text: UnsafePointer<CChar>, preferred: Double, width: Double
) -> (size: Double, text: cairo_text_extents_t, font: cairo_font_extents_t) {
    var size = preferred
    var extents = cairo_text_extents_t()
    cairo_set_font_size(cr, size)
    cairo_text_extents(cr, text, &extents)
    if extents.x_advance > width {
        size *= width / extents.x_advance
        cairo_set_font_size(cr, size)
        cairo_text_extents(cr, text, &extents)
    }
    var font = cairo_font_extents_t()
    cairo_font_extents(cr, &font)
    return (size, extents, font)
}
