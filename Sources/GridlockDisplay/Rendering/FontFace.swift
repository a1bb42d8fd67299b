import CCairo
import LinuxSys

/// A font file loaded once through FreeType and wrapped as a cairo font face.
///
/// Each face gets its own FreeType library, handed to cairo as user data so the
/// library (and with it the FT_Face) is freed only when cairo drops its last
/// reference: cairo keeps font faces in caches beyond our own reference, so freeing
/// the FT_Face in our deinit could leave cairo holding a dangling face.
final class FontFace {
    let path: String
    let cairoFace: OpaquePointer

    init(path: String) throws(RenderError) {
        var library: FT_Library?
        let initError = FT_Init_FreeType(&library)
        guard initError == 0, let library else {
            throw .fontUnloadable(path: path, reason: "FreeType did not start: \(freeTypeReason(initError, path: path))")
        }
        var face: FT_Face?
        let faceError = FT_New_Face(library, path, 0, &face)
        guard faceError == 0, let face else {
            FT_Done_FreeType(library)
            throw .fontUnloadable(path: path, reason: freeTypeReason(faceError, path: path))
        }
        guard let cairoFace = cairo_ft_font_face_create_for_ft_face(face, 0) else {
            FT_Done_FreeType(library)
            throw .fontUnloadable(path: path, reason: "cairo could not wrap the FreeType face")
        }
        let status = cairo_font_face_set_user_data(cairoFace, freeTypeLibraryKey, UnsafeMutableRawPointer(library)) {
            FT_Done_FreeType(OpaquePointer($0))
        }
        guard status == CAIRO_STATUS_SUCCESS, cairo_font_face_status(cairoFace) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(cairoFace)
            FT_Done_FreeType(library)
            throw .fontUnloadable(path: path, reason: "cairo could not wrap the FreeType face: \(describe(status))")
        }
        self.path = path
        self.cairoFace = cairoFace
    }

    deinit {
        cairo_font_face_destroy(cairoFace)
    }
}

/// Only its address matters: it tells cairo which user data slot holds the library.
private nonisolated(unsafe) let freeTypeLibraryKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

/// FreeType's error in words. Debian builds FreeType without FT_CONFIG_OPTION_ERROR_STRINGS,
/// so `FT_Error_String` is usually nil and the common cases are spelled out here; for a
/// file that cannot be opened the system's reason (missing, permission) says more.
private func freeTypeReason(_ error: FT_Error, path: String) -> String {
    let code = "FreeType error 0x" + String(error, radix: 16, uppercase: true)
    if let text = FT_Error_String(error) {
        return "\(String(cString: text)) (\(code))"
    }
    switch Int(error) {
    case FT_Err_Cannot_Open_Resource:
        if let problem = PathLookup.checkReadable(path) {
            return "cannot open resource: \(problem.text) (\(code))"
        }
        return "cannot open resource (\(code))"
    case FT_Err_Unknown_File_Format: return "unknown file format, not a font FreeType can read (\(code))"
    case FT_Err_Invalid_File_Format: return "broken file (\(code))"
    case FT_Err_Invalid_Table: return "broken table (\(code))"
    case FT_Err_Invalid_Offset: return "broken offset within table (\(code))"
    case FT_Err_Out_Of_Memory: return "out of memory (\(code))"
    default: return code
    }
}
