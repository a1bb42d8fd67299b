import Glibc

/// This process's program: where its file is, and replacing it with another (execv(2)):
/// the same pid, environment, descriptors without close-on-exec, and signal mask, so a
/// service manager that started one program sees the other as its main process.
public enum ProcessImage {
    /// The running program's file, every link resolved (`/proc/self/exe`).
    public static func executablePath() throws(SystemCallError) -> String {
        try PathLookup.resolve("/proc/self/exe")
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
