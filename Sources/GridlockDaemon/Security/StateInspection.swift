import GridlockConfiguration
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
        if case .present(let found) = witnessLoad { witness = found }
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
            // A witness of generation 0 is written before a panel's first state file: the
            // power went before that file was.
            if case .present(let first) = witnessLoad, first.generation == 0 { return restored(.clean, damage: nil, fromFile: false) }
            damage = "is missing, though gridlockd wrote it before (\(witnessPath) says so)"
        case .loaded(let state):
            switch witnessLoad {
            case .present(let witness):
                guard state.generation < witness.generation else { return restored(state, damage: nil, fromFile: true) }
                damage = "is an older copy (generation \(state.generation), gridlockd last wrote \(witness.generation))"
            case .unreadable(let reason):
                // The one record that could tell an older copy from the latest is gone:
                // the file cannot be trusted to be the latest.
                damage = "cannot be vouched for: its witness \(witnessPath) is unreadable (\(reason)), so an older copy could not be told from the latest"
            case .absent where state.generation > 0:
                // Generation 1 and later were written by a gridlockd that writes the witness
                // right after: without one, the witness was removed.
                damage = "cannot be vouched for: its witness \(witnessPath) is missing, though gridlockd writes one after every write of generation \(state.generation)"
            case .absent:
                // An older gridlockd's file (version 1 or 2, generation 0), never witnessed:
                // its count holds, but its uses cannot be told from an old copy's.
                return restored(state.losingUses(), damage: nil, fromFile: true)
            }
            older = state
        case .corrupt(let reason):
            damage = "is corrupt (\(reason))"
            if case .unreadable(let reason) = witnessLoad { notes.append("its witness \(witnessPath) is unreadable too (\(reason))") }
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
