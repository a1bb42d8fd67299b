import GridlockCore
import LinuxSys

/// The one verdict on a configuration: what decides whether gridlockd starts (exit 78 on
/// any problem), whether a reload takes effect, and what `gridlock check-config` prints.
/// The text of every file (`ConfigLoader`), the owners and modes of the files and folders
/// it came from and the state directory (`ConfigSafety`), and the files it names that
/// start-up would read (a replay recording) are checked together, so no check passes a
/// configuration the daemon then refuses.
public enum ConfigVerdict {
    /// Every problem, and the configuration as far as it could be read.
    public static func check(
        path: String, runningAs user: UInt32 = ProcessIdentity.effectiveUser
    ) -> (check: ConfigCheck, config: GridlockConfig) {
        var (config, check) = ConfigLoader.run(path: path)
        check.diagnostics += ConfigSafety.problems(files: check.files, config: config, runningAs: user)
        if check.isValid { check.diagnostics += namedFiles(config) }
        return (check, config)
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
