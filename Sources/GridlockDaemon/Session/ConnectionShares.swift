import GridlockCore

/// Who gets a connection to the session socket when they are scarce. Each uid has its own
/// share, so one user (or one member of `allow-group=`) holding connections open takes
/// none of another's; within a uid the newest connection wins over the one idle longest,
/// so a face that connects to check a stroke is served even while other processes of its
/// user hold their share. A connection waiting for a verdict is never the one evicted.
struct ConnectionShares: Sendable {
    struct Open: Hashable, Sendable {
        var id: Int
        var uid: UInt32
        var lastActive: Instant
        var awaitingReply: Bool
    }

    enum Decision: Hashable, Sendable {
        case admit
        /// Admit, once this connection (the uid's idlest) is closed.
        case admitEvicting(Int)
        /// No room: the uid's share is all waiting for verdicts, or every share is taken.
        case refuse
    }

    var perUser: Int
    var total: Int

    func decide(newcomer uid: UInt32, open: [Open]) -> Decision {
        let own = open.filter { $0.uid == uid }
        if own.count >= perUser {
            let idlest = own.filter { !$0.awaitingReply }.min { ($0.lastActive, $0.id) < ($1.lastActive, $1.id) }
            return idlest.map { .admitEvicting($0.id) } ?? .refuse
        }
        return open.count >= total ? .refuse : .admit
    }
}
