import Foundation
import Glibc
import Synchronization
import Testing

/// Runs `work` on a thread of its own and waits for it until `deadline`. The deadline only
/// tells a hang from an answer (a blocking open of a FIFO nobody writes never returns);
/// it measures nothing. On a hang an issue is recorded and each of `fifos` is opened for
/// writing, which lets a reader blocked in open(2) go on, so the test run itself ends.
/// (LinuxSysTests, GridlockDisplayTests and GridlockDaemonTests each hold this copy.)
func withoutHanging<T: Sendable>(
    _ what: String, releasing fifos: [String] = [], deadline seconds: Int = 60, _ work: @escaping @Sendable () -> T
) -> T? {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
        let value = work()
        result.withLock { $0 = value }
        done.signal()
    }.start()
    if done.wait(timeout: .now() + .seconds(seconds)) == .timedOut {
        Issue.record("\(what) did not return within \(seconds) s: it blocks")
        for fifo in fifos {
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        return nil
    }
    return result.withLock { $0 }
}
