import GridlockConfiguration
import GridlockCore
import LinuxSys

/// The daemon's copy of the state file and the only writer of it while it runs: the lock
/// machine's failure count and the patterns' uses go out together, atomically, and the
/// witness beside it follows (`StateWitness`). `path` nil keeps everything in memory
/// (replays, previews, benchmarks).
public final class StateFile {
    public let path: String?
    public private(set) var saved: SavedState
    /// Why the state gridlockd started with is not the file as it stood (`RestoredState.damage`);
    /// nil when it is. Worth an `[on tamper]`: someone should look.
    public private(set) var damage: String?
    /// The patterns configured now, once told (`keep(only:)`): every write keeps to them.
    private var configured: [PatternEntry]?
    /// A witness is on disk for good: later ones replace it without an fsync (a power cut
    /// brings back an earlier one, which only claims less). The first is made durable.
    private var witnessOnDisk = false
    private var witnessFailing = false
    /// Held for as long as this writes the file (`StateLock`); released with it.
    private var lock: LockFile?

    public init(path: String?, saved: SavedState = .clean) {
        self.path = path
        self.saved = saved
    }

    /// gridlockd's start: what the file and its witness say (damage logged at alert priority),
    /// kept to the configured patterns. What differs from the file (damage, patterns no
    /// longer configured) is written back at once; a file without its witness (an older
    /// gridlockd wrote it) gets one: from then on a state file that is not there was lost,
    /// it is no new panel. A new panel writes nothing until its first attempt.
    public static func open(_ path: String, schedule: LockoutSchedule, patterns: [PatternEntry], holding lock: LockFile? = nil) -> StateFile {
        let restored = inspect(path, schedule: schedule, patterns: patterns)
        log(restored, path: path)
        let file = StateFile(path: path, saved: restored.saved)
        file.lock = lock
        file.damage = restored.damage
        file.configured = patterns
        file.witnessOnDisk = restored.witness != .absent
        switch restored.onDisk {
        case .nothing:
            break
        case .current:
            let current = StateWitness(generation: restored.saved.generation, failures: restored.saved.attempts.failures)
            if restored.witness != .present(current) { file.writeWitness(current, for: path) }
        case .stale:
            do {
                try file.write(restored.saved)
            } catch {
                Journal.log(.critical, "cannot write the attempt state at start: \(error); attempts are not checked until it can")
            }
        }
        return file
    }

    /// What `inspect` finds, said in the journal as gridlockd says it at start.
    public static func restore(from path: String, schedule: LockoutSchedule, patterns: [PatternEntry]? = nil) -> SavedState {
        let restored = inspect(path, schedule: schedule, patterns: patterns)
        log(restored, path: path)
        return restored.saved
    }

    /// A reloaded configuration: the lines of patterns no longer in it (or enrolled again
    /// with another hash) go with the next write, so the file never outgrows its reader.
    /// Until then they are kept in memory as well: a drop-in moved away for one reload and
    /// back for the next, with nothing written between, brings its pattern back with the
    /// uses it had, not afresh.
    public func keep(only patterns: [PatternEntry]) {
        configured = patterns
        var kept = saved.keeping(only: patterns)
        for (name, use) in saved.patterns where kept.patterns[name] == nil { kept.patterns[name] = use }
        saved = kept
    }

    /// The failure count changed (the lock machine's `.persist`).
    public func save(attempts: AttemptState) throws(AttemptStoreError) {
        var next = saved
        next.attempts = attempts
        try write(next)
    }

    /// A limited pattern is about to open: the use is on disk before its action runs, so a
    /// kill at any moment never gives a use for free. Nothing changes if it cannot be written.
    public func saveUse(of name: String, hash: String, at epochSeconds: Int64) throws(AttemptStoreError) {
        var next = saved
        next.noteAccepted(name, hash: hash, at: epochSeconds)
        try write(next)
    }

    /// A pattern without a limit opened: its last use goes out with the next write (the
    /// lock machine's reset of the failure count follows at once).
    public func noteAccepted(_ name: String, hash: String, at epochSeconds: Int64) {
        saved.noteAccepted(name, hash: hash, at: epochSeconds)
    }

