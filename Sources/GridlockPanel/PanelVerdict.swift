import GridlockConfiguration

/// The panel face's one verdict on its file: what `gridlock-panel --check-config` says is
/// exactly what decides whether `gridlock-panel` starts. The face file is read as a theme
/// file (`ThemeFile`): every value, and the fonts, images and device nodes it names,
/// checked at their FILE:LINE; a section or key that would hold a secret is refused.
public enum PanelVerdict {
    /// The settings of the file at `path`, or every problem in it; nil: the built-in defaults.
    public static func judge(path: String?) -> Result<ThemeSettings, ConfigError> {
        guard let path else { return .success(.defaults) }
        do throws(ConfigError) {
            return .success(try ThemeFile.load(path: path))
        } catch {
            return .failure(error)
        }
    }
}
