import CCairo
import CPango
import GridlockCore
import LinuxSys

/// The fonts messages are set in: the configured family or file first, then whichever
/// installed font has a character it lacks (a Chinese, Thai or Arabic word in a Latin
/// font), through fontconfig and Pango.
///
/// fontconfig's usual start (`FcInit`) parses some forty XML files of the distribution's
/// configuration, several milliseconds that would double gridlockd's start-up. Messages
/// need none of its aliases or preferences, only the installed fonts, so gridlock builds
/// its own configuration: the system's font folders and the cache `fc-cache` keeps for
/// them, made fontconfig's current one before Pango starts, so Pango's own `FcInit` finds
/// a configuration and does nothing.
final class FontLibrary {
    /// Where Debian installs fonts (packages, then the administrator's).
    static let systemFolders = ["/usr/share/fonts", "/usr/local/share/fonts"]
    /// Where `fc-cache` (run by the font packages' triggers) writes its scan of those folders.
    static let cacheFolder = "/var/cache/fontconfig"

    let choice: FontChoice
    /// Pango's lookup for `choice`: the family name, and for a file its own family and style.
    let description: OpaquePointer
    /// Pango's fonts, over `config`; each library has its own, as Pango's objects may be used
    /// from one thread at a time only.
    let fontMap: UnsafeMutablePointer<PangoFontMap>

    /// `fallback: false` leaves out every installed font but a file's own (tests show with
    /// it what the fallback adds); a family needs the installed fonts and ignores it.
    init(_ choice: FontChoice, fallback: Bool = true) throws(RenderError) {
        if let problem = Self.problem(with: choice) {
            switch choice {
            case .file(let path): throw .fontUnloadable(path: path, reason: problem)
            case .family(let name): throw .fontFamilyMissing(name: name, reason: problem)
            }
        }
        _ = Self.systemConfig  // current before Pango's first font map
        let config: OpaquePointer
        switch choice {
        case .family(let name):
            config = Self.systemConfig
            description = pango_font_description_new()
            pango_font_description_set_family(description, name)
        case .file(let path):
            config = Self.makeConfig(folders: fallback ? Self.systemFolders : [])
            // problem(with:) has read it already, so this only fails on a file changed since.
            guard FcConfigAppFontAddFile(config, path) != 0, let pattern = Self.query(path) else {
                FcConfigDestroy(config)
                throw .fontUnloadable(path: path, reason: "fontconfig could not add it")
            }
            description = pango_fc_font_description_from_pattern(pattern, 0)
            FcPatternDestroy(pattern)
        }
        fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)
        // The font map holds its own reference.
        pango_fc_font_map_set_config(gridlock_fc_font_map(fontMap), config)
        if case .file = choice { FcConfigDestroy(config) }
        self.choice = choice
    }

    deinit {
        pango_font_description_free(description)
        gridlock_object_unref(fontMap)
    }

    /// Why `choice` cannot be used, or nil: what the config check reports with the line
    /// of `font=`, and what the renderer refuses.
    static func problem(with choice: FontChoice) -> String? {
        switch choice {
        case .file(let path):
            if let problem = PathLookup.checkReadable(path) { return problem.text }
            if let reason = freeTypeProblem(path) { return reason }
            guard let pattern = query(path) else { return "fontconfig cannot read it as a font" }
            FcPatternDestroy(pattern)
            return nil
        case .family(let name):
            guard !name.isEmpty else { return "expected a font family or a font file, got nothing" }
            guard familyIsInstalled(name) else {
                return "no installed font has this family (fc-list : family lists them; a file needs a slash or an ending such as .ttf)"
            }
            return nil
        }
    }

    /// fontconfig's configuration over the system's fonts, made current once for the whole
    /// process before the first font map (whose `FcInit` then leaves it alone).
    private nonisolated(unsafe) static let systemConfig: OpaquePointer = {
        let config = makeConfig(folders: systemFolders)
        FcConfigSetCurrent(config)
        return config
    }()

    /// A configuration with `folders` and the cache of them, without the distribution's files.
    private static func makeConfig(folders: [String]) -> OpaquePointer {
        // Written by gridlock, so the parse cannot fail on the XML; a missing folder is skipped.
        let xml = "<fontconfig>" + folders.map { "<dir>\($0)</dir>" }.joined()
            + "<cachedir>\(cacheFolder)</cachedir></fontconfig>"
        let config = FcConfigCreate()!
        _ = FcConfigParseAndLoadFromMemory(config, xml, 0)
        _ = FcConfigBuildFonts(config)
        return config
    }

    private static func familyIsInstalled(_ name: String) -> Bool {
        let pattern = FcPatternCreate()
        let objects = FcObjectSetCreate()
        defer {
            FcPatternDestroy(pattern)
            FcObjectSetDestroy(objects)
        }
        _ = FcPatternAddString(pattern, "family", name)
        _ = FcObjectSetAdd(objects, "family")
        guard let fonts = FcFontList(systemConfig, pattern, objects) else { return false }
        defer { FcFontSetDestroy(fonts) }
        return fonts.pointee.nfont > 0
    }

    /// The file's family and style as fontconfig describes them; nil if it is no font.
    private static func query(_ path: String) -> OpaquePointer? {
        var count: Int32 = 0
        return FcFreeTypeQuery(path, 0, nil, &count)
    }
}

/// Why FreeType cannot open `path` as a font, in words; nil if it can. Debian builds
/// FreeType without FT_CONFIG_OPTION_ERROR_STRINGS, so `FT_Error_String` is usually nil and
/// the common cases are spelled out here.
private func freeTypeProblem(_ path: String) -> String? {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else { return "FreeType did not start" }
    defer { FT_Done_FreeType(library) }
    var face: FT_Face?
    let error = FT_New_Face(library, path, 0, &face)
    if error == 0 {
        FT_Done_Face(face)
        return nil
    }
    let code = "FreeType error 0x" + String(error, radix: 16, uppercase: true)
    if let text = FT_Error_String(error) { return "\(String(cString: text)) (\(code))" }
    switch Int(error) {
    case FT_Err_Cannot_Open_Resource: return "cannot open resource (\(code))"
    case FT_Err_Unknown_File_Format: return "unknown file format, not a font FreeType can read (\(code))"
    case FT_Err_Invalid_File_Format: return "broken file (\(code))"
    case FT_Err_Invalid_Table: return "broken table (\(code))"
    case FT_Err_Invalid_Offset: return "broken offset within table (\(code))"
    case FT_Err_Out_Of_Memory: return "out of memory (\(code))"
    default: return code
    }
}

extension FontChoice {
    /// Why the renderer would refuse this font, or nil: the config check's verdict on `font=`.
    public var problem: String? { FontLibrary.problem(with: self) }
}
