import GridlockConfiguration
import GridlockCore
import LinuxSys

/// Whoever can write the config, a drop-in or a folder holding them can add a pattern or
/// set `schedule=none`; whoever can write the state directory can clear the failure count;
/// whoever can read a hash can search it offline in hours. gridlockd refuses to start on
/// any of these, and `gridlock check-config` says so, each with the command that fixes it.
public enum ConfigSafety {
    /// Every file read and the folders holding them must belong to root (or to the user
    /// running the daemon, for a test setup without root) and not be writable by group or
    /// others; files with hashes must not be readable by others either. The same for the
    /// drop-in folder even while it is empty (a file put there later is read at the next
    /// reload), and for the state directory and the state file, when they exist (systemd's
    /// `StateDirectory=` makes the directory 0700).
    /// `socketAt`: where `[session] socket=` was written (its folder's problems are said there).
    public static func problems(
        files: [String], dropInDirectory: String? = nil, config: GridlockConfig,
        runningAs user: UInt32 = ProcessIdentity.effectiveUser, socketAt: SourceLocation? = nil
    ) -> [ConfigDiagnostic] {
        let hashFiles = Set(config.patterns.map(\.source.file))
        var folders: [String] = []
        for folder in files.map(directory(of:)) + [dropInDirectory].compactMap({ $0 }) where !folders.contains(folder) {
            folders.append(folder)
        }
        var problems: [ConfigDiagnostic] = []
        for file in files {
            // A file that cannot be read at all is the loader's diagnostic already.
            problems += check(file, holds: hashFiles.contains(file) ? .hashes : .settings, user: user, missingIsFine: true)
        }
        for folder in folders {
            problems += check(folder, holds: .configFiles, user: user, missingIsFine: true)
        }
        problems += check(directory(of: config.lockout.stateFile), holds: .state, user: user, missingIsFine: true)
        problems += check(config.lockout.stateFile, holds: .state, user: user, missingIsFine: true)
        if config.session.enabled {
            let at = socketAt ?? SourceLocation(file: files.first ?? ConfigVerdict.defaultPath, line: 0)
            problems += socketFolderProblems(config.session.socket, user: user).map {
                ConfigDiagnostic(location: at, message: "[session] socket: \($0.location.file): \($0.message)")
            }
        }
        return problems
    }

    /// The session socket's folder, by the rule of the state folder: root's (or the
    /// daemon's user's), writable by no one else, and no symbolic link, since whoever could
    /// rename in it could put a socket of their own where lock faces look for gridlockd,
    /// or swap in a link while gridlockd sets the socket's mode. A folder that is missing
    /// is made by gridlockd (root's, 0755); then the nearest one that exists is judged.
    /// Every folder above must be safe too (root's or the user's; writable by others only
    /// with the sticky bit, as /tmp, where no one renames what is not theirs): the owner of
    /// any of them could swap the whole branch.
    static func socketFolderProblems(_ socket: String, user: UInt32) -> [ConfigDiagnostic] {
        var folder = directory(of: socket)
        while folder != "/" {
            guard let entry = try? FileStatus(entryAt: folder) else {
                folder = directory(of: folder)
                continue
            }
            if entry.isSymbolicLink {
                return [problem(folder, "a symbolic link, so whoever can change it decides where the socket is made; fix: write socket= with the real folder (readlink -f \(folder))")]
            }
            break
        }
        var problems = check(folder, holds: .sessionSocket, user: user, missingIsFine: false)
        var above = folder
        while above != "/" {
            above = directory(of: above)
            guard let status = try? FileStatus(path: above) else { continue }
            if status.owner != 0, status.owner != user {
                problems.append(problem(above, "owned by uid \(status.owner), who could swap the folder of the session socket below it; \(Contents.sessionSocket.folderOfItsOwn)"))
            } else if (status.isWritableByGroup || status.isWritableByOthers), !status.isSticky {
                problems.append(problem(above, "writable by \(status.isWritableByOthers ? "others" : "its group") (mode \(octal(status.permissions))), who could swap the folder of the session socket below it; \(Contents.sessionSocket.folderOfItsOwn)"))
            }
        }
        return problems
    }

