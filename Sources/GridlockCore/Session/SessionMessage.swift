/// The messages between gridlockd and a lock face in the user's session, over a
/// `SOCK_SEQPACKET` socket: one packet is one message, so there is no framing and no parser
/// state between reads. docs/session-protocol.md has the byte layout.
///
/// Every message starts with the header `'G' 'L' version type`. Bodies are fixed or
/// count-prefixed, integers big-endian, and no message is longer than `maximumLength`:
/// anything else is a `SessionDecodeError`, never a guess.
public enum SessionProtocol {
    public static let magic: [UInt8] = [0x47, 0x4C]  // "GL"
    /// The newest version this side speaks: 2 adds a face's `report`, 3 the panel handed
    /// over to an action (`watchPanel`, `panelMode`, the `handedOver` status), 4 the lock's
    /// changes told as they happen (`watchLock`, `lockChanged`) and enrolment through the
    /// panel's face (`enroll`, `enrolled`, `enrollment`, the panel `enrolling`), 5 calibration
    /// through the panel's face (`calibrate`, `calibrated`, `calibration`, the panel `calibrating`).
    public static let version: UInt8 = 5
    /// Every version this side reads and answers in (a face of version 1 is answered in 1).
    public static let versions: ClosedRange<UInt8> = 1...5
    public static let headerLength = 4
    /// The longest message: a check of every node of the largest grid (8 x 8).
    public static let maximumLength = headerLength + 1 + maximumNodes
    /// The most nodes a check may carry: every node of the largest grid.
    public static let maximumNodes = 64
    /// A count too large for the wire (`rejected`, `lockedOut`, `status`) is sent as this.
    public static let saturated = Int(UInt32.max)

    /// The bytes of the header, for a message of `type` in `version`.
    static func header(_ type: UInt8, version: UInt8) -> [UInt8] { magic + [version, type] }
}

/// What a face saw happen to the devices it holds, told to gridlockd (version 2), whose
/// `[on tamper]` hooks a going one starts as if gridlockd had held the device itself.
public enum FaceEvent: UInt8, Hashable, Sendable, CaseIterable {
    /// The touchscreen the face read went away (unplugged, its driver gone).
    case touchscreenGone = 1
    case touchscreenBack = 2
    /// The display the face showed on went away (its connector, its card).
    case displayGone = 3
    case displayBack = 4
    /// The touchscreen held a contact that said nothing for `stuck-touch-ms`: the stroke was
    /// dropped (a failing controller, or something pressed on the glass).
    case contactStuck = 5
}

/// Whose the panel's display and touchscreen are (version 3): the lock's, which the panel's
/// face holds, or an action's (`[action] mode=handover`), for which the face lets them go.
public enum PanelMode: UInt8, Hashable, Sendable, CaseIterable {
    case lock = 0
    case handedOver = 1
    /// `gridlock enroll` asked for a new pattern (version 4): the face collects it, drawn
    /// twice, and sends it back (`enrolled`).
    case enrolling = 2
    /// `gridlock calibrate` asked for the five crosses (version 5): the face shows them, reads
    /// a tap on each with its touchscreen's calibration set aside, and sends them (`calibrated`).
    case calibrating = 3

    /// The oldest version that has this mode.
    public var sinceVersion: UInt8 {
        switch self {
        case .lock, .handedOver: 3
        case .enrolling: 4
        case .calibrating: 5
        }
    }
}

/// What a face asks.
public enum SessionRequest: Hashable, Sendable {
    /// A finished stroke: its nodes in order, numbered from 0 (the wire numbers them from 1,
    /// as a pattern's text does). The grid is the server's `[grid]`, never the face's.
    case check(nodes: [Int])
    /// What the lock would do with a check now.
    case status
    /// Something happened to the face's devices (version 2), answered `noted`.
    case report(FaceEvent)
    /// Tell me when the panel's mode is not `PanelMode` (the one the face acts on now):
    /// answered `panelMode` at once if it differs, else when it changes (version 3). The
    /// panel's face keeps one outstanding while connected.
    case watchPanel(PanelMode)
    /// Tell me when the lock changes in a way the last `status` or `lockChanged` I was told
    /// does not foresee: its grid or `min-nodes` (a reload), a lockout begun (by another
    /// face) or ended before its countdown (`gridlock reset-lockout`). Answered `lockChanged`
    /// at once if it already has, else when it does (version 4). A face keeps one
    /// outstanding while connected.
    case watchLock
    /// Have the panel's face collect a new pattern (version 4; root only: `gridlock enroll`).
    /// Answered `enrollment` with the nodes once the face sent them, or `notChecked` (busy:
    /// another enrolment or an action holds the panel; noPanelFace: no face holds it, or the
    /// last one went).
    case enroll
    /// The pattern drawn twice on the panel's face while the panel is `enrolling` (version
    /// 4), numbered as a check's; answered `noted`.
    case enrolled(nodes: [Int])
    /// Have the panel's face show calibration's crosses (version 5; root only: `gridlock
    /// calibrate`). Answered `calibration` with the taps once the face sent them, or
    /// `notChecked` as an `enroll` is.
    case calibrate
    /// A tap on each cross while the panel is `calibrating` (version 5); answered `noted`.
    case calibrated(CalibrationTaps)

