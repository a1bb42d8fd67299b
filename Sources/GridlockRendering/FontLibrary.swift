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
        switch choice {
        case .family(let name):
            let pattern: OpaquePointer = FcPatternCreate()
            _ = FcPatternAddString(pattern, "family", name)
            guard !name.isEmpty, let (file, index) = Self.match(pattern) else {
                FcPatternDestroy(pattern)
                throw .fontFamilyMissing(name: name, reason: Self.problem(with: choice) ?? "fontconfig matched no file")
            }
            do {
                fonts = [try ShapingFont(file: file, index: index)]
            } catch {
                FcPatternDestroy(pattern)
                throw error
            }
            self.pattern = pattern
        case .file(let path):
            let font = try ShapingFont(file: path, index: 0)
            // Described from the face already open: fontconfig does not open the path again.
            guard let query = FcFreeTypeQueryFace(font.freeTypeFace, path, 0, nil) else {
                throw .fontUnloadable(path: path, reason: "fontconfig cannot read it as a font")
            }
            fonts = [font]
            pattern = query
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
    /// of `font=`, and what the renderer refuses. A file is opened as the renderer opens
    /// it (mapped the bounded way, a FreeType face, fontconfig's description of that face).
    static func problem(with choice: FontChoice) -> String? {
        switch choice {
        case .file:
            do throws(RenderError) {
                _ = try FontLibrary(choice, fallback: false)
                return nil
            } catch {
                if case .fontUnloadable(_, let reason) = error { return reason }
                return "\(error)"
            }
        case .family(let name):
            guard !name.isEmpty else { return "expected a font family or a font file, got nothing" }
            guard familyIsInstalled(name) else {
                return "no installed font has this family (fc-list : family lists them; a file needs a slash or an ending such as .ttf)"
            }
            return nil
        }
    }

    /// The configuration fontconfig is given: the system's font folders, the cache
    /// `fc-cache` keeps for them, and a cache folder of this program's own when systemd gave
    /// it one (`CacheDirectory=`, said in `$CACHE_DIRECTORY`). Under `ProtectSystem=strict`
    /// the system's is read-only: when a font folder changed since `fc-cache` ran, fontconfig
    /// scans it and writes its scan to the first folder it may write, and without one it says
    /// "No writable cache directories" at every start. A folder named with a character XML
    /// would read otherwise is left out; of several, the first named is taken.
    static func configuration(cacheDirectory: String?) -> String {
        var cacheFolders = [cacheFolder]
        if let own = cacheDirectory?.split(separator: ":").first, own.hasPrefix("/"),
           !own.contains(where: { "<>&\"'".contains($0) }) {
            cacheFolders.append("\(own)/fontconfig")
        }
        return "<fontconfig>" + systemFolders.map { "<dir>\($0)</dir>" }.joined()
            + cacheFolders.map { "<cachedir>\($0)</cachedir>" }.joined() + "</fontconfig>"
    }

    /// fontconfig's configuration over the system's fonts, built once for the process and
    /// only read afterwards.
    private nonisolated(unsafe) static let systemConfig: OpaquePointer = {
        // Written here, so the parse cannot fail on the XML; a missing folder is skipped.
        let xml = configuration(cacheDirectory: ProcessEnvironment.value("CACHE_DIRECTORY"))
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
}

/// FreeType's error in words. Debian builds FreeType without FT_CONFIG_OPTION_ERROR_STRINGS,
/// so `FT_Error_String` is usually nil and the common cases are spelled out here.
func freeTypeReason(_ error: FT_Error) -> String {
    let code = "FreeType error 0x" + String(error, radix: 16, uppercase: true)
    if let text = FT_Error_String(error) { return "\(String(cString: text)) (\(code))" }
    switch Int(error) {
    case FT_Err_Unknown_File_Format: return "unknown file format, not a font FreeType can read (\(code))"
    case FT_Err_Invalid_File_Format: return "broken file (\(code))"
    case FT_Err_Invalid_Table: return "broken table (\(code))"
    case FT_Err_Invalid_Offset: return "broken offset within table (\(code))"
    case FT_Err_Invalid_Argument: return "no face at that index (\(code))"
    case FT_Err_Out_Of_Memory: return "out of memory (\(code))"
    default: return code
    }
}
