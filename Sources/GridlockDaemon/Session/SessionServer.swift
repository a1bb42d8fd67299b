import GridlockCore
import LinuxSys

/// The session socket (`[session]`, docs/session-protocol.md): lock faces in the user's
/// session connect, each finished stroke arrives as a `check`. This class only speaks the
/// protocol: it accepts, judges peers, reads and bounds messages and sends replies; what a
/// request means is its `respond`'s (the daemon's, which hands checks to the lock machine).
///
/// Everything happens on the loop, never blocking: the listener and each connection are
/// watched (wake-up cause `session`), reads and writes are `MSG_DONTWAIT`.
final class SessionServer {
    /// Names a connection for as long as it is open; never reused.
    typealias ConnectionID = Int

    struct Client {
        let connection: SeqPacketConnection
        let peer: PeerCredentials
        /// In `[session] allow-users=` or `allow-group=`. Root is admitted all the same, for
        /// `enroll` and `status` (`gridlock enroll`); anything else it asks is refused as a
        /// peer not allowed would be.
        let allowed: Bool
        var watching: EventLoop.Watching?
        /// The start of the current one-second window of the rate limit, and its messages.
        var windowStart: Instant
        var messagesInWindow = 0
        /// Its last message (or its connect): what the idle timeout and the shares judge.
        var lastActive: Instant
        /// The protocol version of its last request: its replies are in that version.
        var version: UInt8 = SessionProtocol.versions.lowerBound
        /// The lock as its last `status` or `lockChanged` told it, which its `watchLock`
        /// waits for the lock to leave (nil: told nothing yet).
        var toldLock: LockView?
    }

    /// A check handed on and not answered yet: who asked, over which connection (which may
    /// have closed since: the verdict is then only logged).
    struct Awaited {
        let connection: ConnectionID
        let peer: PeerCredentials
    }

    /// Connections served at once, all peers together; the next is answered `overloaded`.
    static let mostConnections = 16
    /// Connections of one uid at once: its next connection closes its idlest one
    /// (`ConnectionShares`), so no uid can take the connections of another.
    static let mostConnectionsPerUser = 4
    /// A connection that sends nothing for this long (and waits for no verdict) is closed;
    /// a face keeps its connection with a `status` now and then (`SessionClient.keepAlive`).
    static let idleTimeout: Duration = .seconds(60)
    /// Refusals and closings are logged once per peer uid per this interval, with a count.
    static let refusalLogInterval: Duration = .seconds(10)
    /// Messages one connection may send within a second; one more closes it.
    static let mostMessagesPerSecond = 20
    /// Packets read and dropped before a refused connection is closed, so the peer reads
    /// the reply saying why instead of a reset; a peer that queued more gets the reset.
    static let mostQueuedDiscarded = 64

    private let listener: SeqPacketListener
    private let loop: EventLoop
    private var listening: EventLoop.Watching?
    private(set) var clients: [ConnectionID: Client] = [:]
    private var nextID = 1
    private let shares = ConnectionShares(perUser: SessionServer.mostConnectionsPerUser, total: SessionServer.mostConnections)
    private let idle: EventLoop.Deadline
    private var refusals = RefusalTally(interval: SessionServer.refusalLogInterval)
    private let refusalSummaries: EventLoop.Deadline
    /// Whether a peer is served (`SessionConfig.allows`, as the configuration in force says).
    private let allows: (PeerCredentials) -> Bool
    /// The nodes of the server's grid, which a check's nodes must lie on.
    private let nodeCount: () -> Int
    /// Checks handed on (`check`) whose verdict has not come back through `answer`.
    private(set) var awaited: [CheckID: Awaited] = [:]
    private var nextCheck = 1
    /// The reply to a `status` request.
    var status: (PeerCredentials) -> SessionReply = { _ in .notChecked(.busy) }
    /// Hands a check on under its id, whose verdict comes back through `answer`; or the
    /// reply now, when it is not handed on (gridlockd is stopping).
    var check: (CheckID, PeerCredentials, [Int]) -> SessionReply? = { _, _, _ in .notChecked(.busy) }
    /// What a face said happened to its devices (`report`, version 2); answered `noted`.
    var report: (FaceEvent, PeerCredentials) -> Void = { _, _ in }
    /// The panel's mode now: handed over while an action holds it (`[action] mode=handover`).
    var panelMode: () -> PanelMode = { .lock }
    /// What of the lock a face cannot foresee from the status it was told.
    var lockView: () -> LockView = { LockView(rows: 3, columns: 3, minimumNodes: 4, lockoutEnds: nil) }
    /// Connections whose `watchLock` waits for the lock to leave what they were told (version 4).
    private(set) var lockWatchers: Set<ConnectionID> = []
    /// The panel lent to root's `enroll` (version 4) or `calibrate` (version 5), waiting for
    /// what a face told of it sends. While it lasts the panel is `enrolling` or
    /// `calibrating` and every check is answered busy.
    private(set) var loan: PanelLoan?

