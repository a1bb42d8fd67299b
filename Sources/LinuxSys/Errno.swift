import Glibc

/// An `errno` value that prints the way a person reading a journal needs it: the
/// C library's text plus the symbolic name they would search for.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Read immediately after the failing call: any later libc call may overwrite it.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    public static let ioError = Errno(rawValue: EIO)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let busy = Errno(rawValue: EBUSY)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let notImplemented = Errno(rawValue: ENOSYS)
    public static let notATerminal = Errno(rawValue: ENOTTY)
    public static let exists = Errno(rawValue: EEXIST)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let noSuchProcess = Errno(rawValue: ESRCH)
    public static let noChild = Errno(rawValue: ECHILD)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    /// EOPNOTSUPP: the driver or file system does not offer the operation at all.
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    /// A Wayland compositor found the client broke its protocol (libwayland's wl_display_get_error).
    public static let protocolError = Errno(rawValue: EPROTO)
    public static let brokenPipe = Errno(rawValue: EPIPE)

    /// The symbolic name for the errnos this daemon meets in practice; nil for the rest.
    public var name: String? {
        switch rawValue {
        case EACCES: "EACCES"
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case ENODEV: "ENODEV"
        case EIO: "EIO"
        case EAGAIN: "EAGAIN"
        case EINTR: "EINTR"
        case EBUSY: "EBUSY"
        case EINVAL: "EINVAL"
        case ENOSYS: "ENOSYS"
        case ENOTTY: "ENOTTY"
        case EEXIST: "EEXIST"
        case ENOSPC: "ENOSPC"
        case EROFS: "EROFS"
        case ESRCH: "ESRCH"
        case ECHILD: "ECHILD"
        case EBADF: "EBADF"
        case ENOTDIR: "ENOTDIR"
        case EISDIR: "EISDIR"
        case ENAMETOOLONG: "ENAMETOOLONG"
        case ECONNREFUSED: "ECONNREFUSED"
        case ENOEXEC: "ENOEXEC"
        case ENOMEM: "ENOMEM"
        case EMFILE: "EMFILE"
        case EOPNOTSUPP: "EOPNOTSUPP"
        case EPIPE: "EPIPE"
        case EPROTO: "EPROTO"
        default: nil
        }
    }

    /// Runs a library call that reports failure in its own terms but may leave an errno
    /// behind that says more (cairo failing to open a PNG): its result, and the errno it
    /// set, or nil when it set none.
    public static func leftBehind<Result>(by body: () -> Result) -> (result: Result, errno: Errno?) {
        errno = 0
        let result = body()
        let left = errno
        return (result, left == 0 ? nil : Errno(rawValue: left))
    }

    /// `strerror` shares a static buffer between threads; the XSI `strerror_r` does not.
    public var text: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard strerror_r(rawValue, &buffer, buffer.count) == 0 else { return "Unknown error \(rawValue)" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    public var description: String { "\(text) (\(name ?? "errno \(rawValue)"))" }
}