    enum Code: UInt8 {
        case check = 0x01
        case status = 0x02
        case report = 0x03
        case watchPanel = 0x04
        case watchLock = 0x05
        case enroll = 0x06
        case enrolled = 0x07
        case calibrate = 0x08
        case calibrated = 0x09
    }

    /// The oldest version that has this request.
    public var sinceVersion: UInt8 {
        switch self {
        case .check, .status: 1
        case .report: 2
        case .watchPanel: 3
        case .watchLock, .enroll, .enrolled: 4
        case .calibrate, .calibrated: 5
        }
    }

    /// In the newest version.
    public var encoded: [UInt8] { encoded(version: SessionProtocol.version) }

    /// Nodes outside 0..<64 are the caller's mistake; they are clamped, and the server's
    /// decoder then refuses them.
    public func encoded(version: UInt8) -> [UInt8] {
        switch self {
        case .check(let nodes):
            SessionProtocol.header(Code.check.rawValue, version: version) + Self.nodeList(nodes)
        case .enrolled(let nodes):
            SessionProtocol.header(Code.enrolled.rawValue, version: version) + Self.nodeList(nodes)
        case .enroll:
            SessionProtocol.header(Code.enroll.rawValue, version: version)
        case .calibrate:
            SessionProtocol.header(Code.calibrate.rawValue, version: version)
        case .calibrated(let taps):
            SessionProtocol.header(Code.calibrated.rawValue, version: version) + taps.body
        case .status:
            SessionProtocol.header(Code.status.rawValue, version: version)
        case .report(let event):
            SessionProtocol.header(Code.report.rawValue, version: version) + [event.rawValue]
        case .watchPanel(let mode):
            SessionProtocol.header(Code.watchPanel.rawValue, version: version) + [mode.rawValue]
        case .watchLock:
            SessionProtocol.header(Code.watchLock.rawValue, version: version)
        }
    }

    /// A count, then the nodes numbered from 1.
    static func nodeList(_ nodes: [Int]) -> [UInt8] {
        [UInt8(clamping: nodes.count)] + nodes.map { UInt8(clamping: $0 + 1) }
    }

    /// Reads one request for a grid of `nodeCount` nodes: node numbers must lie in
    /// 1...nodeCount and be distinct (the tracker never selects a node twice), with at least
    /// one and at most `nodeCount`.
    public init(decoding bytes: [UInt8], nodeCount: Int) throws(SessionDecodeError) {
        let (version, type) = try SessionDecodeError.checkHeader(bytes)
        guard let code = Code(rawValue: type) else { throw .unknownType(type) }
        switch code {
        case .calibrate:
            guard version >= 5 else { throw .unknownType(type) }
            try SessionDecodeError.checkLength(bytes, SessionProtocol.headerLength, type: type)
            self = .calibrate
        case .calibrated:
            guard version >= 5 else { throw .unknownType(type) }
            try SessionDecodeError.checkLength(bytes, SessionProtocol.headerLength + CalibrationTaps.bodyLength, type: type)
            self = .calibrated(try CalibrationTaps.decode(bytes[SessionProtocol.headerLength...]))
        case .watchLock, .enroll:
            guard version >= 4 else { throw .unknownType(type) }
            try SessionDecodeError.checkLength(bytes, SessionProtocol.headerLength, type: type)
            self = code == .enroll ? .enroll : .watchLock
        case .enrolled:
            guard version >= 4 else { throw .unknownType(type) }
            self = .enrolled(nodes: try Self.nodes(bytes, nodeCount: nodeCount))
        case .watchPanel:
            guard version >= 3 else { throw .unknownType(type) }
            try SessionDecodeError.checkLength(bytes, SessionProtocol.headerLength + 1, type: type)
            guard let mode = PanelMode(rawValue: bytes[SessionProtocol.headerLength]), mode.sinceVersion <= version else {
                throw .unknownPanelMode(bytes[SessionProtocol.headerLength])
            }
            self = .watchPanel(mode)
        case .report:
            guard version >= 2 else { throw .unknownType(type) }
            try SessionDecodeError.checkLength(bytes, SessionProtocol.headerLength + 1, type: type)
            guard let event = FaceEvent(rawValue: bytes[SessionProtocol.headerLength]) else {
                throw .unknownEvent(bytes[SessionProtocol.headerLength])
            }
            self = .report(event)
        case .status:
            try SessionDecodeError.checkLength(bytes, SessionProtocol.headerLength, type: type)
            self = .status
        case .check:
            self = .check(nodes: try Self.nodes(bytes, nodeCount: nodeCount))
        }
    }

