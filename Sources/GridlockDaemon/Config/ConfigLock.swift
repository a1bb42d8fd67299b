import LinuxSys

/// The lock that `gridlock enroll` and `gridlock reset-lockout` hold while they change what a
/// configuration says or places, so two of them never interleave: without it two enrols of
/// one name both judged the configuration without the other's drop-in, both renamed theirs
/// into place and both said "stored", and the first pattern was gone.
///
/// It is the file `.gridlock.lock` in the folder of the main config file (for the default,
/// `/etc/gridlock/.gridlock.lock`): that folder is root's and writable by nobody else
/// (`ConfigSafety`), so nobody else can take the lock or put something in its place. The
/// loader never reads it: only the main file and the `.conf` files of the drop-in folder are
/// configuration, and hidden names are skipped even there.
public enum ConfigLock {
    public static let fileName = ".gridlock.lock"

    /// `/etc/gridlock/.gridlock.lock` for `/etc/gridlock/gridlock.conf`.
    public static func path(forConfig configPath: String) -> String {
        let folder = folder(of: configPath)
        return folder == "/" ? "/\(fileName)" : "\(folder)/\(fileName)"
    }

    /// Takes the lock for `command` (`gridlock enroll`), or says who has it.
    public static func acquire(configPath: String, command: String) throws(ConfigLockError) -> LockFile {
        do {
            return try LockFile.acquire(path: path(forConfig: configPath), purpose: command)
        } catch {
            if case .held(_, let holder) = error { throw .busy(folder: folder(of: configPath), holder: holder) }
            throw .cannotLock(error)
        }
    }

    /// As `acquire`, but nil where the lock file cannot be made because the configuration's
    /// file system is read-only (an image mounted so): nobody can change that configuration,
    /// so there is nothing to keep out, and a command that only writes elsewhere (the state
    /// file of `reset-lockout`) still works there.
    public static func acquireUnlessReadOnly(configPath: String, command: String) throws(ConfigLockError) -> LockFile? {
        do {
            return try acquire(configPath: configPath, command: command)
        } catch {
            if case .cannotLock(.cannotLock(let failure)) = error, failure.errno == .readOnlyFileSystem { return nil }
            throw error
        }
    }

    static func folder(of configPath: String) -> String { ConfigSafety.directory(of: configPath) }
}

public enum ConfigLockError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another enroll or reset-lockout is at work on the same configuration.
    case busy(folder: String, holder: LockHolder?)
    case cannotLock(LockFileError)

    public var description: String {
        switch self {
        case .busy(let folder, let holder):
            let who = holder.map { "\($0.purpose ?? "process") (pid \($0.pid))" } ?? "process"
            return "another \(who) is changing \(folder); try again when it is done"
        case .cannotLock(let error): return "\(error)"
        }
    }
}

extension ConfigLockError: FailureStatus {
    /// EX_TEMPFAIL for a lock held elsewhere: nothing is wrong, trying again later works.
    public var exitStatus: Int32 {
        switch self {
        case .busy: 75
        case .cannotLock: 1
        }
    }
}
