import GridlockConfiguration
import GridlockCore
import LinuxSys

/// Storing an enrolled pattern: a drop-in `<config>.d/50-NAME.conf` holding only its
/// `[pattern NAME]` section, mode 0600. It is written under a temporary name in the drop-in
/// folder first, the whole configuration is judged with it in place by the one verdict
/// gridlockd uses, and it is renamed into place only if that passes and the file reads back
/// as exactly the pattern asked for; otherwise nothing is written.
public enum Enrollment {
    /// The config's rule for pattern names (`[A-Za-z0-9_.-]{1,64}`): no `/`, so the
    /// drop-in `50-NAME.conf` stays inside the drop-in folder.
    public static func isValidName(_ name: String) -> Bool { ConfigValues.isPatternName(name) }

    /// A `[pattern]` key's value judged as it will be read from the drop-in: the line
    /// `key=value` must read back as exactly `value` (`IniValueCheck`), and the loader must
    /// take it, so `gridlock enroll --valid ...` is refused before anyone draws anything.
    public static func checkPatternKey(_ key: String, _ value: String) throws(PatternKeyProblem) {
        if let problem = IniValueCheck.problem(key: key, value: value) { throw PatternKeyProblem(problem.description) }
        guard let entry = ConfigSchema.pattern.key(named: key) else { throw PatternKeyProblem("[pattern] has no key \(key)") }
        var draft = PatternDraft()
        do throws(ValueProblem) {
            try entry.store(&draft, value, ValueSource(file: "", currentDirectory: "/"))
        } catch {
            throw PatternKeyProblem(error.message)
        }
    }

    public static func dropInPath(configPath: String, name: String) -> String {
        "\(configPath).d/\(dropInName(name))"
    }

    static func dropInName(_ name: String) -> String { "50-\(name).conf" }

    /// The `key=value` lines of the section, in the order they are written; `keys` are further
    /// lines (`uses=1`, `valid=...`).
    static func sectionLines(hash: String, exec: String?, grid: GridShape, keys: [(String, String)]) -> [(key: String, value: String)] {
        [("grid", "\(grid)"), ("hash", hash)] + (exec.map { [("exec", $0)] } ?? []) + keys.map { (key: $0.0, value: $0.1) }
    }

    private static let heading = "# Enrolled by gridlock enroll. Only the argon2id hash of the pattern is stored."

    /// The drop-in's text: a comment, the header, then `sectionLines`, one a line.
    public static func section(name: String, hash: String, exec: String?, grid: GridShape, keys: [(String, String)] = []) -> String {
        let lines = sectionLines(hash: hash, exec: exec, grid: grid, keys: keys)
        return ([heading, "[pattern \(name)]"] + lines.map { "\($0.key)=\($0.value)" }).joined(separator: "\n") + "\n"
    }

    /// Writes the drop-in as described above. Returns the path written.
    @discardableResult
    public static func store(
        name: String, hash: String, exec: String?, grid: GridShape, keys: [(String, String)] = [], configPath: String
    ) throws(EnrollmentError) -> String {
        try store(name: name, hash: hash, exec: exec, grid: grid, keys: keys, configPath: configPath, runningAs: ProcessIdentity.effectiveUser)
    }

    /// `text` stands in for `section(...)`: how a test makes a file that reads back as
    /// something other than what was asked.
    static func store(
        name: String, hash: String, exec: String?, grid: GridShape, keys: [(String, String)], configPath: String,
        runningAs user: UInt32, text: String? = nil
    ) throws(EnrollmentError) -> String {
        guard isValidName(name) else { throw .invalidName(name) }
        let lines = sectionLines(hash: hash, exec: exec, grid: grid, keys: keys)
        for (key, value) in lines {
            do throws(PatternKeyProblem) {
                try checkPatternKey(key, value)
            } catch {
                throw .unwritableValue(key: key, error)
            }
        }
        let path = dropInPath(configPath: configPath, name: name)
        if let current = try? ConfigVerdict.load(path: configPath, runningAs: user),
           let other = current.config.patterns.first(where: { $0.name == name && $0.source.file != path }) {
            throw .nameTaken(name: name, location: other.source.description)
        }
        if let others = contentBesidesPattern(name, inDropIn: path) { throw .dropInHoldsMore(path: path, holds: others) }

        let folder = ConfigPaths.dropInDirectory(of: configPath)
        let folderExisted = (try? FileStatus(path: folder)) != nil
        let staged: StagedFile
        do throws(SystemCallError) {
            try Directory.create(folder)
            // Hidden and not ending in .conf: a gridlockd reloading meanwhile does not read it.
            staged = try StagedFile.write(
                Array((text ?? section(name: name, hash: hash, exec: exec, grid: grid, keys: keys)).utf8),
                for: path, temporaryPath: "\(folder)/.\(dropInName(name)).tmp-\(ProcessIdentity.processID)", mode: 0o600)
        } catch {
            if !folderExisted { Directory.removeIfEmpty(folder) }
            throw .cannotWrite(error)
        }
        do throws(EnrollmentError) {
            try judge(staged, name: name, lines: lines, configPath: configPath, runningAs: user)
        } catch {
            staged.discard()
            if !folderExisted { Directory.removeIfEmpty(folder) }
            throw error
        }
        do throws(SystemCallError) {
            try staged.install()
        } catch {
            if !folderExisted { Directory.removeIfEmpty(folder) }
            throw .cannotWrite(error)
        }
        return path
    }

