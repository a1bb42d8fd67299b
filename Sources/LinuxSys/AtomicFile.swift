import Glibc

/// Whole-file replacement that a power cut leaves either old or new, never torn.
public enum AtomicFile {
    /// Writes `path.tmp-<pid>` with exactly `mode` (the umask is overridden with
    /// fchmod), fsyncs it, renames it over `path` and fsyncs the directory so the
    /// rename itself is durable. The temporary file is removed on every failure
    /// before the rename; after it there is nothing left to remove.
    ///
    /// One writer per path per process: the temporary name is only unique per pid. An
    /// existing temporary with our pid can only be left from an earlier boot or a
    /// crashed process that had the same pid, so it is removed and the open retried.
    public static func write(_ bytes: [UInt8], to path: String, mode: FileMode) throws(SystemCallError) {
        let temporary = "\(path).tmp-\(getpid())"
        let flags: OpenFlags = [.create, .exclusive, .writeOnly]
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(temporary, flags, mode: mode)
        } catch where error.errno == .exists {
            unlink(temporary)
            file = try FileDescriptor.open(temporary, flags, mode: mode)
        }

        do {
            _ = try systemCall("fchmod", path: temporary) { fchmod(file.rawValue, mode) }
            try file.writeAll(bytes)
            _ = try systemCall("fsync", path: temporary) { fsync(file.rawValue) }
        } catch {
            file.close()
            unlink(temporary)
            throw error
        }
        // A failing close after a successful fsync loses nothing.
        file.close()

        do {
            _ = try systemCall("rename to \(path)", path: temporary) { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }

        let directoryPath = directory(of: path)
        let directory = try FileDescriptor.open(directoryPath, [.readOnly, .directory])
        defer { directory.close() }
        _ = try systemCall("fsync", path: directoryPath) { fsync(directory.rawValue) }
    }

    /// The whole file, or nil when it does not exist.
    public static func read(_ path: String) throws(SystemCallError) -> [UInt8]? {
        do {
            return try contents(of: path)
        } catch where error.errno == .noSuchFile {
            return nil
        }
    }

    /// The whole file, for files that must exist: a missing one is an error like any other.
    public static func contents(of path: String) throws(SystemCallError) -> [UInt8] {
        let file = try FileDescriptor.open(path, .readOnly)
        defer { file.close() }
        return try readToEnd(file, path: path, limit: .max).bytes
    }

    /// Reads `file` to its end, or until it has given more than `limit` bytes (`exceeded`).
    private static func readToEnd(
        _ file: FileDescriptor, path: String, limit: Int
    ) throws(SystemCallError) -> (bytes: [UInt8], exceeded: Bool) {
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { Glibc.read(file.rawValue, raw.baseAddress, raw.count) }
            }
            if count < 0 { throw SystemCallError(operation: "read", path: path, errno: .current) }
            if count == 0 { return (contents, false) }
            contents.append(contentsOf: chunk[0..<count])
            if contents.count > limit { return (contents, true) }
        }
    }

    /// Puts a finished file in place under its final name in one step (no fsync: for
    /// output someone may read while it is made, like frames, not for state).
    public static func move(_ source: String, to destination: String) throws(SystemCallError) {
        _ = try systemCall("rename to \(destination)", path: source) { rename(source, destination) }
    }

    /// A file a program trusts only so far (a config, a state file, a theme image), whole:
    /// opened as `RegularFile.open` does (without blocking, regular files only, at most
    /// `limit` bytes), and never more than `limit` bytes read even if it grows meanwhile.
    public static func regularFileContents(of path: String, limit: Int) throws(BoundedReadError) -> [UInt8] {
        let (file, _) = try RegularFile.open(path, limit: limit)
        defer { file.close() }
        let read: (bytes: [UInt8], exceeded: Bool)
        do {
            read = try readToEnd(file, path: path, limit: limit)
        } catch {
            throw .system(error)
        }
        guard !read.exceeded else { throw .tooLarge(path: path, limit: limit) }
        return read.bytes
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = path[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }
}
