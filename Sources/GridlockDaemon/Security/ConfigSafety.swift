import GridlockCore
import LinuxSys

/// Whoever can write the config can add a pattern of their own; whoever can write the
/// state directory can clear the failure count. gridlockd refuses to start on either.
public enum ConfigSafety {
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    /// The main config, every drop-in holding a `[pattern]` hash, and the state directory.
    /// Files must belong to root (or to the user running the daemon, for a test setup
    /// without root) and not be writable by group or others.
    public static func problems(loaded: LoadedConfig, runningAs user: UInt32 = ProcessIdentity.effectiveUser) -> [Problem] {
        var files = [loaded.files.first].compactMap { $0 }
        for pattern in loaded.config.patterns where !files.contains(pattern.source.file) {
            files.append(pattern.source.file)
        }
        var problems: [Problem] = []
        for file in files {
            let status: FileStatus
            do {
                status = try FileStatus(path: file)
            } catch {
                problems.append(Problem(path: file, message: "\(error.errno)"))
                continue
            }
            if status.owner != 0, status.owner != user {
                problems.append(Problem(
                    path: file, message: "owned by uid \(status.owner), not root; fix: chown root:root \(file)"))
            }
            if status.isWritableByGroup || status.isWritableByOthers {
                problems.append(Problem(
                    path: file,
                    message: "writable by \(status.isWritableByOthers ? "others" : "its group") (mode \(octal(status.permissions))), so anyone in it could add a pattern; fix: chmod go-w \(file) (0600 for files with hashes)"))
            }
        }
        let stateDirectory = directory(of: loaded.config.lockout.stateFile)
        if let status = try? FileStatus(path: stateDirectory), status.isWritableByOthers {
            problems.append(Problem(
                path: stateDirectory,
                message: "the state directory is world-writable (mode \(octal(status.permissions))), so anyone could reset the failure count; fix: chmod 0700 \(stateDirectory) (systemd's StateDirectory= does this)"))
        }
        return problems
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