    /// A check's or an enrolment's nodes: a count, then as many distinct nodes of the grid.
    static func nodes(_ bytes: [UInt8], nodeCount: Int) throws(SessionDecodeError) -> [Int] {
        let type = bytes[3]
        guard bytes.count > SessionProtocol.headerLength else {
            throw .wrongLength(type: type, expected: SessionProtocol.headerLength + 1, actual: bytes.count)
        }
        let count = Int(bytes[SessionProtocol.headerLength])
        guard count > 0 else { throw .noNodes }
        guard count <= min(nodeCount, SessionProtocol.maximumNodes) else {
            throw .tooManyNodes(count: count, most: min(nodeCount, SessionProtocol.maximumNodes))
        }
        try SessionDecodeError.checkLength(bytes, SessionProtocol.headerLength + 1 + count, type: type)
        var seen = Set<Int>()
        var nodes: [Int] = []
        for byte in bytes[(SessionProtocol.headerLength + 1)...] {
            let number = Int(byte)
            guard (1...nodeCount).contains(number) else { throw .nodeOutOfRange(number, nodeCount: nodeCount) }
            guard seen.insert(number).inserted else { throw .repeatedNode(number) }
            nodes.append(number - 1)
        }
        return nodes
    }
}

/// Why a request was answered without a verdict. None of these is counted as a failure.
public enum NotCheckedReason: UInt8, Hashable, Sendable, CaseIterable {
    /// A check is already running (from any face or the panel), or its result is being shown.
    case busy = 1
    /// gridlockd is stopping.
    case stopping = 2
    /// The peer's uid and gid are not in `[session] allow-users=` / `allow-group=`.
    case refusedPeer = 3
    /// The request's header named a version this server does not speak.
    case unsupportedVersion = 4
    /// The request could not be decoded; the connection is closed after this reply.
    case malformed = 5
    /// Fewer nodes than `[grid] min-nodes=`: refused as the panel refuses it, not counted.
    case tooShort = 6
    /// The failure could not be written to the state file, so the pattern was not checked.
    case notRecorded = 7
    /// Too many connections, or too many messages a second: the connection is closed.
    case overloaded = 8
    /// An `enroll` (or, version 5, a `calibrate`) with no face holding the panel, or whose
    /// face went (version 4).
    case noPanelFace = 9
}

/// The lock as a face sees it, in a `status` reply.
public struct SessionStatus: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        /// A check now would be verified.
        case ready
        /// A check now is answered `lockedOut(seconds)`.
        case lockedOut(seconds: Int)
        /// A check now is answered `notChecked(reason)`.
        case notChecking(NotCheckedReason)
        /// An action holds the panel (`[action] mode=handover`); a check now is answered
        /// `notChecked(busy)` (version 3; to older faces this is `notChecking(busy)`).
        case handedOver
    }

    public var state: State
    /// The server's grid, which the face draws: check nodes are numbered on it.
    public var rows: Int
    public var columns: Int
    /// `[grid] min-nodes=`.
    public var minimumNodes: Int

    public init(state: State, rows: Int, columns: Int, minimumNodes: Int) {
        self.state = state
        self.rows = rows
        self.columns = columns
        self.minimumNodes = minimumNodes
    }
}

