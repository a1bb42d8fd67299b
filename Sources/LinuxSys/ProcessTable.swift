import Glibc

/// Finding running programs by name, as `pkill -x` does, for the tools that must tell a
/// running daemon to reload.
public enum ProcessTable {
    /// Processes whose command name (`/proc/PID/comm`) is exactly `name`, except this one.
    /// With `user`, only those running as that uid (the owner of `/proc/PID`).
    public static func processes(named name: String, user: UInt32? = nil) -> [Int32] {
        var found: [Int32] = []
        for entryName in (try? Directory.entries("/proc")) ?? [] {
            guard let pid = Int32(entryName), pid != getpid(),
                  let comm = try? AtomicFile.read("/proc/\(pid)/comm") else { continue }
            if let user {
                var status = stat()
                guard stat("/proc/\(pid)", &status) == 0, status.st_uid == user else { continue }
            }
            if String(decoding: comm, as: UTF8.self).split(separator: "\n").first.map(String.init) == name {
                found.append(pid)
            }
        }
        return found.sorted()
    }
}
