import CLinux
import Glibc

/// This process's program: where its file is, and replacing it with another (execv(2)):
/// the same pid, environment, descriptors without close-on-exec, and signal mask, so a
/// service manager that started one program sees the other as its main process.
public enum ProcessImage {
    /// The running program's file, every link resolved (`/proc/self/exe`).
    public static func executablePath() throws(SystemCallError) -> String {
        try PathLookup.resolve("/proc/self/exe")
    }

    /// The name `ps`, `pgrep` and `/proc/PID/comm` give this process (its main thread; at
    /// most 15 bytes are kept): a program run in another's place keeps that one's name.
    public static func setCommandName(_ name: String) throws(SystemCallError) {
        _ = try systemCall("prctl(PR_SET_NAME)") { gridlock_set_command_name(name) }
    }

    /// Runs `path` in this process with `arguments` (the first is its name, as it will call
    /// itself); returns only by throwing, when the kernel refused.
    public static func replace(with path: String, arguments: [String]) throws(SystemCallError) -> Never {
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        execv(path, pointers)
        throw SystemCallError(operation: "execv", path: path, errno: .current)
    }
}
