import GridlockCore
import GridlockDaemon
import LinuxSys

/// `gridlock enroll` while the panel's face runs apart (`[display] backend=none`, `[touch]
/// backend=none`, `[session]` on): gridlockd lends the panel to the face (session protocol
/// version 4, `enroll`), the face collects the pattern drawn twice and sends it back through
/// gridlockd, and this command hashes and stores it as it stores a pattern drawn on its own
/// panel. The pattern passes through gridlockd's memory, never its journal.
enum FaceEnrolment {
    /// Why the face did not deliver: 75 (EX_TEMPFAIL) when trying again later may work.
    struct Failure: Error, FailureStatus, CustomStringConvertible {
        let description: String
        let exitStatus: Int32
    }

    /// The pattern drawn on the face, on `shape` (the configuration's grid, which must be
    /// the one gridlockd runs: its nodes are numbered on it).
    static func collect(socket: String, shape: GridShape, timeout: Duration) throws -> Pattern {
        let connection: SeqPacketConnection
        do {
            connection = try SeqPacketConnection.connect(to: socket)
        } catch {
            throw Failure(description: "cannot reach gridlockd at \(socket): \(error); with [display] backend=none the pattern is drawn on the panel's face through gridlockd: start gridlockd and gridlock-panel, or give the pattern with --pattern-stdin", exitStatus: 75)
        }
        defer { connection.close() }
        let server = try connection.peer()
        guard server.uid == 0 else {
            throw Failure(description: "the session socket \(socket) is served by \(server), not by root: refusing it", exitStatus: 1)
        }
        let loop = try EventLoop()
        var replies: [SessionReply] = []
        var ended: String?
        try loop.watch(connection.descriptor, as: "session socket") {
            while ended == nil {
                switch try? connection.receive(limit: SessionProtocol.maximumLength + 1) {
                case .message(let bytes)?:
                    guard let reply = try? SessionReply(decoding: bytes) else {
                        ended = "gridlockd sent a reply that does not decode"
                        return
                    }
                    replies.append(reply)
                case .nothing?:
                    return
                case .closed?, .truncated?, nil:
                    ended = "gridlockd closed the connection"
                }
            }
        }
        // The grid gridlockd runs first: the drawing's nodes are numbered on it.
        guard try connection.send(SessionRequest.status.encoded) else {
            throw Failure(description: "gridlockd does not read its session socket \(socket)", exitStatus: 75)
        }
        let limit = loop.deadline("enroll timeout", clock: .real) { _ in ended = "nothing was enrolled in \(timeout.secondsRoundedUp) s" }
        limit.due = loop.now() + timeout
        var asked = false
        try loop.run(until: {
            if !asked, ended == nil, case .status(let status)? = replies.first {
                asked = true
                if status.rows != shape.rows || status.columns != shape.columns {
                    ended = "gridlockd runs a \(status.rows)x\(status.columns) grid and the configuration says \(shape): reload gridlockd (systemctl reload gridlockd) and try again"
                } else if (try? connection.send(SessionRequest.enroll.encoded)) != true {
                    ended = "gridlockd does not read its session socket \(socket)"
                } else {
                    printEscaped("asking gridlockd to lend the panel's face to this enrolment: draw the new pattern there, then again to confirm (within \(timeout.secondsRoundedUp) s)")
                }
            }
            return ended != nil || replies.count >= 2
        })
        loop.unwatch(connection.descriptor)
        if replies.count >= 2 { return try pattern(from: replies[1], shape: shape) }
        if let first = replies.first, case .notChecked = first { return try pattern(from: first, shape: shape) }
        throw Failure(description: ended ?? "gridlockd did not answer", exitStatus: 1)
    }

    private static func pattern(from reply: SessionReply, shape: GridShape) throws -> Pattern {
        switch reply {
        case .enrollment(let nodes):
            do {
                return try Pattern(nodes: nodes, shape: shape)
            } catch {
                throw Failure(description: "gridlockd sent a pattern that is not on the \(shape) grid: \(error)", exitStatus: 1)
            }
        case .notChecked(.busy):
            throw Failure(description: "the panel is busy (a check, an action or another enrolment); try again when it shows the lock", exitStatus: 75)
        case .notChecked(.noPanelFace):
            throw Failure(description: "no lock face holds the panel, or it went away (systemctl status gridlock-panel); nothing was enrolled", exitStatus: 75)
        case .notChecked(.unsupportedVersion):
            throw Failure(description: "the running gridlockd is older than this gridlock and cannot lend the panel to an enrolment: restart it (systemctl restart gridlockd)", exitStatus: 75)
        case .notChecked(.stopping):
            throw Failure(description: "gridlockd is stopping; nothing was enrolled", exitStatus: 75)
        case .notChecked(let reason):
            throw Failure(description: "gridlockd refused the enrolment (\(reason))", exitStatus: 1)
        default:
            throw Failure(description: "gridlockd answered the enrolment with \(reply)", exitStatus: 1)
        }
    }
}