    /// The panel's mode as faces are told it: lent, or gridlockd's.
    private var currentPanelMode: PanelMode { loan?.mode ?? panelMode() }
    /// Connections whose `watchPanel` waits for the panel's mode to differ from the one it
    /// named (version 3): neither idle nor evicted while they wait.
    private(set) var panelWatchers: [ConnectionID: PanelMode] = [:]
    /// The faces told the panel is handed over, whose watch for its return (their word that
    /// they let it go) the action waits for, and what starts the action.
    private var releasing: (faces: Set<ConnectionID>, whenFree: () -> Void)?
    private let releaseDeadline: EventLoop.Deadline
    /// How long the action waits for a face to let the panel go: a face drops master and
    /// its grab as soon as it reads the news, within milliseconds even on a slow panel.
    static let panelReleasePatience: Duration = .seconds(5)

    init(listener: SeqPacketListener, loop: EventLoop, allows: @escaping (PeerCredentials) -> Bool, nodeCount: @escaping () -> Int) {
        self.listener = listener
        self.loop = loop
        self.allows = allows
        self.nodeCount = nodeCount
        idle = loop.deadline("session idle")
        releaseDeadline = loop.deadline("session panel release")
        refusalSummaries = loop.deadline("session refusals")
        idle.onFire { [unowned self] now in closeIdle(at: now) }
        releaseDeadline.onFire { [unowned self] _ in releaseTimedOut() }
        refusalSummaries.onFire { [unowned self] now in sayRefusalSummaries(at: now) }
    }

    var path: String { listener.path }

    func attach() {
        do {
            listening = try loop.watch(listener.descriptor, as: "session") { [unowned self] in acceptWaiting() }
            Journal.log(.info, "session socket \(listener.path): listening for lock faces")
        } catch {
            Journal.log(.error, "session socket \(listener.path): cannot watch it: \(error); lock faces cannot connect")
        }
    }

    /// A check's verdict, to the connection that asked for it and no other; logged either
    /// way. A connection that has gone meanwhile gets nothing: what it asked for happened
    /// all the same. An id never handed on, or answered already, changes nothing.
    func answer(_ check: CheckID, _ reply: SessionReply) {
        guard let asker = awaited.removeValue(forKey: check) else {
            Journal.log(.warning, "session socket: a verdict for \(check), which nobody awaits, is dropped")
            return
        }
        // A check that was never checked (busy, locked out) is not worth a line: a face
        // flooding checks would otherwise write two lines of journal for each.
        if reply.wasChecked {
            Journal.log(.info, "session socket: answered \(check) of \(asker.peer): \(reply.journalWord)",
                        JournalFields(fields: ["GRIDLOCK_EVENT": "session-answer", "GRIDLOCK_SOURCE": "session",
                                               "GRIDLOCK_PEER_UID": String(asker.peer.uid), "GRIDLOCK_CHECK": String(check.rawValue)]))
        }
        guard var client = clients[asker.connection] else {
            if reply.wasChecked {
                Journal.log(.info, "session socket: the lock face of \(asker.peer) disconnected before the verdict of \(check); it is only logged")
            }
            return
        }
        client.lastActive = loop.now()
        clients[asker.connection] = client
        send(reply, to: asker.connection, client)
        armIdle()
    }

