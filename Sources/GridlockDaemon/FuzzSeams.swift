import GridlockConfiguration
import GridlockCore

/// Public doors to parsers that are internal to this module, for the fuzz targets in
/// `Fuzz/Targets` (module `GridlockFuzzing`, docs/reliability.md). It is also built in release,
/// where `@testable import` is not available, so it reaches these through here. Each one
/// only forwards: the fuzzers must exercise exactly the code the daemon runs.
public enum FuzzSeams {
    /// `AttemptFileFormat.decode`: the state, or nil when the file is corrupt.
    public static func decodeAttemptFile(_ bytes: [UInt8]) -> SavedState? {
        try? AttemptFileFormat.decode(bytes).get()
    }

    /// `AttemptFileFormat.encode`.
    public static func encodeAttemptFile(_ state: SavedState) -> [UInt8] {
        AttemptFileFormat.encode(state)
    }

    /// What `AttemptFileFormat` reads and writes: its version, the most bytes, the most
    /// pattern lines it writes.
    public static let attemptFileLimits = (
        version: AttemptFileFormat.version, size: AttemptFileFormat.maximumSize, patterns: AttemptFileFormat.maximumWrittenPatterns)

    /// The check of a message value (`ConfigValues.template`) that may show `values`: the text,
    /// or nil when refused.
    public static func messageTemplate(_ text: String, values: MessageValues) -> String? {
        try? ConfigValues.template(text, values)
    }

    /// The check of a `[pattern] hash=` value (`ConfigValues.argon2Hash`): the text, or nil when refused.
    public static func configHash(_ text: String) -> String? {
        try? ConfigValues.argon2Hash(text)
    }
}
