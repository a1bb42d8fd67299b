import GridlockCore
import GridlockDaemon
import LinuxSys

/// `gridlock enroll` and `gridlock calibrate` while the panel's face runs apart (`[display]
/// backend=none`, `[touch] backend=none`, `[session]` on): gridlockd lends the panel to the
/// face (session protocol `enroll`, version 4, or `calibrate`, version 5), the face collects
/// a pattern drawn twice or a tap on each cross, and sends it back through gridlockd to this
/// command, which stores it as it stores what its own panel gave.
enum PanelLoanClient {
    /// Why the face did not deliver: 75 (EX_TEMPFAIL) when trying again later may work.
    struct Failure: Error, FailureStatus, CustomStringConvertible {
        let description: String
        let exitStatus: Int32
    }

    /// What a loan is for, in this command's words.
    struct Purpose {
        /// `enroll` or `calibrate`.
        let request: SessionRequest
        /// Said when gridlockd agreed to ask the face.
        let asking: String
        /// What the command did not do when it fails ("nothing was enrolled").
        let nothingDone: String
        /// Without a face: what else the person may do.
        let otherwise: String
    }

    /// gridlockd's answer once the face delivered (`enrollment`, `calibration`); `judge`
    /// reads gridlockd's status first and may refuse to go on (the grid it runs).
    static func borrow(
        _ purpose: Purpose, socket: String, timeout: Duration, judge: (SessionStatus) -> String? = { _ in nil }
    ) throws -> SessionReply {
        let connection: SeqPacketConnection
        do {
            connection = try SeqPacketConnection.connect(to: socket)
        } catch {
            throw Failure(description: "cannot reach gridlockd at \(socket): \(error); with [display] backend=none the panel's face works through gridlockd: start gridlockd and gridlock-panel, \(purpose.otherwise)", exitStatus: 75)
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
        // Where gridlockd stands first (the grid an enrolment's nodes are numbered on).
        guard try connection.send(SessionRequest.status.encoded) else {
            throw Failure(description: "gridlockd does not read its session socket \(socket)", exitStatus: 75)
        }
        let limit = loop.deadline("panel loan timeout", clock: .real) { _ in
            ended = "nothing came from the panel's face in \(timeout.secondsRoundedUp) s"
        }
        limit.due = loop.now() + timeout
        var asked = false
        try loop.run(until: {
            if !asked, ended == nil, case .status(let status)? = replies.first {
                asked = true
                if let refusal = judge(status) {
                    ended = refusal
                } else if (try? connection.send(purpose.request.encoded)) != true {
                    ended = "gridlockd does not read its session socket \(socket)"
                } else {
                    printEscaped("\(purpose.asking) (within \(timeout.secondsRoundedUp) s)")
                }
            }
            return ended != nil || replies.count >= 2
        })
        loop.unwatch(connection.descriptor)
        if replies.count >= 2 { return try delivered(replies[1], purpose) }
        if let first = replies.first, case .notChecked = first { return try delivered(first, purpose) }
        throw Failure(description: "\(ended ?? "gridlockd did not answer"); \(purpose.nothingDone)", exitStatus: 1)
    }

    private static func delivered(_ reply: SessionReply, _ purpose: Purpose) throws -> SessionReply {
        switch reply {
        case .enrollment where purpose.request == .enroll, .calibration where purpose.request == .calibrate:
            return reply
        case .notChecked(.busy):
            throw Failure(description: "the panel is busy (a check, an action, an enrolment or a calibration); try again when it shows the lock; \(purpose.nothingDone)", exitStatus: 75)
        case .notChecked(.noPanelFace):
            throw Failure(description: "no lock face holds the panel, or it went away (systemctl status gridlock-panel); \(purpose.nothingDone)", exitStatus: 75)
        case .notChecked(.unsupportedVersion):
            throw Failure(description: "the running gridlockd is older than this gridlock and cannot lend the panel for this: restart it (systemctl restart gridlockd); \(purpose.nothingDone)", exitStatus: 75)
        case .notChecked(.stopping):
            throw Failure(description: "gridlockd is stopping; \(purpose.nothingDone)", exitStatus: 75)
        case .notChecked(let reason):
            throw Failure(description: "gridlockd refused (\(reason)); \(purpose.nothingDone)", exitStatus: 1)
        default:
            throw Failure(description: "gridlockd answered with \(reply); \(purpose.nothingDone)", exitStatus: 1)
        }
    }
}

/// `gridlock enroll`'s pattern drawn twice on the panel's face, on `shape` (the
/// configuration's grid, which must be the one gridlockd runs: its nodes are numbered on
/// it). The pattern passes through gridlockd's memory, never its journal.
enum FaceEnrolment {
    static func collect(socket: String, shape: GridShape, timeout: Duration) throws -> Pattern {
        let purpose = PanelLoanClient.Purpose(
            request: .enroll,
            asking: "asking gridlockd to lend the panel's face to this enrolment: draw the new pattern there, then again to confirm",
            nothingDone: "nothing was enrolled", otherwise: "or give the pattern with --pattern-stdin")
        let reply = try PanelLoanClient.borrow(purpose, socket: socket, timeout: timeout) { status in
            guard status.rows != shape.rows || status.columns != shape.columns else { return nil }
            return "gridlockd runs a \(status.rows)x\(status.columns) grid and the configuration says \(shape): reload gridlockd (systemctl reload gridlockd) and try again"
        }
        guard case .enrollment(let nodes) = reply else { throw PanelLoanClient.Failure(description: "gridlockd answered with \(reply)", exitStatus: 1) }
        do {
            return try Pattern(nodes: nodes, shape: shape)
        } catch {
            throw PanelLoanClient.Failure(description: "gridlockd sent a pattern that is not on the \(shape) grid: \(error)", exitStatus: 1)
        }
    }
}
