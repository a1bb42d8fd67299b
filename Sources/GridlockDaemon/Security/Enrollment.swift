import GridlockCore
import LinuxSys

/// Storing an enrolled pattern: a drop-in `<config>.d/50-NAME.conf` holding only its
/// `[pattern NAME]` section, written atomically with mode 0600, and kept only if the
/// whole configuration still loads.
public enum Enrollment {
    /// The config's rule for pattern names (`[A-Za-z0-9_.-]{1,64}`): no `/`, so the
    /// drop-in `50-NAME.conf` stays inside the drop-in folder.
    public static func isValidName(_ name: String) -> Bool { ConfigValues.isPatternName(name) }

    /// A `[pattern]` key's value judged as the config loader will judge it in the drop-in,
    /// so `gridlock enroll --valid ...` is refused before anyone draws anything.
    public static func checkPatternKey(_ key: String, _ value: String) throws(PatternKeyProblem) {
        guard let entry = ConfigSchema.pattern.key(named: key) else { throw PatternKeyProblem("[pattern] has no key \(key)") }
        var draft = PatternDraft()
        do throws(ValueProblem) {
            try entry.store(&draft, value, ValueSource(file: "", currentDirectory: "/"))
        } catch {
            throw PatternKeyProblem(error.message)
        }
    }

    public static func dropInPath(configPath: String, name: String) -> String {
        "\(configPath).d/50-\(name).conf"
    }

    /// `keys` are further `key=value` lines of the section (`uses=1`, `valid=...`), written as
    /// given: the loader judges them when `store` checks the result.
    public static func section(name: String, hash: String, exec: String?, grid: GridShape, keys: [(String, String)] = []) -> String {
        var text = "# Enrolled by gridlock enroll. Only the argon2id hash of the pattern is stored.\n"
        text += "[pattern \(name)]\ngrid=\(grid)\nhash=\(hash)\n"
        if let exec { text += "exec=\(exec)\n" }
        for (key, value) in keys { text += "\(key)=\(value)\n" }
        return text
    }

    /// Writes the drop-in and checks the result loads; on any problem the previous state
    /// of the file is put back. Returns the path written.
    @discardableResult
    public static func store(
        name: String, hash: String, exec: String?, grid: GridShape, keys: [(String, String)] = [], configPath: String
    ) throws(EnrollmentError) -> String {
        guard isValidName(name) else { throw .invalidName(name) }
        let path = dropInPath(configPath: configPath, name: name)
        if let current = try? ConfigLoader.load(path: configPath),
           let other = current.config.patterns.first(where: { $0.name == name && $0.source.file != path }) {
            throw .nameTaken(name: name, location: other.source.description)
        }
        let previous = try? AtomicFile.read(path)
        do {
            try Directory.create("\(configPath).d")
            try AtomicFile.write(Array(section(name: name, hash: hash, exec: exec, grid: grid, keys: keys).utf8), to: path, mode: 0o600)
        } catch {
            throw .cannotWrite(error)
        }
        do {
            _ = try ConfigLoader.load(path: configPath)
        } catch {
            if let previous {
                try? AtomicFile.write(previous, to: path, mode: 0o600)
            } else {
                unlinkIfPresent(path)
            }
            throw .configRejected(error)
        }
        return path
    }

    /// SIGHUP to every running gridlockd, so it loads the new pattern; their pids.
    public static func reloadRunningDaemons() -> [Int32] {
        let daemons = ProcessTable.processes(named: "gridlockd")
        for pid in daemons { Signal.hangUp.send(to: pid) }
        return daemons
    }
}

public enum EnrollmentError: Error, CustomStringConvertible {
    case invalidName(String)
    case nameTaken(name: String, location: String)
    case cannotWrite(SystemCallError)
    case configRejected(ConfigError)

    public var description: String {
        switch self {
        case .invalidName(let name):
            "'\(name)' is not a pattern name: use 1 to 64 of A-Z a-z 0-9 _ . -"
        case .nameTaken(let name, let location):
            "a pattern named \(name) is already defined at \(location); choose another --name or remove that one"
        case .cannotWrite(let error): "\(error)"
        case .configRejected(let error): "the configuration would not load with the new pattern, nothing was changed:\n\(error)"
        }
    }
}

/// Why a value for a `[pattern]` key was refused, in the config loader's words.
public struct PatternKeyProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
