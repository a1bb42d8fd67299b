import GridlockCore
import LinuxSys

/// Checks a drawn pattern on a thread of its own (argon2 takes a noticeable fraction of
/// a second), so the loop keeps drawing meanwhile; the result comes back through an
/// eventfd the loop watches.
final class BackgroundVerifier {
    private let wakeup: EventFD
    private var job: BackgroundJob<String?>?
    private let completion: (String?) -> Void

    /// `completion` gets the matching pattern's name, or nil, on the loop's thread.
    init(loop: EventLoop, completion: @escaping (String?) -> Void) throws(SystemCallError) {
        wakeup = try EventFD()
        self.completion = completion
        try loop.watch(wakeup.fileDescriptor, as: "verifier") { [unowned self] in collect() }
    }

    func begin(_ pattern: Pattern, with matcher: PatternMatcher) {
        do {
            job = try BackgroundJob.start(wakeup: wakeup) { matcher.match(pattern) }
        } catch {
            // Never a free pass: a check that cannot run is a wrong pattern.
            Journal.log(.critical, "cannot start verification: \(error)")
            completion(nil)
        }
    }

    private func collect() {
        _ = try? wakeup.consume()
        guard let job, let result = job.take() else { return }
        self.job = nil
        completion(result)
    }
}