    /// Who asked for a check still awaited (for the journal).
    func asker(of check: CheckID) -> PeerCredentials? { awaited[check]?.peer }

    /// The panel was handed over to an action, or the action is done: every face that
    /// watches the panel and acts on the other mode is told. Handed over, `whenFree` (the
    /// action's start) runs once each face told has let the panel go (its watch for the
    /// return comes), has gone, or after `panelReleasePatience`; at once if none was told.
    @discardableResult
    func panelModeChanged(whenFree: (() -> Void)? = nil) -> Set<ConnectionID> {
        let mode = currentPanelMode
        var told: Set<ConnectionID> = []
        for (id, watched) in panelWatchers.sorted(by: { $0.key < $1.key }) where watched != mode {
            panelWatchers[id] = nil
            guard let client = clients[id] else { continue }
            Journal.log(.info, "session socket: \(mode.journalWords); telling the lock face of \(client.peer)")
            send(.panelMode(mode), to: id, client)
            if clients[id] != nil { told.insert(id) }
        }
        armIdle()
        // A release still awaited ends with the mode it was for.
        if mode == .lock { finishRelease() }
        guard let whenFree else { return told }
        guard mode == .handedOver, !told.isEmpty else {
            whenFree()
            return told
        }
        releasing = (told, whenFree)
        releaseDeadline.due = loop.now() + Self.panelReleasePatience
        return told
    }

    /// After every round of the loop: each face whose lock watch waits and whose view of the
    /// lock is no longer true (a reload's grid, a lockout begun, or ended before its time) is
    /// told the status now. Nothing is computed while no face watches.
    func lockMayHaveChanged() {
        guard !lockWatchers.isEmpty else { return }
        let view = lockView()
        for id in lockWatchers.sorted() {
            guard let client = clients[id], client.toldLock != view else { continue }
            if tellLock(view, to: id, client) { lockWatchers.remove(id) }
        }
        armIdle()
    }

    /// Answers a lock watch with the status now, logged with what changed since the face
    /// was last told; false while stopping (every connection closes after this round).
    private func tellLock(_ view: LockView, to id: ConnectionID, _ client: Client) -> Bool {
        guard case .status(let status) = statusNow(client.peer) else { return false }
        Journal.log(.info, "session socket: the lock changed (\(view.change(from: client.toldLock))); telling the lock face of \(client.peer)")
        send(.lockChanged(status), to: id, client)
        return true
    }

    /// A `status` reply now: gridlockd's, busy while the panel is lent.
    private func statusNow(_ peer: PeerCredentials) -> SessionReply {
        let reply = status(peer)
        guard loan != nil, case .status(var status) = reply else { return reply }
        status.state = .notChecking(.busy)
        return .status(status)
    }

    // MARK: - The panel lent to root's enroll or calibrate

    /// Root's `enroll` or `calibrate`: the panel is lent to it if a face holds the panel and
    /// nothing else has it (another loan, an action, a check on its way to a verdict).
    private func lend(_ mode: PanelMode, to id: ConnectionID, _ client: Client) {
        let purpose = PanelLoan.purpose(mode)
        guard loan == nil, panelMode() == .lock, awaited.isEmpty else {
            Journal.log(.warning, "session socket: the \(purpose.noun) asked by \(client.peer) is refused: the panel is busy (a check, an action, an enrolment or a calibration)")
            return send(.notChecked(.busy), to: id, client)
        }
        guard panelWatchers.values.contains(.lock) else {
            Journal.log(.warning, "session socket: the \(purpose.noun) asked by \(client.peer) cannot start: no lock face holds the panel (is gridlock-panel running?)")
            return send(.notChecked(.noPanelFace), to: id, client)
        }
        loan = PanelLoan(asker: id, mode: mode)
        Journal.log(.notice, "session socket: \(client.peer) asks for \(purpose.asked) on the panel's face (\(purpose.command))",
                    JournalFields(fields: ["GRIDLOCK_EVENT": purpose.event + "-start", "GRIDLOCK_PEER_UID": String(client.peer.uid)]))
        let told = panelModeChanged()
        loan?.faces = told
        if told.isEmpty { endLoan(answering: .notChecked(.noPanelFace), "no lock face could be told") }
    }

