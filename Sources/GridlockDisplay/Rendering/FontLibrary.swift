import CCairo
import CHarfBuzz
import GridlockCore
import LinuxSys

/// The fonts messages are set in: the configured family or file first, then, for each
/// character it lacks (a Chinese, Thai or Arabic word in a Latin font), the installed font
/// fontconfig ranks next that has it.
///
/// fontconfig's usual start (`FcInit`) parses some forty XML files of the distribution's
/// configuration, several milliseconds that would double gridlockd's start-up. Messages
/// need none of its aliases or preferences, only the installed fonts, so gridlock builds
/// its own configuration: the system's font folders and the cache `fc-cache` keeps for
/// them (about 0.2 ms).
final class FontLibrary {
    /// Where Debian installs fonts (packages, then the administrator's).
    static let systemFolders = ["/usr/share/fonts", "/usr/local/share/fonts"]
    /// Where `fc-cache` (run by the font packages' triggers) writes its scan of those folders.
    static let cacheFolder = "/var/cache/fontconfig"

    let choice: FontChoice
    /// The configured font, then the fallbacks opened so far.
    private(set) var fonts: [ShapingFont]
    /// Installed fonts in fontconfig's order for the choice, with what each covers; only
    /// looked at for a character the configured font lacks, and opened when first used.
    private var candidates: [(file: String, index: Int32, charset: OpaquePointer)]?
    private var candidateFonts: [Int: Int] = [:]
    private let fallback: Bool
    /// The pattern fontconfig ranks the fallbacks against (the choice's family and style).
    private let pattern: OpaquePointer

    /// `fallback: false` uses the configured font alone (tests show with it what the
    /// fallback adds).
    init(_ choice: FontChoice, fallback: Bool = true) throws(RenderError) {
        let file: String, index: Int32
        switch choice {
        case .family(let name):
            pattern = FcPatternCreate()
            _ = FcPatternAddString(pattern, "family", name)
            guard !name.isEmpty, let match = Self.match(pattern) else {
                FcPatternDestroy(pattern)
                throw .fontFamilyMissing(name: name, reason: Self.problem(with: choice) ?? "fontconfig matched no file")
            }
            (file, index) = match
        case .file(let path):
            if let problem = Self.problem(with: choice) { throw .fontUnloadable(path: path, reason: problem) }
            guard let query = Self.query(path) else {
                throw .fontUnloadable(path: path, reason: "fontconfig cannot read it as a font")
            }
            pattern = query
            (file, index) = (path, 0)
        }
        do {
            fonts = [try ShapingFont(file: file, index: index)]
        } catch {
            FcPatternDestroy(pattern)
            throw error
        }
        self.choice = choice
        self.fallback = fallback
    }

    deinit {
        FcPatternDestroy(pattern)
        for candidate in candidates ?? [] { FcCharSetDestroy(candidate.charset) }
    }

