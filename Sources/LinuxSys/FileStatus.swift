import Glibc
import GridlockCore

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
        self.init(info)
    }

    /// The directory entry itself: a symbolic link is described, not followed (a dangling
    /// one is there too, where `init(path:)` would say it does not exist).
    public init(entryAt path: String) throws(SystemCallError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw SystemCallError(operation: "lstat", path: path, errno: .current) }
        self.init(info)
    }

    private init(_ info: stat) {
        owner = info.st_uid
        mode = info.st_mode
        size = Int(info.st_size)
        // glibc's encoding of dev_t (gnu_dev_major), a macro Swift does not import.
        let device = UInt64(info.st_rdev)
        deviceMajor = UInt32((device >> 8) & 0xFFF | (device >> 32) & ~0xFFF)
        identity = Identity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: FileTime(info.st_mtim), changed: FileTime(info.st_ctim))
    }

    /// Which file, and which version of it: equal identities before and after reading
    /// mean nobody replaced or wrote it meanwhile (to the clock's resolution).
    public struct Identity: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
        public var size: Int64
        public var modified: FileTime
        public var changed: FileTime
    }

    public private(set) var identity = Identity(device: 0, inode: 0, size: 0, modified: .epoch, changed: .epoch)

    /// Of an open file: what was opened, whatever the path names by now.
    public init(descriptor: FileDescriptor, path: String) throws(SystemCallError) {
        var info = stat()
        guard fstat(descriptor.rawValue, &info) == 0 else { throw SystemCallError(operation: "fstat", path: path, errno: .current) }
        self.init(info)
    }

    /// Bytes, for a regular file.
    public var size: Int = 0
    /// The driver's number, for a device node (13 for input devices, 226 for DRM cards).
    public var deviceMajor: UInt32 = 0

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
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }
    public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    public var isCharacterDevice: Bool { mode & S_IFMT == S_IFCHR }
    public var isSymbolicLink: Bool { mode & S_IFMT == S_IFLNK }
    public var isSocket: Bool { mode & S_IFMT == S_IFSOCK }
    /// Sticky: only a file's owner may remove or rename it, the mark of a folder shared by
    /// everyone (`/tmp`).
    public var isSticky: Bool { mode & S_ISVTX != 0 }
    public var isWritableByGroup: Bool { mode & S_IWGRP != 0 }
    public var isWritableByOthers: Bool { mode & S_IWOTH != 0 }
    public var isReadableByOthers: Bool { mode & S_IROTH != 0 }
}

/// A file's time stamp exactly as the kernel keeps it: whole seconds and nanoseconds apart,
/// so any stamp a file can carry (`touch -d 2300-01-01`, `touch -d 1900-01-01`) is held and
/// compared without converting, and converting saturates (`nanosecondsSinceEpoch`).
public struct FileTime: Hashable, Comparable, Sendable {
    public var seconds: Int64
    public var nanoseconds: Int64

    public init(seconds: Int64, nanoseconds: Int64) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    init(_ spec: timespec) { self.init(seconds: Int64(spec.tv_sec), nanoseconds: Int64(spec.tv_nsec)) }

    public static let epoch = FileTime(seconds: 0, nanoseconds: 0)

    /// Saturates at the ends of `Int64` for stamps before 1677 or after 2262.
    public var nanosecondsSinceEpoch: Int64 { Nanoseconds.from(seconds: seconds, fraction: nanoseconds) }

    public static func < (a: FileTime, b: FileTime) -> Bool { (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds) }
}

public enum ProcessIdentity {
    public static var effectiveUser: uid_t { geteuid() }
    public static var realUser: uid_t { getuid() }
    public static var processID: Int32 { getpid() }
}