    private enum Contents {
        case settings, hashes, configFiles, state, sessionSocket

        /// What someone who could change it could do: the reason in the message.
        var risk: String {
            switch self {
            case .settings: "anyone in it could change the lock's settings (a schedule of none, say)"
            case .hashes: "anyone in it could add a pattern"
            case .configFiles: "anyone in it could replace the configuration files"
            case .state: "anyone in it could reset the failure count"
            case .sessionSocket: "anyone in it could put a socket of their own where lock faces look for gridlockd"
            }
        }

        /// For a folder that others share: where to put it instead. Changing a shared
        /// folder's owner or mode (`chmod 0700 /tmp`) would break everything else using it.
        var folderOfItsOwn: String {
            switch self {
            case .state: "put the state file in a folder of its own, such as /var/lib/gridlock (systemd's StateDirectory=gridlock makes it 0700)"
            case .sessionSocket: "put the socket in a folder of its own, such as /run/gridlock/ (gridlockd makes it, root's, when it is missing)"
            default: "keep the configuration and its drop-ins in a folder of their own, such as /etc/gridlock"
            }
        }
    }

    private static func check(_ path: String, holds contents: Contents, user: UInt32, missingIsFine: Bool) -> [ConfigDiagnostic] {
        let status: FileStatus
        do {
            status = try FileStatus(path: path)
        } catch {
            return error.errno == .noSuchFile && missingIsFine ? [] : [problem(path, "\(error.errno)")]
        }
        var problems: [ConfigDiagnostic] = []
        // A folder with the sticky bit (/tmp, /var/tmp, /dev/shm) is shared by everyone, and
        // its mode is not to be touched. One of another user's (a home), or a state folder
        // others may write to (/var/local), may well be shared too: a folder of its own first.
        let shared = status.isDirectory
            && (status.isSticky || (status.owner != 0 && status.owner != user)
                || ((contents == .state || contents == .sessionSocket) && (status.isWritableByGroup || status.isWritableByOthers)))
        if status.owner != 0, status.owner != user {
            let chown = "chown root:root \(path)"
            let fix = shared ? "\(contents.folderOfItsOwn), or, if \(path) is gridlock's alone, \(chown)" : chown
            problems.append(problem(path, "owned by uid \(status.owner), not root; fix: \(fix)"))
        }
        if status.isWritableByGroup || status.isWritableByOthers {
            let who = status.isWritableByOthers ? "others" : "its group"
            let chmod = contents == .state && status.isDirectory ? "chmod 0700 \(path) (systemd's StateDirectory= does this)"
                : contents == .state ? "chmod 0600 \(path) (gridlockd writes it so)"
                : contents == .hashes ? "chmod 0600 \(path)" : "chmod go-w \(path)"
            let fix = !shared ? chmod
                : status.isSticky ? "\(path) is a folder everyone shares (it has the sticky bit, as /tmp has): \(contents.folderOfItsOwn)"
                : "\(contents.folderOfItsOwn), or, if \(path) is gridlock's alone, \(chmod)"
            problems.append(problem(path, "writable by \(who) (mode \(octal(status.permissions))), so \(contents.risk); fix: \(fix)"))
        }
        if contents == .hashes, status.isReadableByOthers, !status.isWritableByOthers {
            problems.append(problem(
                path, "readable by others (mode \(octal(status.permissions))), and a leaked hash of a pattern is searched in hours; fix: chmod 0600 \(path)"))
        }
        return problems
    }

    private static func problem(_ path: String, _ message: String) -> ConfigDiagnostic {
        ConfigDiagnostic(file: path, line: 0, message: message)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func octal(_ mode: UInt32) -> String {
        var digits = ""
        var value = mode
        repeat {
            digits = String(value % 8) + digits
            value /= 8
        } while value > 0
        return "0" + digits
    }
}
