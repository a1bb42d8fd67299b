import GridlockConfiguration
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
///
/// A reload that leaves alone what a check depends on (the grid and every pattern's name
/// and hash, in order) does not restart it: `systemctl reload`, `enroll` of another door
/// and `reset-lockout` all send SIGHUP, and a storm of them must not keep a verdict from
/// coming. One that does change them restarts it at most `maximumRechecks` times for one
/// stroke; after that the stroke is refused (counted, as it already was before its check)
/// and the journal says why. A verdict that comes under a `min-nodes` raised since the
/// stroke was drawn is refused as well.
final class PatternChecks {
    private var matcher: PatternMatcher
    private var minimumNodes: Int
    /// Counts configurations that changed what a check depends on: a check remembers the
    /// one it started under.
    private var generation = 0
    private let verifier: PatternVerifying
    private let verdict: (PatternMatch?) -> Void

    static let maximumRechecks = 3

    /// `verdict` gets each check's match, or nil, made under the configuration in force.
    init(matcher: PatternMatcher, minimumNodes: Int, verifier: PatternVerifying, verdict: @escaping (PatternMatch?) -> Void) {
        self.matcher = matcher
        self.minimumNodes = minimumNodes
        self.verifier = verifier
        self.verdict = verdict
    }

    func begin(_ pattern: Pattern) {
        start(pattern, rechecks: 0)
    }

    private func start(_ pattern: Pattern, rechecks: Int) {
        let startedUnder = generation
        Journal.log(.info, "checking the drawn pattern (\(pattern.nodes.count) nodes) against \(matcher.entries.count) enrolled pattern(s)")
        verifier.verify(pattern, with: matcher) { [weak self] match in
            self?.finished(pattern, match: match, startedUnder: startedUnder, rechecks: rechecks)
        }
    }

    /// A reload took effect: checks under way belong to the configuration before it, unless
    /// it checks every drawing as the one before did.
    func configurationChanged(to config: GridlockConfig) {
        let updated = matcher.updated(for: config)
        minimumNodes = config.grid.minNodes
        let alike = updated.checksAlike(matcher)
        matcher = updated
        if !alike { generation += 1 }
    }

    private func finished(_ pattern: Pattern, match: PatternMatch?, startedUnder: Int, rechecks: Int) {
        guard startedUnder == generation else {
            guard rechecks < Self.maximumRechecks else {
                refuse(.warning, reason: "configuration-changing",
                       "the configuration's patterns changed \(rechecks + 1) times while the drawn pattern was checked; refusing it, counted as a wrong pattern (draw it again once the changes stop)")
                return
            }
            Journal.log(.notice, "the configuration was reloaded while a pattern was being checked; checking it again under the new one")
            start(pattern, rechecks: rechecks + 1)
            return
        }
        guard pattern.nodes.count >= minimumNodes else {
            refuse(.notice, reason: "too-short-now",
                   "the configuration reloaded during the check needs at least \(minimumNodes) nodes, the drawing has \(pattern.nodes.count); counted as a wrong pattern")
            return
        }
        verdict(match)
    }

    /// No match, said in the journal as `PatternGate` says its refusals.
    private func refuse(_ priority: LogPriority, reason: String, _ message: String) {
        Journal.log(priority, message, JournalFields(
            messageID: JournalCatalog.attempt, fields: ["GRIDLOCK_EVENT": "refused", "GRIDLOCK_REASON": reason]))
        verdict(nil)
    }
}
