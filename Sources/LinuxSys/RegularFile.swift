import Glibc

/// The one way a file named by someone else (a config, a drop-in, a font, a theme image, a
/// recording, the state file) is opened: without blocking, so a FIFO or a device put in its
/// place cannot hang the caller in open(2); refused unless what was opened is a regular
/// file (fstat of the descriptor, not of the path, so nothing can be swapped in between);
/// and refused when larger than the caller's limit. A symbolic link is followed (fonts and
/// images are often links into /usr/share), but it must lead to a regular file.
public enum RegularFile {
    /// The open descriptor (the caller closes it) and what it is. `limit` nil: any size,
    /// for a reader that streams in constant memory.
    public static func open(_ path: String, limit: Int?) throws(BoundedReadError) -> (file: FileDescriptor, status: FileStatus) {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, [.readOnly, .nonBlocking])
        } catch {
            throw .system(error)
        }
        let status: FileStatus
        do {
            status = try FileStatus(descriptor: file, path: path)
        } catch {
            file.close()
            throw .system(error)
        }
        guard status.isRegularFile else {
            file.close()
            throw .notARegularFile(path: path, kind: status.kind)
        }
        if let limit, status.size > limit {
            file.close()
            throw .tooLarge(path: path, limit: limit)
        }
        return (file, status)
    }
}

/// Why `RegularFile.open` (and the readers built on it) refused a file.
public enum BoundedReadError: Error, Hashable, Sendable, CustomStringConvertible {
    case system(SystemCallError)
    case notARegularFile(path: String, kind: String)
    case tooLarge(path: String, limit: Int)
    case empty(path: String)

    /// The reason alone, for messages that name the file already.
    public var reason: String {
        switch self {
        case .system(let error): error.errno.text
        case .notARegularFile(_, let kind): "it is \(kind), not a regular file"
        case .tooLarge(_, let limit): "larger than \(limit) bytes"
        case .empty: "the file is empty"
        }
    }

    public var errno: Errno? {
        if case .system(let error) = self { return error.errno }
        return nil
    }

    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .notARegularFile(let path, _), .tooLarge(let path, _), .empty(let path): "\(path): \(reason)"
        }
    }
}