/// What gridlockd answers.
public enum SessionReply: Hashable, Sendable {
    /// The pattern matched; its action runs.
    case accepted
    /// No match (or its schedule or uses refused it, which looks the same): `failures` in a
    /// row now, `remainingBeforeLockout` more before one starts a lockout (nil: never).
    case rejected(failures: Int, remainingBeforeLockout: Int?)
    /// Nothing is checked for `seconds` more.
    case lockedOut(seconds: Int)
    case notChecked(NotCheckedReason)
    case status(SessionStatus)
    /// A face's `report` was heard (version 2).
    case noted
    /// The panel's mode now, which differs from the one a `watchPanel` named (version 3).
    case panelMode(PanelMode)
    /// The answer to a `watchLock`: the lock's status now, laid out as a `status` reply's
    /// (version 4).
    case lockChanged(SessionStatus)
    /// The answer to an `enroll`: the pattern the panel's face collected (version 4).
    case enrollment(nodes: [Int])
    /// The answer to a `calibrate`: the taps the panel's face read (version 5).
    case calibration(CalibrationTaps)

    enum Code: UInt8 {
        case accepted = 0x81
        case rejected = 0x82
        case lockedOut = 0x83
        case notChecked = 0x84
        case status = 0x85
        case noted = 0x86
        case panelMode = 0x87
        case lockChanged = 0x88
        case enrollment = 0x89
        case calibration = 0x8A

        /// The oldest version that has this reply.
        var sinceVersion: UInt8 {
            switch self {
            case .accepted, .rejected, .lockedOut, .notChecked, .status: 1
            case .noted: 2
            case .panelMode: 3
            case .lockChanged, .enrollment: 4
            case .calibration: 5
            }
        }
    }

    /// `remainingBeforeLockout` nil on the wire.
    static let never = UInt32.max

    static let statusReady: UInt8 = 0
    static let statusLockedOut: UInt8 = 1
    static let statusNotChecking: UInt8 = 2
    static let statusHandedOver: UInt8 = 3

    /// In the newest version.
    public var encoded: [UInt8] { encoded(version: SessionProtocol.version) }

    /// In `version`: the one the face asked in (a `noted` only ever answers a version 2 `report`).
    public func encoded(version: UInt8) -> [UInt8] {
        func header(_ code: Code) -> [UInt8] { SessionProtocol.header(code.rawValue, version: version) }
        switch self {
        case .accepted:
            return header(.accepted)
        case .noted:
            return header(.noted)
        case .panelMode(let mode):
            return header(.panelMode) + [mode.rawValue]
        case .rejected(let failures, let remaining):
            return header(.rejected) + Self.word(failures)
                + (remaining.map(Self.word) ?? Self.word(UInt32.max))
        case .lockedOut(let seconds):
            return header(.lockedOut) + Self.word(seconds)
        case .notChecked(let reason):
            return header(.notChecked) + [reason.rawValue]
        case .status(let status):
            return header(.status) + Self.body(of: status, version: version)
        case .lockChanged(let status):
            return header(.lockChanged) + Self.body(of: status, version: version)
        case .enrollment(let nodes):
            return header(.enrollment) + SessionRequest.nodeList(nodes)
        case .calibration(let taps):
            return header(.calibration) + taps.body
        }
    }

    /// A `status` or `lockChanged` reply's nine bytes.
    private static func body(of status: SessionStatus, version: UInt8) -> [UInt8] {
        let (state, reason, seconds): (UInt8, UInt8, Int) =
            switch status.state {
            case .ready: (Self.statusReady, 0, 0)
            case .lockedOut(let seconds): (Self.statusLockedOut, 0, seconds)
            case .notChecking(let reason): (Self.statusNotChecking, reason.rawValue, 0)
            case .handedOver where version >= 3: (Self.statusHandedOver, 0, 0)
            // An older face knows no handover: to it a check now is what it would be.
            case .handedOver: (Self.statusNotChecking, NotCheckedReason.busy.rawValue, 0)
            }
        return [state, reason, UInt8(clamping: status.rows), UInt8(clamping: status.columns),
                UInt8(clamping: status.minimumNodes)]
            + Self.word(seconds)
    }

    /// The body lengths of the fixed-size replies (nil: a count and its nodes).
    static func bodyLength(_ code: Code) -> Int? {
        switch code {
        case .accepted, .noted: 0
        case .panelMode: 1
        case .rejected: 8
        case .lockedOut: 4
        case .notChecked: 1
        case .status, .lockChanged: 9
        case .calibration: CalibrationTaps.bodyLength
        case .enrollment: nil
        }
    }