    /// A face told of the loan sent what it was lent for: to the asker, and the panel goes
    /// back to the lock. The journal says what came, never a pattern's nodes.
    private func delivered(_ reply: SessionReply, for mode: PanelMode, from id: ConnectionID, _ client: Client) {
        let purpose = PanelLoan.purpose(mode)
        guard let current = loan, current.mode == mode, current.faces.contains(id) else {
            return refuse(id, .malformed, "\(purpose.delivered), which no \(purpose.noun) asked of it")
        }
        if case .enrollment(let nodes) = reply, nodes.count < lockView().minimumNodes {
            return send(.notChecked(.tooShort), to: id, client)
        }
        send(.noted, to: id, client)
        Journal.log(.notice, "session socket: the lock face of \(client.peer) sent \(purpose.delivered) for \(purpose.command)\(reply.deliveredSize)",
                    JournalFields(fields: ["GRIDLOCK_EVENT": purpose.event + "-\(purpose.eventDone)", "GRIDLOCK_PEER_UID": String(client.peer.uid)]))
        endLoan(answering: reply, nil)
    }

    /// The loan ends: its asker (if still there) answered, the faces told the panel is the
    /// lock's again. `why`, when it ended with nothing delivered, is logged.
    private func endLoan(answering reply: SessionReply?, _ why: String?) {
        guard let current = loan else { return }
        loan = nil
        if let why { Journal.log(.warning, "session socket: the \(PanelLoan.purpose(current.mode).noun) ended without \(PanelLoan.purpose(current.mode).missing): \(why)") }
        if let reply, let asker = clients[current.asker] { send(reply, to: current.asker, asker) }
        panelModeChanged()
    }

    /// A connection of the loan closed: its asker (the command gave up, or was stopped), or
    /// the last face that could serve it.
    private func loanLost(_ id: ConnectionID) {
        guard var current = loan else { return }
        let purpose = PanelLoan.purpose(current.mode)
        if current.asker == id { return endLoan(answering: nil, "\(purpose.command) went away first") }
        guard current.faces.remove(id) != nil else { return }
        loan = current
        if current.faces.isEmpty { endLoan(answering: .notChecked(.noPanelFace), "the lock face that held the panel went away") }
    }

    /// A face told of the handover let the panel go, or went: the action starts once all have.
    private func released(by id: ConnectionID) {
        guard var waiting = releasing, waiting.faces.remove(id) != nil else { return }
        releasing = waiting
        if waiting.faces.isEmpty { finishRelease() }
    }

    private func releaseTimedOut() {
        guard let waiting = releasing else { return }
        let faces = waiting.faces.sorted().compactMap { clients[$0].map { "\($0.peer)" } }.joined(separator: ", ")
        Journal.log(.warning, "session socket: the lock face of \(faces) did not let the panel go within \(Self.panelReleasePatience.secondsRoundedUp) s; the action starts all the same")
        finishRelease()
    }

    private func finishRelease() {
        guard let waiting = releasing else { return }
        releasing = nil
        releaseDeadline.due = nil
        waiting.whenFree()
    }

    /// Whether a check of this connection awaits its verdict, or it watches the panel: then
    /// it is neither idle nor evicted.
    private func isAwaiting(_ id: ConnectionID) -> Bool {
        panelWatchers[id] != nil || lockWatchers.contains(id) || loan?.asker == id || awaited.values.contains { $0.connection == id }
    }

