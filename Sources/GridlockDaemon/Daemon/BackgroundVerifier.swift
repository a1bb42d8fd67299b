import GridlockCore
import LinuxSys

/// Runs a drawn pattern's check against a matcher somewhere other than the loop, and hands
/// the match back on the loop's thread. gridlockd's is `BackgroundVerifier`; a test holds
/// a check open with one of its own until it has changed the world around it.
public protocol PatternVerifying: AnyObject {
    /// `done` runs once, on the loop's thread, with the match or nil.
    func verify(_ pattern: Pattern, with matcher: PatternMatcher, then done: @escaping (PatternMatch?) -> Void)
}

/// Checks a drawn pattern on a thread of its own (argon2 takes a noticeable fraction of
/// a second), so the loop keeps drawing meanwhile; the result comes back through an
/// eventfd the loop watches.
final class BackgroundVerifier: PatternVerifying {
    private let wakeup: EventFD
    private var job: (work: BackgroundJob<PatternMatch?>, done: (PatternMatch?) -> Void)?

    init(loop: EventLoop) throws(SystemCallError) {
        wakeup = try EventFD()
        try loop.watch(wakeup.fileDescriptor, as: "verifier") { [unowned self] in collect() }
    }

    func verify(_ pattern: Pattern, with matcher: PatternMatcher, then done: @escaping (PatternMatch?) -> Void) {
        do {
            job = (try BackgroundJob.start(wakeup: wakeup) { matcher.match(pattern) }, done)
        } catch {
            // Never a free pass: a check that cannot run is a wrong pattern.
            Journal.log(.critical, "cannot start verification: \(error)")
            done(nil)
        }
    }

    private func collect() {
        _ = try? wakeup.consume()
        guard let job, let result = job.work.take() else { return }
        self.job = nil
        job.done(result)
    }
}
