import Glibc
import Synchronization

/// One piece of slow work (an argon2 verification) on its own thread, so the poll loop
/// keeps drawing and reading touches meanwhile. The thread stores the result and
/// signals `wakeup`; the loop, woken by that eventfd, calls `take()`.
///
/// The thread is detached and holds the job only until it has stored the result, so
/// nothing leaks whether or not the loop ever collects it. It inherits the creating
/// thread's signal mask, which keeps the daemon's signals off it.
public final class BackgroundJob<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let wakeup: EventFD
    private let work: @Sendable () -> Value

    private init(wakeup: EventFD, work: @escaping @Sendable () -> Value) {
        self.wakeup = wakeup
        self.work = work
    }

    public static func start(
        wakeup: EventFD, _ work: @escaping @Sendable () -> Value
    ) throws(SystemCallError) -> BackgroundJob<Value> {
        let job = BackgroundJob(wakeup: wakeup, work: work)
        let context = Unmanaged.passRetained(Box(run: job.run)).toOpaque()

        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))

        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.run()
            return nil
        }, context)
        if result != 0 {
            Unmanaged<Box>.fromOpaque(context).release()
            throw SystemCallError(operation: "pthread_create", errno: Errno(rawValue: result))
        }
        return job
    }

    /// The result once the work has finished, exactly once; nil before that and after.
    public func take() -> Value? {
        result.withLock { value in
            defer { value = nil }
            return value
        }
    }

    private func run() {
        let value = work()
        result.withLock { $0 = value }
        wakeup.signal()
    }
}

/// Carries the closure through pthread_create's single C pointer.
private final class Box {
    let run: () -> Void
    init(run: @escaping () -> Void) { self.run = run }
}
