import Glibc

/// Finding running programs by name, as `pkill -x` does, for the tools that must tell a
/// running daemon to reload.
public enum ProcessTable {
    /// Processes whose command name (`/proc/PID/comm`) is exactly `name`, except this one.
    public static func processes(named name: String) -> [Int32] {
        var found: [Int32] = []
        for entryName in (try? Directory.entries("/proc")) ?? [] {
            guard let pid = Int32(entryName), pid != getpid(),
                  let comm = try? AtomicFile.read("/proc/\(pid)/comm") else { continue }
            if String(decoding: comm, as: UTF8.self).split(separator: "\n").first.map(String.init) == name {
                found.append(pid)
            }
        }
        return found.sorted()
    }
}
