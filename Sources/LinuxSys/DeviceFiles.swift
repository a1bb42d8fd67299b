import Glibc

/// The file-system calls the input adapter needs to find, open and identify device
/// nodes, kept here so that no other target calls libc.
extension FileDescriptor {
    /// Opens a device node for a poll loop: read-only (reading and EVIOCGRAB need no
    /// more), non-blocking from the start so a loop never stalls on it, close-on-exec
    /// (added by `open`) so an unlock action never inherits the touch panel.
    public static func openDeviceForReading(_ path: String) throws(SystemCallError) -> FileDescriptor {
        try open(path, [.readOnly, .nonBlocking])
    }

    /// The device number of the character or block device this descriptor is open on;
    /// nil for anything else. Used to find the device's record in the udev database.
    public func deviceNumber() throws(SystemCallError) -> DeviceNumber? {
        var info = stat()
        _ = try systemCall("fstat", path: "fd \(rawValue)") { fstat(rawValue, &info) }
        let type = info.st_mode & S_IFMT
        guard type == S_IFCHR || type == S_IFBLK else { return nil }
        return DeviceNumber(rawValue: UInt64(info.st_rdev))
    }
}

/// A device's major:minor, as udev names its database files (`/run/udev/data/c13:67`).
public struct DeviceNumber: Hashable, Sendable, CustomStringConvertible {
    public var major: UInt32
    public var minor: UInt32

    public init(major: UInt32, minor: UInt32) {
        self.major = major
        self.minor = minor
    }

    /// Splits a `dev_t` as glibc's major()/minor() do (macros Swift does not import).
    public init(rawValue dev: UInt64) {
        major = UInt32(truncatingIfNeeded: ((dev >> 8) & 0xfff) | ((dev >> 32) & ~UInt64(0xfff)))
        minor = UInt32(truncatingIfNeeded: (dev & 0xff) | ((dev >> 12) & ~UInt64(0xff)))
    }

    public var description: String { "\(major):\(minor)" }
}

public enum PathLookup {
    /// The absolute path with every symbolic link resolved (realpath(3)): what a
    /// `/dev/input/by-path/...` or `by-id` link points at.
    public static func resolve(_ path: String) throws(SystemCallError) -> String {
        guard let resolved = realpath(path, nil) else {
            throw SystemCallError(operation: "realpath", path: path, errno: .current)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether something (a file, directory, device node or a link to one) exists at `path`.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The first `name` in the folders of `searchPath` (a PATH value) that this process may
    /// execute, as a shell's command lookup finds it; nil when there is none. For a program a
    /// person installs (valgrind), since spawning does no PATH search.
    public static func executable(named name: String, searchPath: String) -> String? {
        for folder in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Why `path` cannot be opened for reading (missing, permission, a folder on the way
    /// that is not one); nil when it can.
    public static func checkReadable(_ path: String) -> Errno? {
        access(path, R_OK) == 0 ? nil : .current
    }
}
