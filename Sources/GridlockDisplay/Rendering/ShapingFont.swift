import CCairo
import CHarfBuzz

/// One font file, opened for shaping (HarfBuzz, in font units) and for drawing (cairo over
/// FreeType).
///
/// Each face gets its own FreeType library, handed to cairo as user data so the library
/// (and with it the FT_Face) is freed only when cairo drops its last reference: cairo
/// keeps font faces in caches beyond our own reference, so freeing the FT_Face in our
/// deinit could leave cairo holding a dangling face.
final class ShapingFont {
    let file: String
    let cairoFace: OpaquePointer
    /// HarfBuzz's font at a scale of one unit per font unit, so shaping is done once per
    /// text and every size is a multiplication.
    let shaper: OpaquePointer
    let unitsPerEm: Double
    /// Above and below the baseline, in ems (both positive).
    let ascent: Double
    let descent: Double

    init(file: String, index: Int32) throws(RenderError) {
        var library: FT_Library?
        let initError = FT_Init_FreeType(&library)
        guard initError == 0, let library else {
            throw .fontUnloadable(path: file, reason: "FreeType did not start: \(freeTypeReason(initError, path: file))")
        }
        var face: FT_Face?
        let faceError = FT_New_Face(library, file, FT_Long(index), &face)
        guard faceError == 0, let face else {
            FT_Done_FreeType(library)
            throw .fontUnloadable(path: file, reason: freeTypeReason(faceError, path: file))
        }
        guard let cairoFace = cairo_ft_font_face_create_for_ft_face(face, 0) else {
            FT_Done_FreeType(library)
            throw .fontUnloadable(path: file, reason: "cairo could not wrap the FreeType face")
        }
        let status = cairo_font_face_set_user_data(cairoFace, freeTypeLibraryKey, UnsafeMutableRawPointer(library)) {
            FT_Done_FreeType(OpaquePointer($0))
        }
        guard status == CAIRO_STATUS_SUCCESS, cairo_font_face_status(cairoFace) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(cairoFace)
            FT_Done_FreeType(library)
            throw .fontUnloadable(path: file, reason: "cairo could not wrap the FreeType face: \(describe(status))")
        }

        let blob = hb_blob_create_from_file(file)
        let hbFace = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        let units = hb_face_get_upem(hbFace)
        let shaper = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        hb_font_set_scale(shaper, Int32(units), Int32(units))
        var extents = hb_font_extents_t()
        _ = hb_font_get_h_extents(shaper, &extents)

        self.file = file
        self.cairoFace = cairoFace
        self.shaper = shaper
        unitsPerEm = Double(max(units, 1))
        ascent = Double(extents.ascender) / unitsPerEm
        descent = Double(-extents.descender) / unitsPerEm
    }

    deinit {
        hb_font_destroy(shaper)
        cairo_font_face_destroy(cairoFace)
    }

    func covers(_ scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(shaper, scalar, &glyph) != 0
    }
}

/// Only its address matters: it tells cairo which user data slot holds the library.
private nonisolated(unsafe) let freeTypeLibraryKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)
