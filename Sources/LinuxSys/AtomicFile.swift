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
    ///
    /// `durable: false` leaves out both fsyncs: still old or new to every reader, but a power
    /// cut may bring back the old one (or, on some file systems, an empty file). For a record
    /// that only adds to a durable one, where a write on every change must cost no disk wait.
    public static func write(_ bytes: [UInt8], to path: String, mode: FileMode, durable: Bool = true) throws(SystemCallError) {
        try StagedFile.write(bytes, for: path, temporaryPath: "\(path).tmp-\(getpid())", mode: mode, durable: durable)
            .install(durable: durable)
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
    /// `sizeHint` (what fstat said) sizes the buffer once, so a large file is read in a few
    /// large reads straight into it; one byte more is asked for to see the end.
    private static func readToEnd(
        _ file: FileDescriptor, path: String, limit: Int, sizeHint: Int = 0
    ) throws(SystemCallError) -> (bytes: [UInt8], exceeded: Bool) {
        let most = limit == .max ? Int.max : limit + 1
        var buffer = [UInt8](repeating: 0, count: min(max(sizeHint + 1, 4096), most))
        var filled = 0
        while true {
            if filled == buffer.count {
                buffer += [UInt8](repeating: 0, count: min(buffer.count, most - buffer.count))
            }
            let count = buffer.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { Glibc.read(file.rawValue, raw.baseAddress! + filled, raw.count - filled) }
            }
            if count < 0 { throw SystemCallError(operation: "read", path: path, errno: .current) }
            filled += count
            if count == 0 || filled > limit {
                buffer.removeSubrange(filled...)
                return (buffer, filled > limit)
            }
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
        let (file, status) = try RegularFile.open(path, limit: limit)
        defer { file.close() }
        let read: (bytes: [UInt8], exceeded: Bool)
        do {
            read = try readToEnd(file, path: path, limit: limit, sizeHint: status.size)
        } catch {
            throw .system(error)
        }
        guard !read.exceeded else { throw .tooLarge(path: path, limit: limit) }
        return read.bytes
    }

    /// The first `count` bytes (fewer if the file is shorter) of a file opened as
    /// `regularFileContents` opens it, whose whole must be at most `limit` bytes: for a
    /// check that needs only a header.
    public static func regularFileStart(of path: String, count: Int, limit: Int) throws(BoundedReadError) -> [UInt8] {
        try regularFileHead(of: path, count: count, limit: limit).start
    }

    /// `regularFileStart` and the whole file's size in bytes, from one open: for a check
    /// that bounds a file's bytes by what its header says before reading the rest.
    public static func regularFileHead(of path: String, count: Int, limit: Int) throws(BoundedReadError) -> (start: [UInt8], size: Int) {
        let (file, status) = try RegularFile.open(path, limit: limit)
        defer { file.close() }
        var start = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = start.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { Glibc.read(file.rawValue, raw.baseAddress! + filled, raw.count - filled) }
            }
            if read < 0 { throw .system(SystemCallError(operation: "read", path: path, errno: .current)) }
            if read == 0 { break }
            filled += read
        }
        return (Array(start[..<filled]), status.size)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = path[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }
}
