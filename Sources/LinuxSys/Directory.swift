import Glibc

public enum Directory {
    /// Creates `path` and any missing parents (like `mkdir -p`); an existing directory is fine.
    public static func create(_ path: String, mode: mode_t = 0o755) throws(SystemCallError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, mode) != 0 {
                let error = Errno.current
                var info = stat()
                guard error == .exists, stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    throw SystemCallError(operation: "mkdir", path: prefix, errno: error)
                }
            }
            prefix += "/"
        }
    }
}
