import Glibc

public enum Directory {
    /// Creates `path` and any missing parents (like `mkdir -p`); an existing directory is fine.
    public static func create(_ path: String, mode: FileMode = 0o755) throws(SystemCallError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, mode) != 0 {
                let error = Errno.current
                guard error == .exists, (try? FileStatus(path: prefix))?.isDirectory == true else {
                    throw SystemCallError(operation: "mkdir", path: prefix, errno: error)
                }
            }
            prefix += "/"
        }
    }
}

extension Directory {
    /// Removes `path` and everything below it; a missing path is fine. For scratch folders
    /// the tools make themselves, so it follows no symbolic links (unlink removes the link).
    public static func removeTree(_ path: String) {
        guard let names = try? entries(path) else {
            unlink(path)
            return
        }
        for name in names {
            let child = "\(path)/\(name)"
            // unlink refuses directories (EISDIR): those are emptied first.
            if unlink(child) != 0 { removeTree(child) }
        }
        rmdir(path)
    }

    /// Removes `path` if it is an empty folder (one a command made and then did not use);
    /// false when it is not, or was not there.
    @discardableResult
    public static func removeIfEmpty(_ path: String) -> Bool {
        rmdir(path) == 0
    }
}

/// Removes a file; false when there was none (or it could not be removed).
@discardableResult
public func unlinkIfPresent(_ path: String) -> Bool {
    unlink(path) == 0
}

extension Directory {
    /// The working directory, or nil when it has been removed (or is unreachable).
    public static func current() -> String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }

    /// The names in a directory, without `.` and `..`, in no particular order.
    public static func entries(_ path: String) throws(SystemCallError) -> [String] {
        guard let dir = opendir(path) else {
            throw SystemCallError(operation: "opendir", path: path, errno: .current)
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