    /// What a face reads. A count of `UInt32.max` reads as the most an `Int` on the wire can
    /// hold (`SessionProtocol.saturated`), except a rejected reply's remaining, where it is nil.
    public init(decoding bytes: [UInt8]) throws(SessionDecodeError) {
        let (version, type) = try SessionDecodeError.checkHeader(bytes)
        guard let code = Code(rawValue: type), version >= code.sinceVersion else { throw .unknownType(type) }
        if let length = Self.bodyLength(code) {
            try SessionDecodeError.checkLength(bytes, SessionProtocol.headerLength + length, type: type)
        }
        let body = Array(bytes[SessionProtocol.headerLength...])
        switch code {
        case .calibration:
            self = .calibration(try CalibrationTaps.decode(body[...]))
        case .enrollment:
            // On the largest grid: the reader builds the pattern on its own grid, which checks it.
            self = .enrollment(nodes: try SessionRequest.nodes(bytes, nodeCount: SessionProtocol.maximumNodes))
        case .accepted:
            self = .accepted
        case .noted:
            self = .noted
        case .panelMode:
            guard let mode = PanelMode(rawValue: body[0]), mode.sinceVersion <= version else { throw .unknownPanelMode(body[0]) }
            self = .panelMode(mode)
        case .rejected:
            let remaining = Self.word(body, at: 4)
            self = .rejected(failures: Int(Self.word(body, at: 0)), remainingBeforeLockout: remaining == Self.never ? nil : Int(remaining))
        case .lockedOut:
            self = .lockedOut(seconds: Int(Self.word(body, at: 0)))
        case .notChecked:
            guard let reason = NotCheckedReason(rawValue: body[0]) else { throw .unknownReason(body[0]) }
            self = .notChecked(reason)
        case .status:
            self = .status(try Self.status(body, version: version))
        case .lockChanged:
            self = .lockChanged(try Self.status(body, version: version))
        }
    }

    /// A `status` or `lockChanged` reply's body read.
    private static func status(_ body: [UInt8], version: UInt8) throws(SessionDecodeError) -> SessionStatus {
        let state: SessionStatus.State
        switch body[0] {
        case Self.statusReady where body[1] == 0:
            guard Self.word(body, at: 5) == 0 else { throw .nonZeroUnused }
            state = .ready
        case Self.statusLockedOut where body[1] == 0:
            state = .lockedOut(seconds: Int(Self.word(body, at: 5)))
        case Self.statusNotChecking:
            guard let reason = NotCheckedReason(rawValue: body[1]) else { throw .unknownReason(body[1]) }
            guard Self.word(body, at: 5) == 0 else { throw .nonZeroUnused }
            state = .notChecking(reason)
        case Self.statusHandedOver where version >= 3:
            guard body[1] == 0, Self.word(body, at: 5) == 0 else { throw .nonZeroUnused }
            state = .handedOver
        case Self.statusReady, Self.statusLockedOut:
            throw .nonZeroUnused
        default:
            throw .unknownState(body[0])
        }
        let dimensions = GridShape.allowedDimensions
        let rows = Int(body[2]), columns = Int(body[3]), minimum = Int(body[4])
        guard dimensions.contains(rows), dimensions.contains(columns) else { throw .gridOutOfRange(rows: rows, columns: columns) }
        guard (1...(rows * columns)).contains(minimum) else { throw .minimumOutOfRange(minimum) }
        return SessionStatus(state: state, rows: rows, columns: columns, minimumNodes: minimum)
    }

    private static func word(_ value: Int) -> [UInt8] { word(UInt32(clamping: value)) }

