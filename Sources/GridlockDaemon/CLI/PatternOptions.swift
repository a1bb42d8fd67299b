import GridlockConfiguration
import GridlockArguments
/// The options of `gridlock enroll` and `gridlock hash` that become lines of a `[pattern NAME]`
/// section. Each is refused (a usage error, exit 64, naming the option) unless it is written
/// and read back as exactly what was given and the loader takes it: an argument must never
/// become config lines of its own.
extension Arguments {
    /// Removes `OPTION VALUE` for the `[pattern]` key `key`, judged by `Enrollment.checkPatternKey`.
    public mutating func patternValue(_ option: String, key: String) throws(UsageError) -> String? {
        try self.option(option) { text throws(PatternKeyProblem) in try Enrollment.checkPatternKey(key, text) }
    }

    /// `--uses N`, `--valid WINDOWS`, `--valid-from WHEN` and `--valid-until WHEN`, as the
    /// `uses=`, `valid=`, `valid-from=` and `valid-until=` lines they become, in that order. A
    /// `--valid-until` before `--valid-from` is refused here, naming both, rather than by the
    /// loader after the pattern was drawn.
    public mutating func patternLimits() throws(UsageError) -> [(String, String)] {
        var lines: [(String, String)] = []
        if let uses = try integer("--uses", in: 1...1_000_000) { lines.append(("uses", String(uses))) }
        for key in ["valid", "valid-from", "valid-until"] {
            if let value = try patternValue("--\(key)", key: key) { lines.append((key, value)) }
        }
        let value = { (key: String) in lines.first(where: { $0.0 == key })?.1 }
        if let fromText = value("valid-from"), let untilText = value("valid-until"),
           let from = try? ConfigValues.validFrom(fromText), let until = try? ConfigValues.validUntil(untilText), until < from {
            throw UsageError(
                "--valid-until \(untilText) is before --valid-from \(fromText): the pattern could never open", command: command)
        }
        return lines
    }
}
