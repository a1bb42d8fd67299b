import CLinux
import Glibc

/// The CPU's count of instructions retired by the calling thread in user space
/// (perf_event_open(2), PERF_COUNT_HW_INSTRUCTIONS): what a piece of code costs independent
/// of the clock, the load and the machine's speed, so builds for different CPUs can be
/// compared by instructions. Counts only between `start` and `stop`, and only the thread
/// that opened it (not threads it starts, not the kernel's work for its system calls).
public final class InstructionCounter {
    public let fileDescriptor: FileDescriptor

    /// A count with the time the counter was enabled and the time it actually ran: the
    /// kernel multiplexes more counters than the CPU has onto it, and then `running` is less
    /// than `enabled` and `count` covers only part of the code.
    public struct Reading: Hashable, Sendable {
        public var count: UInt64
        public var enabledNanoseconds: UInt64
        public var runningNanoseconds: UInt64

        public init(count: UInt64, enabledNanoseconds: UInt64, runningNanoseconds: UInt64) {
            self.count = count
            self.enabledNanoseconds = enabledNanoseconds
            self.runningNanoseconds = runningNanoseconds
        }

        /// Whether the count is all the instructions of the time it was enabled.
        public var isComplete: Bool { runningNanoseconds == enabledNanoseconds }
    }

    private init(fileDescriptor: FileDescriptor) {
        self.fileDescriptor = fileDescriptor
    }

    deinit { fileDescriptor.close() }

    /// A stopped counter for this thread.
    public static func open() throws(InstructionCounterError) -> InstructionCounter {
        let fd = retryingOnInterrupt { gridlock_perf_open_instructions() }
        guard fd >= 0 else {
            let error = Errno.current
            let paranoid = error == .permissionDenied || error == .notPermitted ? perfEventParanoid() : nil
            throw InstructionCounterError(operation: .open, errno: error, paranoid: paranoid)
        }
        return InstructionCounter(fileDescriptor: FileDescriptor(rawValue: fd))
    }

    /// Zeroes the count and starts counting.
    public func start() throws(InstructionCounterError) {
        guard gridlock_perf_reset_and_enable(fileDescriptor.rawValue) == 0 else {
            throw InstructionCounterError(operation: .enable, errno: .current)
        }
    }

    public func stop() throws(InstructionCounterError) {
        guard gridlock_perf_disable(fileDescriptor.rawValue) == 0 else {
            throw InstructionCounterError(operation: .disable, errno: .current)
        }
    }

    /// The count since the last `start` (read_format: value, time enabled, time running).
    public func read() throws(InstructionCounterError) -> Reading {
        var values: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let count = withUnsafeMutableBytes(of: &values) { raw in
            retryingOnInterrupt { Glibc.read(fileDescriptor.rawValue, raw.baseAddress, raw.count) }
        }
        guard count == MemoryLayout<(UInt64, UInt64, UInt64)>.size else {
            throw InstructionCounterError(operation: .read, errno: count < 0 ? .current : .ioError)
        }
        return Reading(count: values.0, enabledNanoseconds: values.1, runningNanoseconds: values.2)
    }

    /// kernel.perf_event_paranoid, which decides who may count what; nil when unreadable.
    public static func perfEventParanoid() -> Int? {
        guard let bytes = try? AtomicFile.contents(of: "/proc/sys/kernel/perf_event_paranoid") else { return nil }
        return Int(String(decoding: bytes, as: UTF8.self).filter { $0 != "\n" && $0 != " " })
    }
}

/// Why the instruction counter could not be opened or used, with what that errno means for
/// perf_event_open: a person reading it learns whether the machine has no counter at all
/// (a virtual machine) or a setting forbids it, and which one.
public struct InstructionCounterError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Operation: String, Hashable, Sendable {
        case open = "perf_event_open (PERF_COUNT_HW_INSTRUCTIONS, this thread, user space)"
        case enable = "ioctl PERF_EVENT_IOC_RESET/ENABLE"
        case disable = "ioctl PERF_EVENT_IOC_DISABLE"
        case read = "read of the instruction counter"
    }

    public var operation: Operation
    public var errno: Errno
    /// kernel.perf_event_paranoid when the kernel refused (EACCES, EPERM); nil otherwise or unreadable.
    public var paranoid: Int?

    public init(operation: Operation, errno: Errno, paranoid: Int? = nil) {
        self.operation = operation
        self.errno = errno
        self.paranoid = paranoid
    }

    /// What the errno says about this machine; nil for one with no particular meaning here.
    public var meaning: String? {
        switch errno {
        case .noSuchFile:
            return "this CPU has no hardware instruction counter the kernel can use (no PMU, as in most virtual machines)"
        case .permissionDenied, .notPermitted:
            let setting = paranoid.map { "kernel.perf_event_paranoid is \($0)" } ?? "kernel.perf_event_paranoid forbids it"
            return "\(setting): counting one's own thread in user space needs 2 or less "
                + "(Debian's default 3 forbids it without CAP_PERFMON; sysctl kernel.perf_event_paranoid=2)"
        case .notImplemented:
            return "the kernel was built without perf events (CONFIG_PERF_EVENTS)"
        case .noSuchDevice, .notSupported:
            return "the CPU's counters cannot count this way (user space only, per thread)"
        default:
            return nil
        }
    }

    public var description: String {
        "\(operation.rawValue): \(errno)" + (meaning.map { ": \($0)" } ?? "")
    }
}
