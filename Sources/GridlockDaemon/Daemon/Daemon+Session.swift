import GridlockCore
import LinuxSys

/// The session socket's requests, answered by the lock machine: a `check` is a second
/// source of finished strokes (`LockEvent.stroke`), queued with the round's touches and
/// handled in the same order, through the same counting, verification, gate, actions,
/// hooks and journal as a stroke drawn on the panel. Whether it is checked is the
/// machine's to say (`LockMachine.strokeAdmission`), and its answer names the check, so
/// it reaches the connection that asked whatever else happened meanwhile.
extension Daemon {
    func attachSession(_ listener: SeqPacketListener) {
        let server = SessionServer(
            listener: listener, loop: loop,
            allows: { [unowned self] in config.session.allows($0) },
            nodeCount: { [unowned self] in config.grid.shape.nodeCount })
        server.status = { [unowned self] _ in status }
        server.check = { [unowned self] check, _, nodes in
            if stopping { return .notChecked(.stopping) }
            pending.append((.stroke(nodes: nodes, check: check), nil))
            return nil
        }
        // A face's devices are watched as gridlockd's own would be: not while an action
        // holds the panel, nor while stopping.
        server.report = { [unowned self] event, peer in
            alarms.faceReported(event, by: peer, watching: !handedOver && !stopping && options.role.guardsADoor)
        }
        server.panelMode = { [unowned self] in handedOver ? .handedOver : .lock }
        server.lockView = { [unowned self] in
            LockView(rows: config.grid.shape.rows, columns: config.grid.shape.columns, minimumNodes: config.grid.minNodes,
                     lockoutEnds: service.machine.lockoutEnds)
        }
        server.attach()
        session = server
    }

    private var status: SessionReply {
        if stopping { return .notChecked(.stopping) }
        let state: SessionStatus.State =
            if handedOver {
                // An action holds the panel: a check now is busy, and the panel's face lets go.
                .handedOver
            } else {
                switch service.machine.strokeAdmission(at: max(lastTime, now)) {
                case .ready: .ready
                case .lockedOut(let seconds): .lockedOut(seconds: seconds)
                case .busy: .notChecking(.busy)
                }
            }
        return .status(SessionStatus(
            state: state, rows: config.grid.shape.rows, columns: config.grid.shape.columns, minimumNodes: config.grid.minNodes))
    }

    /// The machine took a face's check (its count is saved): said with who asked.
    func noteSessionCheck(_ check: CheckID, nodes: Int) {
        let peer = session?.asker(of: check)
        Journal.log(.info, "session socket: checking \(check) from \(peer.map { "\($0)" } ?? "a lock face") (\(nodes) nodes)",
                    JournalFields(fields: ["GRIDLOCK_EVENT": "session-check", "GRIDLOCK_SOURCE": "session",
                                           "GRIDLOCK_PEER_UID": peer.map { String($0.uid) } ?? "", "GRIDLOCK_CHECK": String(check.rawValue)]))
    }
}
