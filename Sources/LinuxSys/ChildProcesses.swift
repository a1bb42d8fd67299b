import CLinux
import Glibc

/// This process as a parent. As a child subreaper it also becomes the parent of whatever
/// the programs it ran left orphaned (a `setsid -f` in a hook, a daemonising action), so
/// it can still stop those and must reap them: nobody else will.
public enum ChildProcesses {
    /// What became of a child, as one non-blocking `waitpid` tells.
    public enum State: Hashable, Sendable {
        case running
        /// Reaped just now: the pid is free again and must not be signalled any more.
        case ended(ExitStatus)
        /// Not (or no longer) a child of this process.
        case notAChild
    }

    /// PR_SET_CHILD_SUBREAPER for this process (not undone by exec, inherited by no child).
    public static func becomeSubreaper() throws(SystemCallError) {
        _ = try systemCall("prctl(PR_SET_CHILD_SUBREAPER)") { gridlock_set_child_subreaper() }
    }

    public static var isSubreaper: Bool { gridlock_is_child_subreaper() == 1 }

    /// The pids of this process's children, ended ones not yet reaped (zombies) included:
    /// from each thread's `/proc/self/task/TID/children` (an adopted orphan may hang under
    /// any thread), or where the kernel lacks those files (CONFIG_PROC_CHILDREN), from
    /// the parent field of every `/proc/PID/stat`. Empty without /proc.
    public static func list() -> [Int32] {
        fromTaskFiles() ?? fromStatFiles()
    }

    static func fromTaskFiles() -> [Int32]? {
        guard let threads = try? Directory.entries("/proc/self/task") else { return nil }
        var children: Set<Int32> = []
        for thread in threads {
            // A thread that ended meanwhile has no file: its children moved to another.
            guard let text = try? AtomicFile.read("/proc/self/task/\(thread)/children") else {
                if (try? FileStatus(path: "/proc/self/task/\(thread)")) != nil { return nil }
                continue
            }
            for field in String(decoding: text, as: UTF8.self).split(separator: " ") {
                if let pid = Int32(field.trimmingSpaces) { children.insert(pid) }
            }
        }
        return children.sorted()
    }

    static func fromStatFiles() -> [Int32] {
        let me = getpid()
        var children: [Int32] = []
        for name in (try? Directory.entries("/proc")) ?? [] {
            guard let pid = Int32(name), let stat = try? AtomicFile.read("/proc/\(pid)/stat"),
                  parentField(ofStat: stat) == me else { continue }
            children.append(pid)
        }
        return children.sorted()
    }

    /// Field 4 of `/proc/PID/stat`, counted after the command name's closing parenthesis
    /// (the name itself may hold spaces and parentheses).
    static func parentField(ofStat stat: [UInt8]) -> Int32? {
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 1 else { return nil }
        return Int32(String(decoding: fields[1], as: UTF8.self))
    }

    /// The process group of `pid`, or nil once it is gone.
    public static func processGroup(of pid: Int32) -> Int32? {
        let group = getpgid(pid)
        return group < 0 ? nil : group
    }

    /// Its command name (`/proc/PID/comm`, at most 15 bytes), for the journal.
    public static func commandName(of pid: Int32) -> String? {
        guard let bytes = try? AtomicFile.read("/proc/\(pid)/comm") else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    /// Reaps `pid` if it has ended. Only for children no one else reaps: once reaped, the
    /// owner of a `SpawnedProcess` would never learn its status.
    public static func reapIfEnded(_ pid: Int32) -> State {
        var status: Int32 = 0
        let result = retryingOnInterrupt { waitpid(pid, &status, WNOHANG) }
        if result == 0 { return .running }
        if result < 0 { return .notAChild }
        // Without WUNTRACED only an exit or a killing signal is reported.
        return ExitStatus(waitStatus: status).map { .ended($0) } ?? .running
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let last = text.last, last == "\n" || last == " " { text = text.dropLast() }
        return text
    }
}
