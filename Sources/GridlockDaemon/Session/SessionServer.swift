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
        var watching: EventLoop.Watching?
        /// The start of the current one-second window of the rate limit, and its messages.
        var windowStart: Instant
        var messagesInWindow = 0
    }

    /// Connections served at once; the next is answered `overloaded` and closed.
    static let mostConnections = 8
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
    /// Whether a peer is served (`SessionConfig.allows`, as the configuration in force says).
    private let allows: (PeerCredentials) -> Bool
    /// The nodes of the server's grid, which a check's nodes must lie on.
    private let nodeCount: () -> Int
    /// The reply to a request now, or nil when it comes later through `answer`.
    var respond: (ConnectionID, PeerCredentials, SessionRequest) -> SessionReply? = { _, _, _ in .notChecked(.busy) }

    init(listener: SeqPacketListener, loop: EventLoop, allows: @escaping (PeerCredentials) -> Bool, nodeCount: @escaping () -> Int) {
        self.listener = listener
        self.loop = loop
        self.allows = allows
        self.nodeCount = nodeCount
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

    /// The reply to a request answered later (a check's verdict). A connection that has gone
    /// meanwhile gets nothing: what it asked for happened all the same.
    func answer(_ id: ConnectionID, _ reply: SessionReply) {
        guard let client = clients[id] else { return }
        send(reply, to: id, client)
    }

    func peer(of id: ConnectionID) -> PeerCredentials? { clients[id]?.peer }

    /// Closes every connection and the listener, and removes the socket's name.
    func detach() {
        for id in clients.keys.sorted() { close(id) }
        if let listening { loop.unwatch(listening) }
        listening = nil
        listener.close()
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
        guard allows(peer) else {
            Journal.log(.warning, "session socket: refused a connection from \(peer): not in [session] allow-users= or allow-group=",
                        JournalFields(fields: ["GRIDLOCK_EVENT": "session-refused", "GRIDLOCK_PEER_UID": String(peer.uid)]))
            try? connection.send(SessionReply.notChecked(.refusedPeer).encoded)
            connection.discardQueued(upTo: Self.mostQueuedDiscarded)
            connection.close()
            return
        }
        guard clients.count < Self.mostConnections else {
            Journal.log(.warning, "session socket: refused a connection from \(peer): \(Self.mostConnections) are open already")
            try? connection.send(SessionReply.notChecked(.overloaded).encoded)
            connection.discardQueued(upTo: Self.mostQueuedDiscarded)
            connection.close()
            return
        }
        let id = nextID
        nextID += 1
        clients[id] = Client(connection: connection, peer: peer, windowStart: loop.now())
        do {
            clients[id]?.watching = try loop.watch(connection.descriptor, as: "session") { [unowned self] in read(id) }
            Journal.log(.info, "session socket: a lock face connected (\(peer))")
        } catch {
            Journal.log(.error, "session socket: cannot watch the connection from \(peer): \(error)")
            close(id)
        }
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
        if now.duration(since: client.windowStart) >= .seconds(1) {
            client.windowStart = now
            client.messagesInWindow = 0
        }
        client.messagesInWindow += 1
        clients[id] = client
        return client.messagesInWindow <= Self.mostMessagesPerSecond
    }

    private func handle(_ bytes: [UInt8], from id: ConnectionID) {
        guard let client = clients[id] else { return }
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
        if let reply = respond(id, client.peer, request) { send(reply, to: id, client) }
    }

    /// One reply saying why, one log line, and the connection is closed.
    private func refuse(_ id: ConnectionID, _ reason: NotCheckedReason, _ why: String) {
        guard let client = clients[id] else { return }
        Journal.log(.warning, "session socket: closed the connection from \(client.peer): \(why)",
                    JournalFields(fields: ["GRIDLOCK_EVENT": "session-closed", "GRIDLOCK_PEER_UID": String(client.peer.uid)]))
        try? client.connection.send(SessionReply.notChecked(reason).encoded)
        client.connection.discardQueued(upTo: Self.mostQueuedDiscarded)
        close(id)
    }

    private func send(_ reply: SessionReply, to id: ConnectionID, _ client: Client) {
        do {
            // A face reads one reply per request; one that lets its queue fill is not waited for.
            if try !client.connection.send(reply.encoded) {
                Journal.log(.warning, "session socket: the lock face of \(client.peer) does not read its replies; closed")
                close(id)
            }
        } catch {
            Journal.log(.info, "session socket: cannot answer \(client.peer): \(error); closed")
            close(id)
        }
    }

    private func close(_ id: ConnectionID) {
        guard let client = clients.removeValue(forKey: id) else { return }
        if let watching = client.watching { loop.unwatch(watching) }
        client.connection.close()
    }
}