    /// SIGHUP. Anything at the path that gridlockd did not write (an older copy, a later
    /// generation someone else wrote, a deleted or damaged file) is replaced at once with the
    /// running state, `attempts` being the lock machine's count: while it runs, gridlockd's
    /// own record is the one that holds, and nobody else writes it (`StateLock`). A reset
    /// comes as a `ResetRequest`, never as a file.
    public func reconcile(running attempts: AttemptState) {
        guard let path else { return }
        let found = AttemptStore.load(from: path)
        if case .loaded(let onDisk) = found, onDisk.generation == saved.generation { return }
        let what: String
        switch found {
        case .missing: what = "is gone"
        case .loaded(let onDisk): what = "holds generation \(onDisk.generation), not the \(saved.generation) gridlockd wrote"
        case .corrupt(let reason): what = "is corrupt (\(reason))"
        case .unreadable(let error): what = "is unreadable (\(error.reason))"
        }
        Journal.log(.warning, "attempt state \(path) \(what); writing gridlockd's own again (only gridlockd writes it while it runs)")
        var next = saved
        next.attempts = attempts
        do {
            try write(next)
        } catch {
            Journal.log(.critical, "\(error)")
        }
    }

    /// A `gridlock reset-lockout` request, applied to the running state: the failure count
    /// cleared, the uses of the named patterns (those configured now) started afresh, and
    /// written. The names it gives that are not configured are returned, for the journal.
    public func apply(_ request: ResetRequest) throws(AttemptStoreError) -> (afresh: [String], unknown: [String]) {
        var next = saved
        next.attempts = .clean
        var afresh: [String] = [], unknown: [String] = []
        for name in request.usesAfresh {
            guard let pattern = configured?.first(where: { $0.name == name }) else {
                unknown.append(name)
                continue
            }
            next.startUsesAfresh(of: pattern.name, hash: pattern.hash)
            afresh.append(name)
        }
        try write(next)
        return (afresh, unknown)
    }

    /// `gridlock reset-lockout` with no gridlockd running (the caller holds the
    /// `StateLock`): the failure count cleared, uses kept (known or unknown) except those of
    /// `afresh`, which start again, written with the witness. What was there before is
    /// returned, for the tool to say.
    public static func resetLockout(
        at path: String, schedule: LockoutSchedule, patterns: [PatternEntry], startingUsesAfreshOf afresh: [PatternEntry] = []
    ) throws(AttemptStoreError) -> RestoredState {
        let found = inspect(path, schedule: schedule, patterns: patterns)
        var cleared = found.saved
        cleared.attempts = .clean
        for pattern in afresh { cleared.startUsesAfresh(of: pattern.name, hash: pattern.hash) }
        let file = StateFile(path: path, saved: found.saved)
        file.configured = patterns
        try file.write(cleared)
        return found
    }

    private func write(_ proposed: SavedState) throws(AttemptStoreError) {
        var next = configured.map { proposed.keeping(only: $0) } ?? proposed
        next.generation = min(saved.generation, SavedState.maximumGeneration - 1) + 1
        guard let path else {
            saved = next
            return
        }
        if !witnessOnDisk {
            // The first write here: a witness of what is on disk now (generation 0 on a new
            // panel) goes first, so a power cut between the file and its first witness leaves
            // a file newer than its witness, never a file of generation 1 with none.
            writeWitness(StateWitness(generation: saved.generation, failures: saved.attempts.failures), for: path)
        }
        try AttemptStore.save(next, to: path)
        saved = next
        // After the file, never before: the witness must never claim more than the file holds.
        writeWitness(StateWitness(generation: next.generation, failures: next.attempts.failures), for: path)
    }

    private func writeWitness(_ witness: StateWitness, for path: String) {
        let witnessPath = StateWitness.path(beside: path)
        do {
            try witness.save(to: witnessPath, durable: !witnessOnDisk)
            witnessOnDisk = true
            if witnessFailing { Journal.log(.notice, "state witness \(witnessPath) written again") }
            witnessFailing = false
        } catch {
            if !witnessFailing {
                Journal.log(.warning, "cannot write the state witness: \(error); a deleted or older copy of \(path) may go unnoticed")
            }
            witnessFailing = true
        }
    }
}
