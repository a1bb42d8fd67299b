import GridlockCore
import LinuxSys

/// The check of a drawn pattern, and the configuration it belongs to.
///
/// A check is one argon2 verification per enrolled pattern: tens of milliseconds on a PC,
/// several times that on an ARM board. A SIGHUP in that window (`gridlock enroll` sends
/// one) must not let the old hashes decide under the new configuration: a pattern
/// re-enrolled with another drawing would open once more with its old one. So a verdict
/// is handed on only under the configuration it was made under; one that comes back
/// under another is dropped and the same drawing is checked again under the one now in
/// force. `PatternGate` then applies that configuration's schedules and uses.
final class PatternChecks {
    private var matcher: PatternMatcher
    /// Counts configurations: a check remembers the one it started under.
    private var generation = 0
    private let verifier: PatternVerifying
    private let verdict: (PatternMatch?) -> Void

    /// `verdict` gets each check's match, or nil, made under the configuration in force.
    init(matcher: PatternMatcher, verifier: PatternVerifying, verdict: @escaping (PatternMatch?) -> Void) {
        self.matcher = matcher
        self.verifier = verifier
        self.verdict = verdict
    }

    func begin(_ pattern: Pattern) {
        let startedUnder = generation
        Journal.log(.info, "checking the drawn pattern (\(pattern.nodes.count) nodes) against \(matcher.entries.count) enrolled pattern(s)")
        verifier.verify(pattern, with: matcher) { [weak self] match in
            self?.finished(pattern, match: match, startedUnder: startedUnder)
        }
    }

    /// A reload took effect: checks under way belong to the configuration before it.
    func configurationChanged(to config: GridlockConfig) {
        matcher = matcher.updated(for: config)
        generation += 1
    }

    private func finished(_ pattern: Pattern, match: PatternMatch?, startedUnder: Int) {
        guard startedUnder == generation else {
            Journal.log(.notice, "the configuration was reloaded while a pattern was being checked; checking it again under the new one")
            begin(pattern)
            return
        }
        verdict(match)
    }
}