    /// Answers every check still awaited `stopping`, closes every connection and the
    /// listener, and removes the socket's name.
    func detach() {
        for check in awaited.keys.sorted(by: { $0.rawValue < $1.rawValue }) { answer(check, .notChecked(.stopping)) }
        endLoan(answering: .notChecked(.stopping), "gridlockd is stopping")
        for id in clients.keys.sorted() { close(id) }
        if let listening { loop.unwatch(listening) }
        listening = nil
        listener.close()
        idle.due = nil
        sayRefusalSummaries(at: loop.now() + Self.refusalLogInterval)
    }

    // MARK: - Connections

    private func acceptWaiting() {
        while true {
            let connection: SeqPacketConnection
            do {
                guard let accepted = try listener.accept() else { return }
                connection = accepted
            } catch {
                Journal.log(.error, "session socket \(listener.path): \(error)")
                return
            }
            admit(connection)
        }
    }

    private func admit(_ connection: SeqPacketConnection) {
        let peer: PeerCredentials
        do {
            peer = try connection.peer()
        } catch {
            Journal.log(.warning, "session socket: a connection without credentials is closed: \(error)")
            connection.close()
            return
        }
        let allowed = allows(peer)
        guard allowed || peer.uid == 0 else {
            logRefusal(of: peer, kind: "session-refused", "refused a connection from \(peer): not in [session] allow-users= or allow-group=")
            turnAway(connection, .refusedPeer)
            return
        }
        let now = loop.now()
        let open = clients.map { ConnectionShares.Open(id: $0.key, uid: $0.value.peer.uid, lastActive: $0.value.lastActive, awaitingReply: isAwaiting($0.key)) }
        switch shares.decide(newcomer: peer.uid, open: open) {
        case .refuse:
            logRefusal(of: peer, kind: "session-overloaded",
                       "refused a connection from \(peer): its \(Self.mostConnectionsPerUser) or all \(Self.mostConnections) connections are taken")
            turnAway(connection, .overloaded)
            return
        case .admitEvicting(let idlest):
            refuse(idlest, .overloaded, "a newer connection of uid \(peer.uid) takes the place of its idlest one")
        case .admit:
            break
        }
        let id = nextID
        nextID += 1
        clients[id] = Client(connection: connection, peer: peer, allowed: allowed, windowStart: now, lastActive: now)
        do {
            clients[id]?.watching = try loop.watch(connection.descriptor, as: "session") { [unowned self] in read(id) }
            Journal.log(.info, "session socket: a lock face connected (\(peer))")
        } catch {
            Journal.log(.error, "session socket: cannot watch the connection from \(peer): \(error)")
            close(id)
        }
        armIdle()
    }

    /// A connection never served: one reply saying why, and closed.
    private func turnAway(_ connection: SeqPacketConnection, _ reason: NotCheckedReason) {
        try? connection.send(SessionReply.notChecked(reason).encoded(version: SessionProtocol.versions.lowerBound))
        connection.discardQueued(upTo: Self.mostQueuedDiscarded)
        connection.close()
    }

    /// One warning per peer uid and kind per interval; the rest are counted and said when it ends.
    private func logRefusal(of peer: PeerCredentials, kind: String, _ message: String) {
        let now = loop.now()
        sayRefusalSummaries(at: now)
        guard refusals.note(RefusalTally.Key(uid: peer.uid, kind: kind), at: now) else {
            if refusalSummaries.due == nil { refusalSummaries.due = refusals.nextClose }
            return
        }
        Journal.log(.warning, "session socket: \(message)",
                    JournalFields(fields: ["GRIDLOCK_EVENT": kind, "GRIDLOCK_PEER_UID": String(peer.uid)]))
        refusalSummaries.due = refusals.nextClose
    }

