import GridlockCore
import LinuxSys

/// A lock face's connection to gridlockd's session socket, on the face's one loop.
///
/// It connects, says so through `connected` (the face then asks `status`), and hands every
/// decoded reply to `replies`. When the
/// connection cannot be made or goes away, it says so once through `lost` and tries again
/// later, backing off to `longestRetry`, so a face started before gridlockd, or outliving a
/// restart of it, finds it without a busy loop. What a reply means is the `FaceMachine`'s.
///
/// It believes only a server run by one of `serverUsers` (root, for gridlockd; `SO_PEERCRED` of the
/// connection): a socket of anyone else's put in gridlockd's place is closed before a
/// byte is read, said through `lost`, and tried again later, so its answers can never
/// unlock. A face's watch (`watchLock`, version 4; `watchPanel`, 3) keeps its connection
/// open at gridlockd; with none (an older gridlockd) the client sends a `status` of its own
/// after `keepAlive` of quiet, whose reply it keeps to itself, so gridlockd's idle timeout
/// never closes a face that merely waits for a finger.
public final class SessionClient {
    public let path: String
    /// The uids a server may run as: root, gridlockd's user.
    public let serverUsers: Set<UInt32>
    private unowned let loop: EventLoop
    private let retry: EventLoop.Deadline
    private let quiet: EventLoop.Deadline
    /// Each request sent and not yet answered, in order, by whose its reply is.
    private var outstanding: [Awaited] = []

    private enum Awaited {
        /// A request of the face's: its reply goes to `replies`.
        case face
        /// A keep-alive's `status`: its reply is the client's own.
        case keepAlive
        /// A `report`: answered `noted` at once, also while a check is out (a check is
        /// answered when it is decided), so its reply is matched by its kind, not its place.
        case report
        /// A `watchPanel`: answered `panelMode` when the panel changes hands, which may be
        /// long after later requests are answered; matched by its kind too.
        case panel
        /// A `watchLock`: answered `lockChanged` when the lock changes; matched by its kind.
        case lock

        /// Whether `reply` is this one's by its kind (the rest are answered in order).
        func isAnswered(by reply: SessionReply) -> Bool {
            switch self {
            case .report: reply == .noted
            case .panel: if case .panelMode = reply { true } else { false }
            case .lock: if case .lockChanged = reply { true } else { false }
            case .face, .keepAlive: false
            }
        }

        var isMatchedByKind: Bool { self == .report || self == .panel || self == .lock }

        /// A watch: gridlockd never closes a connection for being idle while one waits.
        var isWatch: Bool { self == .panel || self == .lock }
    }
    /// The protocol version spoken: the newest, until a server answers that it does not
    /// speak it (an older gridlockd); then one older from the next connection, until one
    /// is spoken (version 1 has no reports, versions 1 and 2 no handover).
    public private(set) var version = SessionProtocol.version
    private var connection: SeqPacketConnection?
    private var retryDelay = SessionClient.firstRetry
    private var lostSaid = false
    private let connected: () -> Void
    private let replies: (SessionReply) -> Void
    private let lost: (String) -> Void

    static let firstRetry: Duration = .milliseconds(250)
    static let longestRetry: Duration = .seconds(5)
    /// Well within gridlockd's idle timeout (`SessionServer.idleTimeout`, 60 s).
    public static let keepAlive: Duration = .seconds(20)

    /// `connected` is called on every connection made; `replies` gets each reply in order;
    /// `lost` a sentence saying why nothing can be checked (once per outage).
    public init(
        path: String, loop: EventLoop, serverUsers: Set<UInt32> = [0], connected: @escaping () -> Void,
        replies: @escaping (SessionReply) -> Void, lost: @escaping (String) -> Void
    ) {
        self.path = path
        self.serverUsers = serverUsers
        self.loop = loop
        self.connected = connected
        self.replies = replies
        self.lost = lost
        retry = loop.deadline("session reconnect")
        quiet = loop.deadline("session keep-alive")
        retry.onFire { [unowned self] _ in connect() }
        quiet.onFire { [unowned self] _ in keepConnection() }
    }

    public var isConnected: Bool { connection != nil }

