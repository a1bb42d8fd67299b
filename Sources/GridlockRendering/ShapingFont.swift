import CCairo
import CHarfBuzz
import GridlockThemeFiles
import LinuxSys

/// One font file, opened for shaping (HarfBuzz, in font units) and for drawing (cairo over
/// FreeType).
///
/// The file is mapped once, the bounded way (`FileMapping`: a FIFO or a device named as a
/// font is refused at once instead of blocking in open(2)), and FreeType and HarfBuzz both
/// read that mapping: neither opens the path again, so what was checked is what is drawn.
///
/// Each face gets its own FreeType library, handed to cairo as user data together with
/// the mapping, so both are freed only when cairo drops its last reference: cairo keeps
/// font faces in caches beyond our own reference, so freeing the FT_Face in our deinit
/// could leave cairo holding a dangling face.
final class ShapingFont {
    static let largestFile = FontFileLimits.largestFile

    let file: String
    let cairoFace: OpaquePointer
    /// FreeType's face, alive as long as `cairoFace`: what fontconfig describes the file from.
    let freeTypeFace: FT_Face
    /// HarfBuzz's font at a scale of one unit per font unit, so shaping is done once per
    /// text and every size is a multiplication.
    let shaper: OpaquePointer
    let unitsPerEm: Double
    /// Above and below the baseline, in ems (both positive).
    let ascent: Double
    let descent: Double

    init(file: String, index: Int32) throws(RenderError) {
        let mapping: FileMapping
        do {
            mapping = try FileMapping(regularFile: file, limit: Self.largestFile)
        } catch {
            throw .fontUnloadable(path: file, reason: error.reason)
        }
        var library: FT_Library?
        let initError = FT_Init_FreeType(&library)
        guard initError == 0, let library else {
            throw .fontUnloadable(path: file, reason: "FreeType did not start: \(freeTypeReason(initError))")
        }
        // Owns the library and the mapping from here on; the library frees the face.
        let freeType = FreeTypeFile(library: library, mapping: mapping)
        var face: FT_Face?
        var faceError = FT_New_Memory_Face(
            library, mapping.base.assumingMemoryBound(to: FT_Byte.self), FT_Long(mapping.count), FT_Long(index), &face)
        // A file no driver recognises ends, from memory, in the last driver's read past its
        // end; from a path FreeType says "unknown file format". The same file, the same words.
        if Int(faceError) == FT_Err_Invalid_Stream_Operation { faceError = FT_Error(FT_Err_Unknown_File_Format) }
        guard faceError == 0, let face else { throw .fontUnloadable(path: file, reason: freeTypeReason(faceError)) }
        guard let cairoFace = cairo_ft_font_face_create_for_ft_face(face, 0) else {
            throw .fontUnloadable(path: file, reason: "cairo could not wrap the FreeType face")
        }
        let hold = Unmanaged.passRetained(freeType)
        let status = cairo_font_face_set_user_data(cairoFace, freeTypeLibraryKey, hold.toOpaque()) {
            Unmanaged<FreeTypeFile>.fromOpaque($0!).release()
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            // cairo keeps no destroy function it could not store.
            hold.release()
            cairo_font_face_destroy(cairoFace)
            throw .fontUnloadable(path: file, reason: "cairo could not wrap the FreeType face: \(describe(status))")
        }
        guard cairo_font_face_status(cairoFace) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(cairoFace)
            throw .fontUnloadable(path: file, reason: "cairo could not wrap the FreeType face: \(describe(cairo_font_face_status(cairoFace)))")
        }

        let blob = hb_blob_create(
            mapping.base.assumingMemoryBound(to: CChar.self), UInt32(mapping.count), HB_MEMORY_MODE_READONLY,
            Unmanaged.passRetained(mapping).toOpaque()
        ) { Unmanaged<FileMapping>.fromOpaque($0!).release() }
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
        freeTypeFace = face
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

/// A FreeType library and the mapped file its face reads: freed together, library first.
private final class FreeTypeFile {
    let library: FT_Library
    let mapping: FileMapping

    init(library: FT_Library, mapping: FileMapping) {
        self.library = library
        self.mapping = mapping
    }

    deinit { FT_Done_FreeType(library) }
}

/// Only its address matters: it tells cairo which user data slot holds the library.
private nonisolated(unsafe) let freeTypeLibraryKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)
