import GridlockConfiguration
import GridlockCore
import LinuxSys

/// What stands between a matching hash and an open door: the pattern's schedule and its
/// uses left. The daemon and `gridlock replay` both pass each verification through it, so
/// what a replay shows is what the panel does.
public final class PatternGate {
    private var patterns: [String: PatternEntry]
    private var trustUnsynchronisedClock: Bool
    private let state: StateFile
    private let wallClock: () -> WallTime

    public init(config: GridlockConfig, state: StateFile, wallClock: @escaping () -> WallTime) {
        (patterns, trustUnsynchronisedClock) = Self.rules(of: config)
        self.state = state
        self.wallClock = wallClock
        state.keep(only: config.patterns)
    }

    /// A reloaded configuration.
    public func update(_ config: GridlockConfig) {
        (patterns, trustUnsynchronisedClock) = Self.rules(of: config)
        state.keep(only: config.patterns)
    }

    /// The loader refuses a name used twice, so the first of each name is the only one.
    private static func rules(of config: GridlockConfig) -> ([String: PatternEntry], Bool) {
        (Dictionary(config.patterns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
         config.security.trustUnsynchronisedClock)
    }

    /// What the lock machine is told of a verification that matched `name` (nil: none).
    /// A refused pattern is an ordinary wrong one on screen (an onlooker learns nothing);
    /// the journal says which and why. A limited pattern's use is on disk before it opens,
    /// and if it cannot be written nothing opens (`.persistFailed`).
    ///
    /// A verdict belongs to the configuration it was made under: a match whose pattern is
    /// gone, or now carries another hash (re-enrolled), opens nothing. The daemon checks
    /// again whenever the configuration changed during a check, so this refusal is the
    /// last line, not the usual path.
    public func admit(_ match: PatternMatch?) -> LockEvent {
        guard let match else { return .verified(patternName: nil) }
        let name = match.name
        guard let entry = patterns[name], entry.hash == match.hash else {
            Journal.log(
                .warning, "pattern \(name) matched a hash that is no longer enrolled as \(name); counted as a wrong pattern",
                JournalFields(messageID: JournalCatalog.attempt, fields: [
                    "GRIDLOCK_EVENT": "refused", "GRIDLOCK_PATTERN": name, "GRIDLOCK_REASON": "not-enrolled",
                ]))
            return .verified(patternName: nil)
        }
        let time = wallClock()
        let used = state.saved.uses(of: name, hash: entry.hash)
        if let refusal = entry.limits.refusal(at: time, used: used, trustUnsynchronisedClock: trustUnsynchronisedClock) {
            Journal.log(
                .notice, "pattern \(name) matched but may not open: \(refusal); counted as a wrong pattern",
                JournalFields(messageID: JournalCatalog.attempt, fields: [
                    "GRIDLOCK_EVENT": "refused", "GRIDLOCK_PATTERN": name, "GRIDLOCK_REASON": "\(refusal)",
                ]))
            return .verified(patternName: nil)
        }
        guard let uses = entry.limits.uses else {
            state.noteAccepted(name, hash: entry.hash, at: time.epochSeconds)
            return .verified(patternName: name)
        }
        do {
            try state.saveUse(of: name, hash: entry.hash, at: time.epochSeconds)
        } catch {
            Journal.log(.critical, "cannot record the use of pattern \(name): \(error); it does not open until it can")
            return .persistFailed
        }
        let now = (used ?? 0) + 1
        Journal.log(now >= uses ? .notice : .info, "pattern \(name): use \(now) of \(uses)\(now >= uses ? "; it is used up now" : "")")
        return .verified(patternName: name)
    }
}