    /// Connects now, or arranges to try again.
    public func connect() {
        guard connection == nil else { return }
        do throws(SystemCallError) {
            let connection = try SeqPacketConnection.connect(to: path)
            let server: PeerCredentials
            do throws(SystemCallError) {
                server = try connection.peer()
            } catch {
                connection.close()
                throw error
            }
            guard serverUsers.contains(server.uid) else {
                connection.close()
                let trusted = serverUsers.sorted().map(String.init).joined(separator: ", ")
                return give(up: "the session socket \(path) is served by \(server), not by gridlockd's user (uid \(trusted)): refusing to believe anything it says")
            }
            try loop.watch(connection.descriptor, as: "session socket") { [unowned self] in readable() }
            self.connection = connection
            retryDelay = Self.firstRetry
            lostSaid = false
            outstanding = []
            quiet.due = loop.time + Self.keepAlive
            connected()
        } catch {
            give(up: "cannot reach gridlockd at \(path): \(error)")
        }
    }

    /// Sends one request; a connection that cannot take it is closed and retried. A
    /// `report` is the client's own business: its `noted` is not handed on, and it is not
    /// sent to a server of version 1 (which would close the connection on it).
    public func send(_ request: SessionRequest) {
        guard let connection, request.sinceVersion <= version else { return }
        do throws(SystemCallError) {
            // One request at a time, each answered before the next: a full queue means a
            // server that stopped reading.
            if try !connection.send(request.encoded(version: version)) { return drop("gridlockd does not read its session socket \(path)") }
            switch request {
            // An enrolment's nodes and calibration's taps are answered `noted`, as a report is.
            case .report, .enrolled, .calibrated: outstanding.append(.report)
            case .watchPanel: outstanding.append(.panel)
            case .watchLock: outstanding.append(.lock)
            case .check, .status, .enroll, .calibrate: outstanding.append(.face)
            }
            quiet.due = loop.time + Self.keepAlive
        } catch {
            drop("lost gridlockd at \(path): \(error)")
        }
    }

    /// After `keepAlive` of quiet: a `status` of its own, unless a request waits for its reply.
    /// A connection that watches the panel or the lock is never idle at gridlockd: nothing
    /// to keep.
    private func keepConnection() {
        guard let connection else { return }
        if outstanding.contains(where: \.isWatch) {
            quiet.due = nil
            return
        }
        guard outstanding.isEmpty else {
            quiet.due = loop.time + Self.keepAlive
            return
        }
        do throws(SystemCallError) {
            if try !connection.send(SessionRequest.status.encoded(version: version)) {
                return drop("gridlockd does not read its session socket \(path)")
            }
            outstanding.append(.keepAlive)
            quiet.due = loop.time + Self.keepAlive
        } catch {
            drop("lost gridlockd at \(path): \(error)")
        }
    }

    public func close() {
        retry.due = nil
        quiet.due = nil
        outstanding = []
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
                let reply: SessionReply
                do throws(SessionDecodeError) {
                    reply = try SessionReply(decoding: bytes)
                } catch {
                    return drop("gridlockd's reply on \(path) did not decode: \(error)")
                }
                if reply == .notChecked(.unsupportedVersion), version > SessionProtocol.versions.lowerBound {
                    // An older gridlockd: one version older from the next connection on.
                    version -= 1
                    Journal.log(.notice, "gridlockd at \(path) does not speak the session protocol's version \(version + 1): trying \(version)\(version < 2 ? "; a face's reports (tamper) are not sent" : "")\(version < 3 ? "; the panel is never handed over" : "")\(version < 4 ? "; a lockout reset or a new grid shows at the next check" : "")")
                    return drop("gridlockd at \(path) refused protocol version \(version + 1)")
                }
                quiet.due = loop.time + Self.keepAlive
                if let byKind = outstanding.firstIndex(where: { $0.isAnswered(by: reply) }) {
                    // A report's `noted`, the panel's mode or the lock's news, whatever was sent
                    // before it.
                    let awaited = outstanding.remove(at: byKind)
                    if awaited.isWatch { replies(reply) }
                } else {
                    // A reply nobody asked for (a refusal before closing) goes to the face too.
                    let next = outstanding.firstIndex(where: { !$0.isMatchedByKind })
                    let awaited = next.map { outstanding.remove(at: $0) } ?? .face
                    if case .face = awaited { replies(reply) }
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