    private func sayRefusalSummaries(at now: Instant) {
        for summary in refusals.closeWindows(at: now) {
            let seconds = Self.refusalLogInterval.secondsRoundedUp
            Journal.log(.warning, "session socket: \(summary.suppressed) more like it from uid \(summary.key.uid) within \(seconds) s (\(summary.key.kind)), not logged one by one",
                        JournalFields(fields: ["GRIDLOCK_EVENT": summary.key.kind, "GRIDLOCK_PEER_UID": String(summary.key.uid),
                                               "GRIDLOCK_SUPPRESSED": String(summary.suppressed)]))
        }
        refusalSummaries.due = refusals.nextClose
    }

    /// The idle deadline at the earliest moment a connection may go idle.
    private func armIdle() {
        idle.due = clients.filter { !isAwaiting($0.key) }.map { $0.value.lastActive + Self.idleTimeout }.min()
    }

    private func closeIdle(at now: Instant) {
        for id in clients.keys.sorted() {
            guard let client = clients[id], !isAwaiting(id), now.duration(since: client.lastActive) >= Self.idleTimeout else { continue }
            Journal.log(.info, "session socket: closed the connection from \(client.peer): nothing sent for \(Self.idleTimeout.secondsRoundedUp) s")
            close(id)
        }
        armIdle()
    }

    /// Reads to EAGAIN; bounded, since the rate limit closes a connection after a second's share.
    private func read(_ id: ConnectionID) {
        while let client = clients[id] {
            let received: SeqPacketConnection.Received
            do {
                received = try client.connection.receive(limit: SessionProtocol.maximumLength)
            } catch {
                Journal.log(.warning, "session socket: the connection from \(client.peer) failed: \(error); closed")
                close(id)
                return
            }
            switch received {
            case .nothing:
                return
            case .closed:
                Journal.log(.info, "session socket: the lock face of \(client.peer) disconnected")
                close(id)
                return
            case .truncated(let length):
                refuse(id, .malformed, "a message of \(length) bytes, longer than \(SessionProtocol.maximumLength)")
                return
            case .message(let bytes):
                guard withinRate(id) else {
                    refuse(id, .overloaded, "more than \(Self.mostMessagesPerSecond) messages within a second")
                    return
                }
                handle(bytes, from: id)
            }
        }
    }

    private func withinRate(_ id: ConnectionID) -> Bool {
        guard var client = clients[id] else { return false }
        let now = loop.now()
        client.lastActive = now
        if now.duration(since: client.windowStart) >= .seconds(1) {
            client.windowStart = now
            client.messagesInWindow = 0
        }
        client.messagesInWindow += 1
        clients[id] = client
        return client.messagesInWindow <= Self.mostMessagesPerSecond
    }

    private func handle(_ bytes: [UInt8], from id: ConnectionID) {
        guard var client = clients[id] else { return }
        let request: SessionRequest
        do {
            request = try SessionRequest(decoding: bytes, nodeCount: nodeCount())
        } catch {
            if case .unsupportedVersion = error {
                refuse(id, .unsupportedVersion, "\(error)")
            } else {
                refuse(id, .malformed, "\(error)")
            }
            return
        }
        if let version = SessionDecodeError.version(of: bytes), version != client.version {
            client.version = version
            clients[id] = client
        }
        guard client.allowed || request == .enroll || request == .calibrate || request == .status else {
            // Root, admitted for `enroll`, `calibrate` and the `status` that tells it the grid.
            logRefusal(of: client.peer, kind: "session-refused", "refused a connection from \(client.peer): not in [session] allow-users= or allow-group=")
            try? client.connection.send(SessionReply.notChecked(.refusedPeer).encoded(version: SessionProtocol.versions.lowerBound))
            client.connection.discardQueued(upTo: Self.mostQueuedDiscarded)
            close(id)
            return
        }
        switch request {
        case .report(let event):
            report(event, client.peer)
            send(.noted, to: id, client)
        case .status:
            send(statusNow(client.peer), to: id, client)
        case .enroll:
            guard client.peer.uid == 0 else { return refuse(id, .refusedPeer, "an enroll from \(client.peer): only root may enrol") }
            lend(.enrolling, to: id, client)
        case .calibrate:
            guard client.peer.uid == 0 else { return refuse(id, .refusedPeer, "a calibrate from \(client.peer): only root may calibrate") }
            lend(.calibrating, to: id, client)
        case .enrolled(let nodes):
            delivered(.enrollment(nodes: nodes), for: .enrolling, from: id, client)
        case .calibrated(let taps):
            delivered(.calibration(taps), for: .calibrating, from: id, client)
        case .watchPanel(let watched):
            let mode = currentPanelMode
            if mode == watched { panelWatchers[id] = watched } else { send(.panelMode(mode), to: id, client) }
            if watched == .handedOver { released(by: id) }
        case .watchLock:
            let view = lockView()
            if client.toldLock == view || !tellLock(view, to: id, client) { lockWatchers.insert(id) }
        case .check where loan != nil:
            // The panel is lent to an enrolment or a calibration: nothing is checked, nothing counted.
            send(.notChecked(.busy), to: id, client)
        case .check(let nodes):
            let check = CheckID(nextCheck)
            nextCheck += 1
            awaited[check] = Awaited(connection: id, peer: client.peer)
            if let reply = self.check(check, client.peer, nodes) {
                awaited[check] = nil
                send(reply, to: id, client)
            }
        }
        armIdle()
    }

