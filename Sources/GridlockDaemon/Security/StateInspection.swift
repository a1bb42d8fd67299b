import GridlockCore
import LinuxSys

/// What the state file and its witness said, before anything was written.
public struct RestoredState: Hashable, Sendable {
    public var saved: SavedState
    /// Why the file was not taken as it stands ("is corrupt (…)", "is missing, though …", "is
    /// an older copy …"): then the lockout of a damaged file follows, and unknown uses.
    public var damage: String?
    /// Limited patterns (`uses=`) whose uses are unknown: they stay shut until
    /// `gridlock reset-lockout --uses NAME`.
    public var usesUnknown: [String]
    /// Worth saying, not damage: a witness that cannot be read.
    public var notes: [String]
    /// The file could not be read for want of permission: for a tool run without root, no
    /// sign of damage.
    public var accessDenied = false
    /// Whether the file holds `saved` already.
    var onDisk: OnDisk
    var witness: StateWitness.Load

    enum OnDisk: Hashable, Sendable {
        /// No file and no witness: a new panel, nothing to write yet.
        case nothing
        /// The file holds exactly `saved`.
        case current
        /// `saved` differs from the file (damage, patterns no longer configured).
        case stale
    }
}

extension StateFile {
    /// What the file at `path` and its witness hold, kept to `patterns` (nil: not kept, so
    /// lost uses stay lost for every name). A state file that was never written (no witness
    /// either) means no failures and no uses: a new panel. One that is corrupt, unreadable,
    /// gone although the witness says gridlockd wrote it, or older than the witness says, is
    /// taken as a lockout (the schedule's next one at or after the count the witness knew)
    /// and as uses unknown: damaging, deleting or restoring the file never earns free
    /// attempts or free uses.
    public static func inspect(_ path: String, schedule: LockoutSchedule, patterns: [PatternEntry]?) -> RestoredState {
        let witnessPath = StateWitness.path(beside: path)
        var notes: [String] = []
        var witness: StateWitness?
        let witnessLoad = StateWitness.load(from: witnessPath)
        switch witnessLoad {
        case .absent: break
        case .present(let found): witness = found
        case .unreadable(let reason):
            notes.append("the state witness \(witnessPath) is unreadable (\(reason)); an older copy of \(path) would go unnoticed this once")
        }
        var accessDenied = false
        func restored(_ saved: SavedState, damage: String?, fromFile: Bool) -> RestoredState {
            let kept = patterns.map { saved.keeping(only: $0) } ?? saved
            let unknown = (patterns ?? []).filter { $0.limits.uses != nil && kept.uses(of: $0.name, hash: $0.hash) == nil }.map(\.name)
            let onDisk: RestoredState.OnDisk = damage != nil || kept != saved ? .stale : fromFile ? .current : .nothing
            return RestoredState(
                saved: kept, damage: damage, usesUnknown: unknown, notes: notes, accessDenied: accessDenied,
                onDisk: onDisk, witness: witnessLoad)
        }

        let damage: String
        var older = SavedState()
        switch AttemptStore.load(from: path) {
        case .missing:
            if witnessLoad == .absent { return restored(.clean, damage: nil, fromFile: false) }
            damage = "is missing, though gridlockd wrote it before (\(witnessPath) says so)"
        case .loaded(let state):
            guard let witness, state.generation < witness.generation else { return restored(state, damage: nil, fromFile: true) }
            damage = "is an older copy (generation \(state.generation), gridlockd last wrote \(witness.generation))"
            older = state
        case .corrupt(let reason):
            damage = "is corrupt (\(reason))"
        case .unreadable(let error):
            damage = "is unreadable (\(error.reason))"
            accessDenied = error.errno == .permissionDenied || error.errno == .notPermitted
        }
        let counted = max(witness?.failures ?? 0, older.attempts.failures)
        let attempts: AttemptState
        if let more = schedule.failuresBeforeLockout(after: max(counted, 1)) {
            attempts = AttemptState(failures: min(max(counted, 1) + more, AttemptState.maximumFailures), lockoutPending: true)
        } else {
            attempts = AttemptState(failures: counted)
        }
        let lost = SavedState(attempts: attempts, usesLost: true, generation: max(witness?.generation ?? 0, older.generation))
        return restored(lost, damage: damage, fromFile: false)
    }

    static func log(_ restored: RestoredState, path: String) {
        for note in restored.notes { Journal.log(.warning, note) }
        let usesNote = restored.usesUnknown.isEmpty ? ""
            : "; the uses of \(restored.usesUnknown.joined(separator: ", ")) are unknown: they stay shut until gridlock reset-lockout --uses NAME"
        let attempts = restored.saved.attempts
        if let damage = restored.damage {
            Journal.log(.alert, "attempt state \(path) \(damage); locking out as after repeated failures\(usesNote)")
            return
        }
        if attempts.failures == AttemptState.maximumFailures {
            Journal.log(.alert, "attempt state \(path) holds the most failures it can (\(attempts.failures)); locked out for the schedule's longest delay")
        } else if attempts.failures > 0 {
            Journal.log(.notice, "restored \(attempts.failures) consecutive failed attempts from \(path)")
        }
        if !usesNote.isEmpty { Journal.log(.warning, "attempt state \(path) does not know every use\(usesNote)") }
    }
}
