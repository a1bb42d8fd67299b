import GridlockCore
import LinuxSys

/// What was found at the state path. The caller decides policy; a corrupt or
/// unreadable file must not be read as "no failures", or deleting or scribbling on it
/// would reset a lockout.
public enum AttemptLoad: Hashable, Sendable {
    case missing
    case loaded(SavedState)
    case corrupt(reason: String)
    case unreadable(BoundedReadError)
}

/// Persists `SavedState` across restarts and power cuts: each save atomically
/// replaces the whole file (mode 0600), so a reader sees the old or the new state.
public enum AttemptStore {
    public static let fileMode: FileMode = 0o600

    public static func load(from path: String) -> AttemptLoad {
        // A dangling symbolic link would read as "no file", which on a new panel means no
        // failures and no uses. gridlockd only ever writes a regular file here, by rename.
        do {
            if try FileStatus(entryAt: path).isSymbolicLink {
                return .unreadable(.notARegularFile(path: path, kind: "a symbolic link"))
            }
        } catch where error.errno == .noSuchFile {
            return .missing
        } catch {
            return .unreadable(.system(error))
        }
        let bytes: [UInt8]
        do {
            // Bounded and non-blocking: a FIFO or a huge file put there is unreadable (a
            // lockout), never a hang.
            bytes = try AtomicFile.regularFileContents(of: path, limit: AttemptFileFormat.maximumSize)
        } catch where error.errno == .noSuchFile {
            return .missing
        } catch {
            return .unreadable(error)
        }
        switch AttemptFileFormat.decode(bytes) {
        case .success(let state): return .loaded(state)
        case .failure(let corrupt): return .corrupt(reason: corrupt.reason)
        }
    }

    /// Creates nothing but the file: the directory must exist (systemd's
    /// `StateDirectory=` makes it with the right owner), and the error says so.
    public static func save(_ state: SavedState, to path: String) throws(AttemptStoreError) {
        do {
            try AtomicFile.write(AttemptFileFormat.encode(state), to: path, mode: fileMode)
        } catch {
            throw AttemptStoreError(path: path, underlying: error)
        }
    }
}

public struct AttemptStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var underlying: SystemCallError

    public var description: String {
        var text = "cannot save attempt state to \(path): \(underlying)"
        if underlying.errno == .noSuchFile {
            text += " (the directory \(directory) must exist; gridlockd creates no directories, use StateDirectory= in the unit)"
        }
        return text
    }

    private var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
