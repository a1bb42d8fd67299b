import Glibc

/// A failed system call with what a person needs to act on it, e.g.
/// `open /dev/input/event3: Permission denied (EACCES)`.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    public var operation: String
    public var path: String?
    public var errno: Errno

    public init(operation: String, path: String? = nil, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    public var description: String {
        if let path { return "\(operation) \(path): \(errno)" }
        return "\(operation): \(errno)"
    }
}

/// Runs `body` until it stops failing with EINTR. A signal arriving mid-call is not a
/// failure of the call, and the daemon's signals are blocked only where it chose to
/// block them, so other threads do see EINTR.
///
/// Not for `close(2)`: on Linux the descriptor is released even when it reports EINTR,
/// and retrying could close a descriptor another thread has just been handed.
@inlinable
public func retryingOnInterrupt<Result: FixedWidthInteger>(_ body: () -> Result) -> Result {
    while true {
        let result = body()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}

/// Runs a libc call that reports failure as -1 plus `errno`, retrying on EINTR, and
/// turns the failure into a `SystemCallError`.
@inlinable
public func systemCall<Result: FixedWidthInteger>(
    _ operation: String, path: String? = nil, _ body: () -> Result
) throws(SystemCallError) -> Result {
    let result = retryingOnInterrupt(body)
    if result == -1 { throw SystemCallError(operation: operation, path: path, errno: .current) }
    return result
}
