import Glibc

/// Permission bits (and, in `FileStatus.mode`, the file type bits) as the kernel keeps them.
public typealias FileMode = mode_t

/// Owner and mode of a file system object, for the daemon's safety checks.
public struct FileStatus: Hashable, Sendable {
    public var owner: uid_t
    public var mode: FileMode

    /// Follows symbolic links, as opening the file would.
    public init(path: String) throws(SystemCallError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SystemCallError(operation: "stat", path: path, errno: .current) }
        owner = info.st_uid
        mode = info.st_mode
    }

    /// Of an open file: what was opened, whatever the path names by now.
    public init(descriptor: FileDescriptor, path: String) throws(SystemCallError) {
        var info = stat()
        guard fstat(descriptor.rawValue, &info) == 0 else { throw SystemCallError(operation: "fstat", path: path, errno: .current) }
        owner = info.st_uid
        mode = info.st_mode
        size = Int(info.st_size)
    }

    /// Bytes, for a regular file.
    public var size: Int = 0

    public var permissions: FileMode { mode & 0o7777 }
    public var isRegularFile: Bool { mode & S_IFMT == S_IFREG }

    /// What it is, in words, for a message refusing something that is not a regular file.
    public var kind: String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
    public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    public var isWritableByGroup: Bool { mode & S_IWGRP != 0 }
    public var isWritableByOthers: Bool { mode & S_IWOTH != 0 }
    public var isReadableByOthers: Bool { mode & S_IROTH != 0 }
}

public enum ProcessIdentity {
    public static var effectiveUser: uid_t { geteuid() }
    public static var realUser: uid_t { getuid() }
    public static var processID: Int32 { getpid() }
}