    /// What the drop-in at `path`, about to be replaced, holds besides `[pattern name]`: its
    /// other sections, or what makes it unreadable; nil when it does not exist or holds
    /// nothing else (an earlier enrolment of the same name, which this one replaces). Someone
    /// may have put another pattern, or settings, into a file that happens to have the name.
    private static func contentBesidesPattern(_ name: String, inDropIn path: String) -> String? {
        do throws(SystemCallError) {
            _ = try FileStatus(entryAt: path)
        } catch where error.errno == .noSuchFile {
            return nil
        } catch {}
        let file = IniReader.read(path: path)
        let others = file.sections.filter { ConfigAssembler.patternName(inHeader: $0.name) != name }
        guard !others.isEmpty || !file.diagnostics.isEmpty else { return nil }
        return (others.map { "[\($0.name)]" } + file.diagnostics.map(\.message)).joined(separator: ", ")
    }

    /// Whether the staged drop-in may be put in place: the configuration with it passes the
    /// verdict, the verdict read the pattern from it, and the file on its own means exactly
    /// the section asked for, no other section or key.
    private static func judge(
        _ staged: StagedFile, name: String, lines: [(key: String, value: String)], configPath: String, runningAs user: UInt32
    ) throws(EnrollmentError) {
        let standIn = DropInStandIn(name: dropInName(name), readFrom: staged.temporaryPath)
        let loaded: LoadedConfig
        do throws(ConfigError) {
            loaded = try ConfigVerdict.load(path: configPath, standIn: standIn, runningAs: user)
        } catch {
            throw .configRejected(ConfigError(diagnostics: error.diagnostics.map { $0.naming(staged.temporaryPath, as: staged.path) }))
        }
        let written = IniReader.read(path: staged.temporaryPath)
        let asked = IniFile(path: staged.temporaryPath, sections: [IniSection(
            name: "pattern \(name)", line: 2,
            entries: lines.enumerated().map { IniEntry(key: $1.key, value: $1.value, line: $0 + 3) })])
        let meant = assembled(asked)
        guard written.diagnostics.isEmpty, assembled(written) == meant,
              let pattern = meant.patterns.first,
              loaded.config.patterns.filter({ $0.name == name }) == [pattern]
        else {
            throw .readBackDiffers(path: staged.path, read: summary(of: written))
        }
    }

    /// What a file means on its own: the configuration its sections make from the defaults.
    private static func assembled(_ file: IniFile) -> GridlockConfig {
        var assembler = ConfigAssembler(currentDirectory: "/")
        assembler.add(file)
        return assembler.finish()
    }

    /// A file's sections and keys, for saying what it would have set (hashes left out).
    private static func summary(of file: IniFile) -> String {
        let sections = file.sections.map { section in
            "[\(section.name)] " + section.entries.map { $0.key == "hash" ? "hash=..." : "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        return (sections + file.diagnostics.map(\.message)).joined(separator: "; ")
    }

    /// SIGHUP to every running gridlockd, so it loads the new pattern; their pids.
    public static func reloadRunningDaemons() -> [Int32] {
        let daemons = ProcessTable.processes(named: "gridlockd")
        for pid in daemons { Signal.hangUp.send(to: pid) }
        return daemons
    }
}

extension ConfigDiagnostic {
    /// The same diagnostic with `temporary` called by the name it stands in for.
    fileprivate func naming(_ temporary: String, as final: String) -> ConfigDiagnostic {
        ConfigDiagnostic(
            file: location.file == temporary ? final : location.file, line: location.line,
            message: message.replacing(temporary, with: final))
    }
}

public enum EnrollmentError: Error, CustomStringConvertible {
    case invalidName(String)
    /// A value the drop-in cannot hold as given (`key`: the `[pattern]` key it was for).
    case unwritableValue(key: String, PatternKeyProblem)
    case nameTaken(name: String, location: String)
    /// The drop-in the pattern would replace holds more than an earlier enrolment of it
    /// (`holds`: its other sections, or why it cannot be read).
    case dropInHoldsMore(path: String, holds: String)
    case cannotWrite(SystemCallError)
    case configRejected(ConfigError)
    /// The file written would not have been read as the pattern asked for (`read`: what it held).
    case readBackDiffers(path: String, read: String)

    public var description: String {
        switch self {
        case .invalidName(let name):
            "'\(name)' is not a pattern name: use 1 to 64 of A-Z a-z 0-9 _ . -"
        case .unwritableValue(let key, let problem):
            "\(key)=: \(problem)"
        case .nameTaken(let name, let location):
            "a pattern named \(name) is already defined at \(location); choose another --name or remove that one"
        case .dropInHoldsMore(let path, let holds):
            "\(path) holds more than the pattern it would replace (\(holds)), so it was left as it is: "
                + "move what else it holds into a file of its own, or choose another --name"
        case .cannotWrite(let error): "\(error)"
        case .configRejected(let error): "the configuration would not load with the new pattern, nothing was changed:\n\(error)"
        case .readBackDiffers(let path, let read):
            "\(path) would not be read as the pattern asked for (it would hold: \(read)), nothing was changed"
        }
    }
}

/// Why a value for a `[pattern]` key was refused, in the config loader's words.
public struct PatternKeyProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
