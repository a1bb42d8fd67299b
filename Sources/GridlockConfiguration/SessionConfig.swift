import LinuxSys

/// `[session]`: the socket lock faces in the user's session check strokes through
/// (docs/session-protocol.md). Without the section gridlockd opens no socket.
public struct SessionConfig: Hashable, Sendable {
    /// A `[session]` section was read (in any file): gridlockd listens.
    public var enabled = false
    public var socket = "/run/gridlock/session.sock"
    /// `allow-users=` as read: the uids its names and numbers give on this system, and the
    /// names this system has no user for (yet), which let no one in.
    public var allowedUsers = AllowedUsers()
    /// Peers whose uid is one of these are served.
    public var allowUsers: [UInt32] {
        get { allowedUsers.uids }
        set { allowedUsers.uids = newValue }
    }
    /// Peers whose primary gid is this are served; the socket is made 0660 root:GROUP.
    public var allowGroup: UInt32? = nil
    /// The lock face's: how long an unlocked session may be idle before it locks again.
    public var relockAfter: Duration? = nil

    public init() {}

    /// Whether a peer is served. Root is not let in by being root: only whom the section
    /// names, so the rule is the one line an administrator reads. (The socket admits root
    /// for `gridlock enroll`'s `enroll` and `status` alone, never for a check.)
    public func allows(_ peer: PeerCredentials) -> Bool {
        allowUsers.contains(peer.uid) || allowGroup == peer.gid
    }

    /// 0660 with a group; else 0666, the peer check being the gate (a session user must be
    /// able to connect for its uid to be judged).
    public var socketMode: FileMode { allowGroup == nil ? 0o666 : 0o660 }
}

/// `allow-users=`: who is served, as this system's user database says at the time it is read.
public struct AllowedUsers: Hashable, Sendable {
    public var uids: [UInt32] = []
    /// Names with no user here: nobody is let in by them. A warning at their line, not an
    /// error: the package's own `gridlock-panel` is made by systemd-sysusers only when the
    /// package is configured, after its configuration file was unpacked (and a build machine
    /// never has it); a reload or restart looks them up again.
    public var unknownNames: [String] = []

    public init(uids: [UInt32] = [], unknownNames: [String] = []) {
        self.uids = uids
        self.unknownNames = unknownNames
    }
}

extension ConfigValues {
    /// `allow-users=alice, 1000`: names (looked up now) or uids.
    package static func userList(_ text: String) throws(ValueProblem) -> AllowedUsers {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw ValueProblem("expected user names or uids separated by commas, got '\(text)'")
        }
        var users = AllowedUsers()
        for name in names {
            if let uid = UInt32(name) {
                users.uids.append(uid)
            } else if let uid = UserDatabase.userID(named: name) {
                users.uids.append(uid)
            } else {
                users.unknownNames.append(name)
            }
        }
        return users
    }

    /// `allow-group=gridlock-face`: a name (looked up now) or a gid.
    package static func groupName(_ text: String) throws(ValueProblem) -> UInt32 {
        guard !text.isEmpty else { throw ValueProblem("expected a group name or a gid, got nothing") }
        if let gid = UInt32(text) { return gid }
        guard let gid = UserDatabase.groupID(named: text) else { throw ValueProblem("no group '\(text)' on this system") }
        return gid
    }

    /// An absolute path short enough for a socket address (108 bytes with its NUL).
    package static func socketPath(_ text: String) throws(ValueProblem) -> String {
        guard text.hasPrefix("/") else { throw ValueProblem("expected an absolute path, got '\(text)'") }
        guard text.utf8.count < 108 else { throw ValueProblem("a socket path has at most 107 bytes, '\(text)' has \(text.utf8.count)") }
        guard !text.hasSuffix("/") else { throw ValueProblem("expected the socket's path, not a folder: '\(text)'") }
        return text
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
