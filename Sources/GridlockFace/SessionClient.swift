import GridlockCore
import LinuxSys

/// A lock face's connection to gridlockd's session socket, on the face's one loop.
///
/// It connects, says so through `connected` (the face then asks `status`), and hands every
/// decoded reply to `replies`. When the
/// connection cannot be made or goes away, it says so once through `lost` and tries again
/// later, backing off to `longestRetry`, so a face started before gridlockd, or outliving a
/// restart of it, finds it without a busy loop. What a reply means is the `FaceMachine`'s.
public final class SessionClient {
    public let path: String
    private unowned let loop: EventLoop
    private let retry: EventLoop.Deadline
    private var connection: SeqPacketConnection?
    private var retryDelay = SessionClient.firstRetry
    private var lostSaid = false
    private let connected: () -> Void
    private let replies: (SessionReply) -> Void
    private let lost: (String) -> Void

    static let firstRetry: Duration = .milliseconds(250)
    static let longestRetry: Duration = .seconds(5)

    /// `connected` is called on every connection made; `replies` gets each reply in order;
    /// `lost` a sentence saying why nothing can be checked (once per outage).
    public init(
        path: String, loop: EventLoop, connected: @escaping () -> Void, replies: @escaping (SessionReply) -> Void,
        lost: @escaping (String) -> Void
    ) {
        self.path = path
        self.loop = loop
        self.connected = connected
        self.replies = replies
        self.lost = lost
        retry = loop.deadline("session reconnect")
        retry.onFire { [unowned self] _ in connect() }
    }

    public var isConnected: Bool { connection != nil }

    /// Connects now, or arranges to try again.
    public func connect() {
        guard connection == nil else { return }
        do throws(SystemCallError) {
            let connection = try SeqPacketConnection.connect(to: path)
            try loop.watch(connection.descriptor, as: "session socket") { [unowned self] in readable() }
            self.connection = connection
            retryDelay = Self.firstRetry
            lostSaid = false
            connected()
        } catch {
            give(up: "cannot reach gridlockd at \(path): \(error)")
        }
    }

    /// Sends one request; a connection that cannot take it is closed and retried.
    public func send(_ request: SessionRequest) {
        guard let connection else { return }
        do throws(SystemCallError) {
            // One request at a time, each answered before the next: a full queue means a
            // server that stopped reading.
            if try !connection.send(request.encoded) { drop("gridlockd does not read its session socket \(path)") }
        } catch {
            drop("lost gridlockd at \(path): \(error)")
        }
    }

    public func close() {
        retry.due = nil
        guard let connection else { return }
        loop.unwatch(connection.descriptor)
        connection.close()
        self.connection = nil
    }

    private func readable() {
        guard let connection else { return }
        while true {
            let received: SeqPacketConnection.Received
            do throws(SystemCallError) {
                received = try connection.receive(limit: SessionProtocol.maximumLength + 1)
            } catch {
                return drop("lost gridlockd at \(path): \(error)")
            }
            switch received {
            case .nothing:
                return
            case .closed:
                return drop("gridlockd closed the session socket \(path)")
            case .truncated(let length):
                return drop("gridlockd sent a \(length)-byte packet on \(path), longer than any reply")
            case .message(let bytes):
                do throws(SessionDecodeError) {
                    replies(try SessionReply(decoding: bytes))
                } catch {
                    return drop("gridlockd's reply on \(path) did not decode: \(error)")
                }
                // A reply may have closed the connection (a refusal): stop reading a closed one.
                if self.connection == nil { return }
            }
        }
    }

    private func drop(_ why: String) {
        close()
        give(up: why)
    }

    private func give(up why: String) {
        if !lostSaid {
            lostSaid = true
            lost(why)
        }
        retry.due = loop.time + retryDelay
        retryDelay = min(retryDelay * 2, Self.longestRetry)
    }
}
