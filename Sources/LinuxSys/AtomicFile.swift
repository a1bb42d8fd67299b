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

    /// A file a program trusts only so far (a config, a state file): opened without
    /// blocking, so a FIFO or a device put in its place cannot hang the caller, refused
    /// unless it is a regular file, and read up to `limit` bytes.
    public static func regularFileContents(of path: String, limit: Int) throws(BoundedReadError) -> [UInt8] {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, [.readOnly, .nonBlocking])
        } catch {
            throw .system(error)
        }
        defer { file.close() }
        let status: FileStatus
        do {
            status = try FileStatus(descriptor: file, path: path)
        } catch {
            throw .system(error)
        }
        guard status.isRegularFile else { throw .notARegularFile(path: path, kind: status.kind) }
        guard status.size <= limit else { throw .tooLarge(path: path, limit: limit) }
        let read: (bytes: [UInt8], exceeded: Bool)
        do {
            read = try readToEnd(file, path: path, limit: limit)
        } catch {
            throw .system(error)
        }
        // It grew after the check: still never more than the limit.
        guard !read.exceeded else { throw .tooLarge(path: path, limit: limit) }
        return read.bytes
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = path[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }
}

/// Why `AtomicFile.regularFileContents` refused a file.
public enum BoundedReadError: Error, Hashable, Sendable, CustomStringConvertible {
    case system(SystemCallError)
    case notARegularFile(path: String, kind: String)
    case tooLarge(path: String, limit: Int)

    /// The reason alone, for messages that name the file already.
    public var reason: String {
        switch self {
        case .system(let error): error.errno.text
        case .notARegularFile(_, let kind): "it is \(kind), not a regular file"
        case .tooLarge(_, let limit): "larger than \(limit) bytes"
        }
    }

    public var errno: Errno? {
        if case .system(let error) = self { return error.errno }
        return nil
    }

    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .notARegularFile(let path, _), .tooLarge(let path, _): "\(path): \(reason)"
        }
    }
}
