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
/// a second), so the loop keeps drawing meanwhile; the match comes back through the
/// loop's `runInBackground`.
final class BackgroundVerifier: PatternVerifying {
    private unowned let loop: EventLoop

    init(loop: EventLoop) { self.loop = loop }

    func verify(_ pattern: Pattern, with matcher: PatternMatcher, then done: @escaping (PatternMatch?) -> Void) {
        do {
            try loop.runInBackground({ matcher.match(pattern) }, then: done)
        } catch {
            // Never a free pass: a check that cannot run is a wrong pattern.
            Journal.log(.critical, "cannot start verification: \(error)")
            done(nil)
        }
    }
}