    /// A 32-bit count on the wire, big-endian (calibration's taps use it too).
    static func word(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// Why bytes are not a message. The server answers every one with `notChecked(malformed)`
/// (`unsupportedVersion` with `notChecked(unsupportedVersion)`) and closes the connection.
public enum SessionDecodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Shorter than the 4-byte header.
    case truncatedHeader(length: Int)
    /// Longer than any message (`SessionProtocol.maximumLength`).
    case tooLong(length: Int)
    case wrongMagic
    case unsupportedVersion(UInt8)
    case unknownType(UInt8)
    /// The body does not have the length its type (and count) says.
    case wrongLength(type: UInt8, expected: Int, actual: Int)
    case noNodes
    case tooManyNodes(count: Int, most: Int)
    /// A node number (as on the wire, from 1) outside 1...nodeCount.
    case nodeOutOfRange(Int, nodeCount: Int)
    case repeatedNode(Int)
    case unknownReason(UInt8)
    case unknownEvent(UInt8)
    case unknownPanelMode(UInt8)
    case unknownState(UInt8)
    case gridOutOfRange(rows: Int, columns: Int)
    case minimumOutOfRange(Int)
    /// A status reply's seconds when it is not a lockout's, or a reason beside ready or locked out.
    case nonZeroUnused
    /// Calibration's taps that are not five taps on a known rotation and frame (version 5).
    case wrongCalibration(String)

    public var description: String {
        switch self {
        case .truncatedHeader(let length): "\(length) bytes, shorter than the 4-byte header"
        case .tooLong(let length): "\(length) bytes, longer than the \(SessionProtocol.maximumLength) a message may have"
        case .wrongMagic: "not a gridlock message (the first two bytes are not GL)"
        case .unsupportedVersion(let version):
            "protocol version \(version), this side speaks \(SessionProtocol.versions.lowerBound) to \(SessionProtocol.versions.upperBound)"
        case .unknownType(let type): "unknown message type \(type)"
        case .wrongLength(let type, let expected, let actual): "message type \(type) of \(actual) bytes, expected \(expected)"
        case .noNodes: "a check with no nodes"
        case .tooManyNodes(let count, let most): "a check of \(count) nodes, at most \(most)"
        case .nodeOutOfRange(let node, let nodeCount): "node \(node) is not on the grid's 1...\(nodeCount)"
        case .repeatedNode(let node): "node \(node) appears twice"
        case .unknownReason(let reason): "unknown reason code \(reason)"
        case .unknownEvent(let event): "unknown face event \(event)"
        case .unknownPanelMode(let mode): "unknown panel mode \(mode)"
        case .unknownState(let state): "unknown status state \(state)"
        case .gridOutOfRange(let rows, let columns): "a grid of \(rows)x\(columns)"
        case .minimumOutOfRange(let minimum): "a minimum of \(minimum) nodes"
        case .nonZeroUnused: "a field this state does not use is not 0"
        case .wrongCalibration(let why): "calibration taps: \(why)"
        }
    }

    /// The message's version and type, once the length bound, magic and version are right.
    static func checkHeader(_ bytes: [UInt8]) throws(SessionDecodeError) -> (version: UInt8, type: UInt8) {
        guard bytes.count <= SessionProtocol.maximumLength else { throw .tooLong(length: bytes.count) }
        guard bytes.count >= SessionProtocol.headerLength else { throw .truncatedHeader(length: bytes.count) }
        guard bytes[0] == SessionProtocol.magic[0], bytes[1] == SessionProtocol.magic[1] else { throw .wrongMagic }
        guard SessionProtocol.versions.contains(bytes[2]) else { throw .unsupportedVersion(bytes[2]) }
        return (bytes[2], bytes[3])
    }

    /// The version a message says it is in (a decoded one: 1 to 3).
    public static func version(of bytes: [UInt8]) -> UInt8? {
        bytes.count >= SessionProtocol.headerLength ? bytes[2] : nil
    }

    static func checkLength(_ bytes: [UInt8], _ expected: Int, type: UInt8) throws(SessionDecodeError) {
        guard bytes.count == expected else { throw .wrongLength(type: type, expected: expected, actual: bytes.count) }
    }
}

extension SessionReply {
    /// The lock machine's answer to a check, as the protocol says it. A stroke whose nodes
    /// are not on the grid any more (it was reloaded since the face asked) is `busy`: not
    /// checked, not counted, and the face's next `status` tells it the grid now.
    public init(_ verdict: CheckVerdict) {
        switch verdict {
        case .accepted: self = .accepted
        case .rejected(let failures, let remaining): self = .rejected(failures: failures, remainingBeforeLockout: remaining)
        case .lockedOut(let seconds): self = .lockedOut(seconds: seconds)
        case .busy, .notOnGrid: self = .notChecked(.busy)
        case .tooShort: self = .notChecked(.tooShort)
        case .notRecorded: self = .notChecked(.notRecorded)
        }
    }
}
