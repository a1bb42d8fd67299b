import GridlockCore
import LinuxSys

/// What an output registered on the one event loop: the descriptors it watches and the
/// deadlines it named, each keyed by what it means to the output. Kept so that a
/// descriptor that changes (a card reopened) is watched anew and so that `detach()`
/// gives everything back at close.
final class LoopRegistrations<Wake: Hashable> {
    let loop: EventLoop
    private let cause: String
    private var watching: [Wake: EventLoop.Watching] = [:]
    private var deadlines: [Wake: EventLoop.Deadline] = [:]
    private var fire: ((Wake, Instant) -> Void)?

    /// `cause` names every descriptor in the loop's wake-up counts ("display"); each
    /// deadline is named by `deadlines` ("display rescan" counts as "deadline display rescan").
    init(loop: EventLoop, cause: String, deadlines names: [Wake: String], fire: @escaping (Wake, Instant) -> Void) {
        self.loop = loop
        self.cause = cause
        self.fire = fire
        for (wake, name) in names {
            deadlines[wake] = loop.deadline(name) { [weak self] now in self?.fire?(wake, now) }
        }
    }

    /// An output dropped without `close()` (a failed start) leaves nothing behind to fire.
    deinit { detach() }

    /// Watches `descriptor` for `wake`, replacing what was watched for it; nil unwatches.
    /// Registers anew even for an equal number: a reopened device may have got the
    /// number of the one just closed, whose registration went with it.
    func watch(_ descriptor: FileDescriptor?, as wake: Wake) {
        if let old = watching.removeValue(forKey: wake) { loop.unwatch(old) }
        guard let descriptor else { return }
        do {
            watching[wake] = try loop.watch(descriptor, as: cause) { [weak self] in
                guard let self else { return }
                fire?(wake, loop.now())
            }
        } catch {
            Journal.log(.error, "\(cause): cannot watch descriptor \(descriptor.rawValue): \(error)")
        }
    }

    /// Sets every deadline to what `due` says it should be now.
    func update(_ due: (Wake) -> Instant?) {
        for (wake, deadline) in deadlines { deadline.due = due(wake) }
    }

    /// Unwatches everything and clears the deadlines (the loop keeps them, never due).
    func detach() {
        for watching in watching.values { loop.unwatch(watching) }
        watching = [:]
        for deadline in deadlines.values { deadline.due = nil }
        fire = nil
    }
}
