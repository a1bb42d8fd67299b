import GridlockCore
import LinuxSys

/// An event loop whose time is scripted, for the sources that register on it: a round
/// runs at the instant a test names, and a deadline fires when that instant reaches it,
/// whatever the machine's speed.
final class ScriptedLoop {
    let loop: EventLoop
    private(set) var time: Instant
    /// Due at each round's own instant, so a round never waits in the kernel: scripted
    /// instants are long past on CLOCK_MONOTONIC, and the timer armed for them is ready.
    private let round: EventLoop.Deadline

    init(at start: Instant) throws {
        loop = try EventLoop()
        time = start
        round = loop.deadline("round")
        loop.now = { [unowned self] in time }
    }

    /// One round at `instant`: the handlers of every ready descriptor, then every deadline
    /// due by then.
    func turn(at instant: Instant) throws {
        time = instant
        round.due = instant
        try loop.runOnce()
    }
}
