import GridlockCore
import LinuxSys

/// The session socket's requests, answered by the lock machine: a `check` is a second
/// source of finished strokes (`LockEvent.stroke`), queued with the round's touches and
/// handled in the same order, through the same counting, verification, gate, actions,
/// hooks and journal as a stroke drawn on the panel.
extension Daemon {
    func attachSession(_ listener: SeqPacketListener) {
        let server = SessionServer(
            listener: listener, loop: loop,
            allows: { [unowned self] in config.session.allows($0) },
            nodeCount: { [unowned self] in config.grid.shape.nodeCount })
        server.respond = { [unowned self] id, peer, request in respond(to: request, from: id, peer: peer) }
        server.attach()
        session = server
    }

    /// The reply now, or nil when a check was queued and its verdict answers later.
    private func respond(to request: SessionRequest, from id: SessionServer.ConnectionID, peer: PeerCredentials) -> SessionReply? {
        if stopping { return .notChecked(.stopping) }
        switch request {
        case .status:
            let state: SessionStatus.State
            switch admission {
            case .ready: state = .ready
            case .lockedOut(let seconds): state = .lockedOut(seconds: seconds)
            case .busy: state = .notChecking(.busy)
            }
            return .status(SessionStatus(
                state: state, rows: config.grid.shape.rows, columns: config.grid.shape.columns, minimumNodes: config.grid.minNodes))
        case .check(let nodes):
            // One check at a time, whoever asks: a second is busy before it is even queued.
            guard awaitingAnswer == nil, sessionAskers.isEmpty else { return .notChecked(.busy) }
            if case .lockedOut(let seconds) = admission { return .lockedOut(seconds: seconds) }
            sessionAskers.append(id)
            pending.append((.stroke(nodes: nodes), nil))
            return nil
        }
    }

    private var admission: StrokeAdmission {
        handedOver ? .busy : service.machine.strokeAdmission(at: max(lastTime, now))
    }

    /// Just before a queued check reaches the machine: whether it goes on (the round's
    /// touches before it may have started a check of the panel's own). One that does not is
    /// answered now and never counted.
    func admitSessionStroke(nodes: Int) -> Bool {
        guard !sessionAskers.isEmpty else { return false }
        let id = sessionAskers.removeFirst()
        let peer = session?.peer(of: id)
        let who = peer.map { "\($0)" } ?? "a lock face that has disconnected"
        switch admission {
        case .ready:
            awaitingAnswer = id
            Journal.log(.info, "session socket: checking a pattern from \(who) (\(nodes) nodes)",
                        JournalFields(fields: ["GRIDLOCK_EVENT": "session-check", "GRIDLOCK_SOURCE": "session",
                                               "GRIDLOCK_PEER_UID": peer.map { String($0.uid) } ?? ""]))
            return true
        case .lockedOut(let seconds):
            session?.answer(id, .lockedOut(seconds: seconds))
        case .busy:
            session?.answer(id, .notChecked(.busy))
        }
        return false
    }

    /// The verdict of the socket's check, to the connection that asked; nothing else is told.
    func answerSession(_ report: LockReport) {
        guard let id = awaitingAnswer else { return }
        let reply: SessionReply
        switch report {
        case .accepted: reply = .accepted
        case .rejected(_, let failures):
            reply = .rejected(failures: failures, remainingBeforeLockout: config.lockSettings.schedule.failuresBeforeLockout(after: failures))
        case .tooShort: reply = .notChecked(.tooShort)
        case .notRecorded: reply = .notChecked(.notRecorded)
        default: return
        }
        awaitingAnswer = nil
        let who = session?.peer(of: id).map { "\($0)" } ?? "a lock face that has disconnected"
        Journal.log(.info, "session socket: answered \(who): \(reply.journalWord)",
                    JournalFields(fields: ["GRIDLOCK_EVENT": "session-answer", "GRIDLOCK_SOURCE": "session",
                                           "GRIDLOCK_PEER_UID": session?.peer(of: id).map { String($0.uid) } ?? ""]))
        session?.answer(id, reply)
    }

    /// The daemon stops: a check in flight is answered so, then every connection closes.
    func detachSession() {
        if let id = awaitingAnswer { session?.answer(id, .notChecked(.stopping)) }
        for id in sessionAskers { session?.answer(id, .notChecked(.stopping)) }
        awaitingAnswer = nil
        sessionAskers = []
        session?.detach()
    }
}

extension SessionReply {
    /// What the journal says was answered (never the nodes).
    var journalWord: String {
        switch self {
        case .accepted: "accepted"
        case .rejected(let failures, _): "rejected (\(failures) failure(s) in a row)"
        case .lockedOut(let seconds): "locked out (\(seconds) s)"
        case .notChecked(let reason): "not checked (\(reason))"
        case .status: "status"
        }
    }
}
