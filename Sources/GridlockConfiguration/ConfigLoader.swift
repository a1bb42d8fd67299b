import LinuxSys

/// A configuration that passed the verdict (every check, or every one but the owners and
/// modes: `ConfigVerdict`'s two doors), and the files it was made from (for logs and
/// `gridlock check-config`).
public struct LoadedConfig: Hashable, Sendable {
    public var config: GridlockConfig
    /// The main file, then the drop-ins in the order they were applied.
    public var files: [String]
    /// Worth logging, not worth refusing the configuration for.
    public var warnings: [ConfigDiagnostic]

    public init(config: GridlockConfig, files: [String], warnings: [ConfigDiagnostic] = []) {
        self.config = config
        self.files = files
        self.warnings = warnings
    }
}

/// What `gridlock check-config` reports: every file looked at and every problem, without
/// anything thrown, so a tool can print both.
public struct ConfigCheck: Hashable, Sendable {
    public var files: [String]
    public var diagnostics: [ConfigDiagnostic]
    public var warnings: [ConfigDiagnostic]
    /// Each file's content as it was read (for the verdict's snapshot).
    package var contents: [String: FileContentDigest] = [:]
    /// Where the value in effect of each `section.key` was written (for the verdict's
    /// checks of the files the values name); a key left at its default has none.
    package var keyLocations: [String: SourceLocation] = [:]

    public init(files: [String], diagnostics: [ConfigDiagnostic], warnings: [ConfigDiagnostic] = []) {
        self.files = files
        self.diagnostics = diagnostics
        self.warnings = warnings
    }

    public var isValid: Bool { diagnostics.isEmpty }
}

/// Reads the main file and its drop-ins, and either returns a complete configuration or
/// throws every problem found: nothing is ever half-applied, which is what lets a SIGHUP
/// reload keep the running config when the new one is bad. This is only the text's part of
/// the verdict, so it is internal: every tool gets its configuration through
/// `ConfigVerdict`, which adds the snapshot, the files' owners and modes and the files a
/// config names. Outside `ConfigVerdict` only tests of the text call it.
package enum ConfigLoader {
    package static func load(path: String) throws(ConfigError) -> LoadedConfig {
        let (config, check) = run(path: path)
        guard check.isValid else { throw ConfigError(diagnostics: check.diagnostics) }
        return LoadedConfig(config: config, files: check.files, warnings: check.warnings)
    }

    /// Every check of `load`, with the outcome returned instead of thrown.
    package static func validateOnly(path: String) -> ConfigCheck {
        run(path: path).check
    }

    /// The config as far as it could be read, and every problem of its text.
    package static func run(path: String, standIn: DropInStandIn? = nil) -> (GridlockConfig, check: ConfigCheck) {
        var files = [path]
        var extraDiagnostics: [ConfigDiagnostic] = []
        let directory = ConfigPaths.dropInDirectory(of: path)
        do {
            files = try ConfigPaths.files(of: path, standIn: standIn)
        } catch {
            extraDiagnostics.append(ConfigDiagnostic(file: directory, line: 0, message: "cannot list drop-ins: \(error.errno.text)"))
        }

        let cwd = Directory.current() ?? "/"
        var assembler = ConfigAssembler(currentDirectory: cwd)
        var contents: [String: FileContentDigest] = [:]
        for file in files {
            let ini = IniReader.read(path: file)
            contents[file] = ini.content
            assembler.add(ini)
        }
        let config = assembler.finish()

        // Files in reading order, lines in order within a file: the order a person fixes them in.
        let rank = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let diagnostics = (assembler.diagnostics + extraDiagnostics).enumerated().sorted { a, b in
            let ka = (rank[a.element.location.file] ?? files.count, a.element.location.line, a.offset)
            let kb = (rank[b.element.location.file] ?? files.count, b.element.location.line, b.offset)
            return ka < kb
        }.map(\.element)
        var check = ConfigCheck(files: files, diagnostics: diagnostics, warnings: assembler.warnings)
        check.contents = contents
        check.keyLocations = assembler.keyLocations
        return (config, check)
    }
}
