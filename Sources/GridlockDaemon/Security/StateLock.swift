import LinuxSys

/// The lock on a state file: `attempts.lock` beside it, held by whoever writes the file for
/// as long as it may write it. gridlockd holds it from its start to its end, so nothing else
/// writes the file it keeps in memory: `gridlock replay --state` refuses the live file (exit
/// 75, naming gridlockd's pid: replay a copy), `gridlock reset-lockout` hands its reset to
/// the holder (`ResetRequest`), and a second gridlockd on the same state refuses to start.
/// A lock and not the file's own flock: the file is replaced by rename at every write.
public enum StateLock {
    public static func path(beside stateFile: String) -> String { stateFile + ".lock" }

    /// The lock, or nil when its folder is on a read-only file system with no lock file
    /// there: nobody can write the state file then either (gridlockd runs, failing closed:
    /// every attempt `cannot-record`), so there is nothing to keep others from.
    public static func acquire(for stateFile: String, by purpose: String) throws(StateInUse) -> LockFile? {
        do {
            return try LockFile.acquire(path: path(beside: stateFile), purpose: purpose)
        } catch {
            if case .cannotLock(let reason) = error, reason.errno == .readOnlyFileSystem {
                Journal.log(.notice, "no lock beside the state file \(stateFile): its file system is read-only, so nobody writes it")
                return nil
            }
            throw StateInUse(stateFile: stateFile, problem: error)
        }
    }
}

/// The state file is locked by another process, or its lock cannot be taken.
public struct StateInUse: Error, CustomStringConvertible, FailureStatus {
    public var stateFile: String
    public var problem: LockFileError

    public var holder: LockHolder? {
        if case .held(_, let holder) = problem { return holder }
        return nil
    }

    public var description: String {
        switch problem {
        case .held(_, let holder):
            "the state file \(stateFile) is in use by \(holder.map { "\($0)" } ?? "another process"), which alone writes it while it runs"
        default:
            "cannot lock the state file \(stateFile): \(problem)"
        }
    }

    /// EX_TEMPFAIL: try again once the holder is gone.
    public var exitStatus: Int32 { 75 }
}