    /// The font (an index into `fonts`) to draw `scalar` with: the configured font if it has
    /// it, else the first installed font in fontconfig's order that has it, else the
    /// configured font, which draws its missing-glyph box.
    func font(for scalar: UInt32) -> Int {
        if fonts[0].covers(scalar) || !fallback { return 0 }
        if candidates == nil { candidates = Self.sorted(pattern) }
        for (position, candidate) in (candidates ?? []).enumerated() where FcCharSetHasChar(candidate.charset, scalar) != 0 {
            if let opened = candidateFonts[position] { return opened }
            guard let font = try? ShapingFont(file: candidate.file, index: candidate.index), font.covers(scalar) else { continue }
            fonts.append(font)
            candidateFonts[position] = fonts.count - 1
            return fonts.count - 1
        }
        return 0
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

    /// fontconfig's configuration over the system's fonts, built once for the process and
    /// only read afterwards.
    private nonisolated(unsafe) static let systemConfig: OpaquePointer = {
        // Written here, so the parse cannot fail on the XML; a missing folder is skipped.
        let xml = "<fontconfig>" + systemFolders.map { "<dir>\($0)</dir>" }.joined()
            + "<cachedir>\(cacheFolder)</cachedir></fontconfig>"
        let config = FcConfigCreate()!
        _ = FcConfigParseAndLoadFromMemory(config, xml, 0)
        _ = FcConfigBuildFonts(config)
        return config
    }()

    private static func familyIsInstalled(_ name: String) -> Bool {
        let pattern: OpaquePointer = FcPatternCreate()
        defer { FcPatternDestroy(pattern) }
        _ = FcPatternAddString(pattern, "family", name)
        return match(pattern) != nil
    }

    /// The best installed file for `pattern` (its family and style); nil if no installed
    /// font has its family (fontconfig would otherwise answer with any font at all).
    private static func match(_ pattern: OpaquePointer) -> (String, Int32)? {
        guard let prepared = FcPatternDuplicate(pattern) else { return nil }
        defer { FcPatternDestroy(prepared) }
        _ = FcConfigSubstitute(systemConfig, prepared, FcMatchPattern)
        FcDefaultSubstitute(prepared)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(systemConfig, prepared, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var wanted: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, "family", 0, &wanted) == FcResultMatch, let wanted else { return fileAndIndex(match) }
        var family: UnsafeMutablePointer<FcChar8>?
        var position: Int32 = 0
        // A font lists its family in several languages (文泉驿微米黑, WenQuanYi Micro Hei).
        while FcPatternGetString(match, "family", position, &family) == FcResultMatch, let family {
            if FcStrCmpIgnoreCase(family, wanted) == 0 { return fileAndIndex(match) }
            position += 1
        }
        return nil
    }

    /// Every installed font, best for `pattern` first, each with the characters it has.
    private static func sorted(_ pattern: OpaquePointer) -> [(file: String, index: Int32, charset: OpaquePointer)] {
        guard let prepared = FcPatternDuplicate(pattern) else { return [] }
        defer { FcPatternDestroy(prepared) }
        _ = FcConfigSubstitute(systemConfig, prepared, FcMatchPattern)
        FcDefaultSubstitute(prepared)
        var result = FcResultNoMatch
        guard let set = FcFontSort(systemConfig, prepared, 1, nil, &result) else { return [] }
        defer { FcFontSetDestroy(set) }
        var sorted: [(file: String, index: Int32, charset: OpaquePointer)] = []
        for position in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[position], let (file, index) = fileAndIndex(font) else { continue }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(font, "charset", 0, &charset) == FcResultMatch, let charset,
                  let copy = FcCharSetCopy(charset) else { continue }
            sorted.append((file, index, copy))
        }
        return sorted
    }

    private static func fileAndIndex(_ pattern: OpaquePointer) -> (String, Int32)? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, "file", 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(pattern, "index", 0, &index)
        return (String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), index)
    }

    /// The file's family and style as fontconfig describes them; nil if it is no font.
    private static func query(_ path: String) -> OpaquePointer? {
        var count: Int32 = 0
        return FcFreeTypeQuery(path, 0, nil, &count)
    }
}

extension FontChoice {
    /// Why the renderer would refuse this font, or nil: the config check's verdict on `font=`.
    public var problem: String? { FontLibrary.problem(with: self) }
}

/// Why FreeType cannot open `path` as a font, in words; nil if it can.
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
    return freeTypeReason(error, path: path)
}

/// FreeType's error in words. Debian builds FreeType without FT_CONFIG_OPTION_ERROR_STRINGS,
/// so `FT_Error_String` is usually nil and the common cases are spelled out here; for a
/// file that cannot be opened the system's reason (missing, permission) says more.
func freeTypeReason(_ error: FT_Error, path: String) -> String {
    let code = "FreeType error 0x" + String(error, radix: 16, uppercase: true)
    if let text = FT_Error_String(error) { return "\(String(cString: text)) (\(code))" }
    switch Int(error) {
    case FT_Err_Cannot_Open_Resource:
        if let problem = PathLookup.checkReadable(path) { return "cannot open resource: \(problem.text) (\(code))" }
        return "cannot open resource (\(code))"
    case FT_Err_Unknown_File_Format: return "unknown file format, not a font FreeType can read (\(code))"
    case FT_Err_Invalid_File_Format: return "broken file (\(code))"
    case FT_Err_Invalid_Table: return "broken table (\(code))"
    case FT_Err_Invalid_Offset: return "broken offset within table (\(code))"
    case FT_Err_Out_Of_Memory: return "out of memory (\(code))"
    default: return code
    }
}