    /// One reply saying why, a log line (`logRefusal`), and the connection is closed.
    private func refuse(_ id: ConnectionID, _ reason: NotCheckedReason, _ why: String) {
        guard let client = clients[id] else { return }
        logRefusal(of: client.peer, kind: "session-closed", "closed the connection from \(client.peer): \(why)")
        // In the oldest version: every face reads it, whatever it spoke.
        try? client.connection.send(SessionReply.notChecked(reason).encoded(version: SessionProtocol.versions.lowerBound))
        client.connection.discardQueued(upTo: Self.mostQueuedDiscarded)
        close(id)
    }

    private func send(_ reply: SessionReply, to id: ConnectionID, _ client: Client) {
        do {
            // A face reads one reply per request; one that lets its queue fill is not waited for.
            if try !client.connection.send(reply.encoded(version: client.version)) {
                Journal.log(.warning, "session socket: the lock face of \(client.peer) does not read its replies; closed")
                close(id)
                return
            }
            switch reply {
            case .status, .lockChanged: clients[id]?.toldLock = lockView()
            default: break
            }
        } catch {
            Journal.log(.info, "session socket: cannot answer \(client.peer): \(error); closed")
            close(id)
        }
    }

    private func close(_ id: ConnectionID) {
        panelWatchers[id] = nil
        lockWatchers.remove(id)
        guard let client = clients.removeValue(forKey: id) else { return }
        released(by: id)
        loanLost(id)
        if let watching = client.watching { loop.unwatch(watching) }
        client.connection.close()
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
        case .noted: "noted"
        case .panelMode(let mode): "panel \(mode)"
        case .lockChanged: "lock changed"
        case .enrollment(let nodes): "a pattern for gridlock enroll (\(nodes.count) nodes)"
        case .calibration: "calibration's taps for gridlock calibrate"
        }
    }

    /// Whether the reply is the verdict of a check that ran, or was stopped running (the
    /// rest were neither counted nor checked).
    var wasChecked: Bool {
        switch self {
        case .accepted, .rejected, .notChecked(.tooShort), .notChecked(.notRecorded), .notChecked(.stopping): true
        case .lockedOut, .notChecked, .status, .noted, .panelMode, .lockChanged, .enrollment, .calibration: false
        }
    }
}

extension PanelMode {
    /// The journal's words for the panel entering this mode.
    var journalWords: String {
        switch self {
        case .lock: "the panel is back"
        case .handedOver: "the panel is handed over"
        case .enrolling: "the panel is lent to gridlock enroll"
        case .calibrating: "the panel is lent to gridlock calibrate"
        }
    }
}
