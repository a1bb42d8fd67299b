import CLinux
import Glibc

/// Signals delivered as readable data on a descriptor, so the poll loop handles them
/// in order with everything else instead of in an async-signal handler.
///
/// The mask is per thread and inherited by threads created later: create this on the
/// loop thread before starting any other thread, or a signal may be delivered to (and
/// kill or be lost on) a thread that does not block it.
public final class SignalFD {
    public let fileDescriptor: FileDescriptor

    public init(signals: [Signal]) throws(SystemCallError) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal.rawValue) }
        let result = pthread_sigmask(SIG_BLOCK, &set, nil)
        if result != 0 {
            throw SystemCallError(operation: "pthread_sigmask(SIG_BLOCK)", errno: Errno(rawValue: result))
        }
        let fd = try systemCall("signalfd") { signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
        fileDescriptor = FileDescriptor(rawValue: fd)
    }

    deinit { fileDescriptor.close() }

    /// Every pending signal number, in arrival order; empty when none is pending.
    /// Standard signals coalesce in the kernel: two SIGCHLDs may arrive as one.
    public func readSignals() throws(SystemCallError) -> [Signal] {
        var signals: [Signal] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while true {
            let count = try withUnsafeMutableBytes(of: &info) { (raw) throws(SystemCallError) -> Int? in
                try fileDescriptor.read(into: raw)
            }
            guard let count, count == size else { break }
            signals.append(Signal(rawValue: Int32(bitPattern: info.ssi_signo)))
        }
        return signals
    }
}
