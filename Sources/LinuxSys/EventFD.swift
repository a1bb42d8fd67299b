import CLinux
import Glibc

/// A wake-up another thread can send to the poll loop. The descriptor never changes
/// after init and eventfd writes are atomic, which is what makes this Sendable.
public final class EventFD: Sendable {
    public let fileDescriptor: FileDescriptor

    public init() throws(SystemCallError) {
        let fd = try systemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        fileDescriptor = FileDescriptor(rawValue: fd)
    }

    deinit { fileDescriptor.close() }

    /// Never fails in a way a caller could handle: EAGAIN means the counter is already
    /// at its maximum, so a wake-up is pending anyway.
    public func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { raw in
            retryingOnInterrupt { write(fileDescriptor.rawValue, raw.baseAddress, raw.count) }
        }
    }

    /// Resets the counter and returns how many signals it had collected (0 if none).
    @discardableResult
    public func consume() throws(SystemCallError) -> UInt64 {
        var value: UInt64 = 0
        let count = try withUnsafeMutableBytes(of: &value) { (raw) throws(SystemCallError) -> Int? in
            try fileDescriptor.read(into: raw)
        }
        return count == 8 ? value : 0
    }
}
