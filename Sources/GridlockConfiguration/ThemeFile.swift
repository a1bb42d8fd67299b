import GridlockCore
import GridlockThemeFiles
import LinuxSys

/// What a face drawing the lock in a user session may read: how the lock looks, and nothing
/// that opens it or says what opening it does.
public struct ThemeSettings: Hashable, Sendable {
    public var display: DisplayConfig
    public var grid: GridConfig
    public var theme: Theme
    /// Where gridlockd's session socket is, and when to lock again (`relock-after=`).
    public var session: SessionConfig
    /// The panel's touchscreen (`gridlock-panel`; the Wayland face takes the compositor's).
    public var touch: TouchConfig
    /// How long the looks last, the beeper and the tip's prediction (`gridlock-panel`).
    public var feedback: FeedbackConfig

    /// What a face shows without a theme file: every key at its default.
    public static let defaults = ThemeSettings(
        display: GridlockConfig().display, grid: GridlockConfig().grid, theme: GridlockConfig().theme, session: SessionConfig(),
        touch: GridlockConfig().touch, feedback: GridlockConfig().feedback)
}

/// A presentation-only file: `[theme]`, `[grid]`, `[display]`, `[touch]`, `[feedback]` and
/// `[session]`, read with the daemon's
/// schema and checks, for a process that runs as a user and must never hold a secret. A
/// section or key that would hold one (a `[pattern NAME]`, a hash, `[security]`, `[action]`,
/// an `[on EVENT]` hook) is refused at its FILE:LINE rather than skipped, so a daemon config
/// handed over by mistake fails loudly instead of leaking through a second reader.
public enum ThemeFile {
    package static let presentationSections: Set<String> = ["theme", "grid", "display", "touch", "feedback", "session"]

    /// The settings, or every problem of the file (exit 78 like any config error). `look`:
    /// how the face that draws it judges its font and images (`DecodingLookInspection`).
    public static func load(path: String, look: any LookInspecting) throws(ConfigError) -> ThemeSettings {
        let file = IniReader.read(path: path)
        var refused: [ConfigDiagnostic] = []
        var presentation = IniFile(path: file.path, content: file.content, diagnostics: file.diagnostics)
        for section in file.sections {
            if let reason = refusal(ofSection: section.name) {
                refused.append(ConfigDiagnostic(file: path, line: section.line, message: "[\(section.name)] \(reason)"))
                continue
            }
            var kept = section
            kept.entries = section.entries.filter { entry in
                if section.name == "session", entry.key == "allow-users" || entry.key == "allow-group" {
                    refused.append(ConfigDiagnostic(
                        file: path, line: entry.line,
                        message: "[session] \(entry.key) says whom gridlockd serves: it belongs in gridlockd's configuration, not in a face's theme file"))
                    return false
                }
                guard entry.key == "hash" || entry.value.lowercased().hasPrefix("$argon2") else { return true }
                refused.append(ConfigDiagnostic(
                    file: path, line: entry.line,
                    message: "[\(section.name)] \(entry.key): a pattern's hash has no place in a theme file, which a user session reads; keep it in the daemon's configuration"))
                return false
            }
            presentation.sections.append(kept)
        }

        var assembler = ConfigAssembler(currentDirectory: Directory.current() ?? "/")
        assembler.add(presentation)
        let config = assembler.finish(servesFaces: false)
        var problems = assembler.diagnostics + refused
        if problems.isEmpty {
            problems += NamedFileCheck.problems(config, at: assembler.keyLocations, mainFile: path, sections: presentationSections, look: look)
        }
        guard problems.isEmpty else {
            throw ConfigError(diagnostics: problems.enumerated().sorted {
                ($0.element.location.line, $0.offset) < ($1.element.location.line, $1.offset)
            }.map(\.element))
        }
        return ThemeSettings(display: config.display, grid: config.grid, theme: config.theme, session: config.session,
            touch: config.touch, feedback: config.feedback)
    }

    /// Why a section may not be in a theme file; nil for the presentation sections and for
    /// names the schema does not know (the assembler says those, with the closest name).
    package static func refusal(ofSection header: String) -> String? {
        let word = header.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? header
        let only = "a theme file holds only [theme], [grid], [display], [touch], [feedback] and [session]"
        switch word {
        case "pattern": return "holds a pattern's hash and what it opens: \(only)"
        case "security": return "sets how hashes are checked: \(only)"
        case "action": return "says what an unlock runs: \(only)"
        case "on": return "is a hook that runs commands: \(only)"
        default:
            guard !presentationSections.contains(header), ConfigSchema.section(named: header) != nil else { return nil }
            return "is the daemon's: \(only)"
        }
    }
}

/// A face's one verdict on its file, for `gridlock-lock` and `gridlock-panel` alike: what
/// `gridlock-panel --check-config` says is exactly what decides whether a face starts.
extension ThemeFile {
    /// Where a face looks for its file when none is named.
    public static let defaultPath = "/etc/gridlock/face.conf"

    /// The file named, else `defaultPath` if there is one, else none (the built-in look):
    /// which file that is, and its settings or every problem in it.
    public static func judge(named path: String?, look: any LookInspecting) -> (path: String?, verdict: Result<ThemeSettings, ConfigError>) {
        guard let path = path ?? (PathLookup.exists(defaultPath) ? defaultPath : nil) else { return (nil, .success(.defaults)) }
        do throws(ConfigError) {
            return (path, .success(try load(path: path, look: look)))
        } catch {
            return (path, .failure(error))
        }
    }
}
