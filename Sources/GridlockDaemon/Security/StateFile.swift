import GridlockCore
import LinuxSys

/// The daemon's copy of the state file and the only writer of it while it runs: the lock
/// machine's failure count and the patterns' uses go out together, atomically.
/// `path` nil keeps everything in memory (replays, previews, benchmarks).
public final class StateFile {
    public let path: String?
    public private(set) var saved: SavedState

    public init(path: String?, saved: SavedState = .clean) {
        self.path = path
        self.saved = saved
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

    /// `gridlock reset-lockout` cleared the file: its contents are in force now.
    public func adopt(_ state: SavedState) { saved = state }

    private func write(_ next: SavedState) throws(AttemptStoreError) {
        if let path { try AttemptStore.save(next, to: path) }
        saved = next
    }

    /// What the file at `path` holds. A missing file means no failures and no uses. A corrupt
    /// or unreadable one is taken as the first lockout of the schedule and as uses unknown:
    /// damaging the file must never earn free attempts or free uses.
    public static func restore(from path: String, schedule: LockoutSchedule) -> SavedState {
        switch AttemptStore.load(from: path) {
        case .missing:
            return .clean
        case .loaded(let state):
            if state.attempts.failures == AttemptState.maximumFailures {
                Journal.log(.alert, "attempt state \(path) holds the most failures it can (\(state.attempts.failures)); locked out for the schedule's longest delay")
            } else if state.attempts.failures > 0 {
                Journal.log(.notice, "restored \(state.attempts.failures) consecutive failed attempts from \(path)")
            }
            return state
        case .corrupt(let reason):
            Journal.log(.alert, "attempt state \(path) is corrupt (\(reason)); locking out as after repeated failures")
        case .unreadable(let error):
            Journal.log(.alert, "attempt state unreadable: \(error); locking out as after repeated failures")
        }
        let attempts = schedule.firstLockout.map { AttemptState(failures: $0.failures, lockoutPending: true) } ?? .clean
        return SavedState(attempts: attempts, usesLost: true)
    }
}
