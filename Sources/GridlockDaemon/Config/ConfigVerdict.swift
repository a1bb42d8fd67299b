import GridlockCore
import LinuxSys

/// The one verdict on a configuration: what decides whether gridlockd starts (exit 78 on
/// any problem), whether a reload takes effect, and what `gridlock check-config` prints.
/// The text of every file (`ConfigLoader`), the owners and modes of the files and folders
/// it came from and the state directory (`ConfigSafety`), and the files it names that
/// start-up would read (a replay recording) are checked together, so no check passes a
/// configuration the daemon then refuses.
public enum ConfigVerdict {
    /// How often a configuration that changes while it is read is read again.
    static let readAttempts = 5

    /// Every problem, and the configuration as far as it could be read.
    ///
    /// The files are read as one snapshot: their identities (inode, size, times) and the
    /// drop-in listing are taken before and after, and a configuration written while it
    /// was read (an editor saving in place) is read again, so a half-written file is
    /// never taken for a shorter valid one.
    public static func check(
        path: String, runningAs user: UInt32 = ProcessIdentity.effectiveUser
    ) -> (check: ConfigCheck, config: GridlockConfig) {
        for _ in 0..<readAttempts {
            let before = snapshot(path)
            var (config, check) = ConfigLoader.run(path: path)
            guard snapshot(path) == before else { continue }
            check.diagnostics += ConfigSafety.problems(
                files: check.files, dropInDirectory: ConfigPaths.dropInDirectory(of: path), config: config, runningAs: user)
            if check.isValid { check.diagnostics += namedFiles(config) }
            return (check, config)
        }
        let unstable = ConfigDiagnostic(
            file: path, line: 0,
            message: "changed each of the \(readAttempts) times it was read; replace configuration files atomically (write a temporary file in the same folder, then rename it over the old one, as gridlock enroll does)")
        return (ConfigCheck(files: [path], diagnostics: [unstable]), GridlockConfig())
    }

    /// The main file, the drop-in folder's listing and each drop-in, as they are now.
    static func snapshot(_ path: String) -> [String: FileStatus.Identity] {
        let files = (try? ConfigPaths.files(of: path)) ?? [path]
        let directory = ConfigPaths.dropInDirectory(of: path)
        var identities: [String: FileStatus.Identity] = [:]
        for file in files + [directory] {
            if let status = try? FileStatus(path: file) { identities[file] = status.identity }
        }
        return identities
    }

    /// The configuration gridlockd runs with, or every reason it must not start.
    public static func load(
        path: String, runningAs user: UInt32 = ProcessIdentity.effectiveUser
    ) throws(ConfigError) -> LoadedConfig {
        let (check, config) = check(path: path, runningAs: user)
        guard check.isValid else { throw ConfigError(diagnostics: check.diagnostics) }
        return LoadedConfig(config: config, files: check.files, warnings: check.warnings)
    }

    /// What start-up reads besides the config: a recording for the replay backend.
    private static func namedFiles(_ config: GridlockConfig) -> [ConfigDiagnostic] {
        guard config.touch.backend == .replay, case .path(let recording) = config.touch.device else { return [] }
        do {
            _ = try DaemonParts.loadRecording(recording)
            return []
        } catch {
            return [ConfigDiagnostic(file: recording, line: 0, message: "[touch] device=: \(error)")]
        }
    }
}
