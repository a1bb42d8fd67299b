import Foundation
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// `[session]` and the verifier-only backends: each key checked at its line, and a lock that
/// nothing could open refused.
@Suite struct ConfigSessionTests {
    func load(_ text: String) throws -> (config: GridlockConfig, path: String, found: [String]) {
        let folder = try ConfigFixtures.scratch(["gridlock.conf": text])
        let path = "\(folder)/gridlock.conf"
        defer { ConfigFixtures.remove(folder) }
        return (ConfigLoader.run(path: path).0, path, ConfigFixtures.diagnostics(path))
    }

    @Test("without [session] no socket is asked for; the section alone asks for the default one")
    func theSectionTurnsTheSocketOn() throws {
        let without = try load("[grid]\nrows=3\n")
        #expect(!without.config.session.enabled)
        let with = try load("[session]\nallow-users=0\n")
        #expect(with.found.isEmpty)
        #expect(with.config.session.enabled)
        #expect(with.config.session.socket == "/run/gridlock/session.sock")
        #expect(with.config.session.allowUsers == [0])
        #expect(with.config.session.socketMode == 0o666)
    }

    @Test("allow-users takes names and uids, allow-group a name or a gid, and the group makes the socket 0660")
    func usersAndGroups() throws {
        let loaded = try load("[session]\nsocket=/run/face/s.sock\nallow-users=root, 1000,4242\nallow-group=root\n")
        #expect(loaded.found.isEmpty)
        #expect(loaded.config.session.socket == "/run/face/s.sock")
        #expect(loaded.config.session.allowUsers == [0, 1000, 4242])
        #expect(loaded.config.session.allowGroup == 0)
        #expect(loaded.config.session.socketMode == 0o660)
        #expect(loaded.config.session.allows(PeerCredentials(pid: 1, uid: 4242, gid: 99)))
        #expect(loaded.config.session.allows(PeerCredentials(pid: 1, uid: 77, gid: 0)))
        #expect(!loaded.config.session.allows(PeerCredentials(pid: 1, uid: 77, gid: 99)))
    }

    @Test("an unknown user or group, an empty name, a relative or over-long socket path is an error at its line")
    func badValues() throws {
        let long = "/" + String(repeating: "s", count: 108)
        let cases: [(String, String)] = [
            ("allow-users=root,,1000", "[session] allow-users: expected user names or uids separated by commas, got 'root,,1000'"),

            ("socket=run/session.sock", "[session] socket: expected an absolute path, got 'run/session.sock'"),
            ("socket=\(long)", "[session] socket: a socket path has at most 107 bytes, '\(long)' has 109"),
        ]
        for (line, said) in cases {
            let loaded = try load("[session]\nallow-group=0\n\(line)\n")
            #expect(loaded.found == ["\(loaded.path):3: \(said)"], "\(line)")
        }
    }

    @Test("a user name with no user here is a warning at its line and lets no one in; the others still count")
    func unknownUserLetsNoOneIn() throws {
        let folder = try ConfigFixtures.scratch(["gridlock.conf": "[session]\nallow-users=no-such-user-here, 4242\n"])
        defer { ConfigFixtures.remove(folder) }
        let path = "\(folder)/gridlock.conf"
        let check = ConfigLoader.validateOnly(path: path)
        #expect(check.diagnostics.isEmpty)
        #expect(check.warnings.map(\.description) == [
            "\(path):2: [session] allow-users: no user 'no-such-user-here' on this system: nobody is let in by that name until it exists and gridlockd is reloaded (a typo? gridlock-panel is made by the package, with systemd-sysusers)",
        ])
        let config = ConfigLoader.run(path: path).0
        #expect(config.session.allowUsers == [4242])
        #expect(config.session.allowedUsers.unknownNames == ["no-such-user-here"])
        #expect(config.session.allows(PeerCredentials(pid: 1, uid: 4242, gid: 99)))
        // Nobody else: not root, not a peer of any other uid.
        #expect(![0, 1000, 65534].contains { config.session.allows(PeerCredentials(pid: 1, uid: $0, gid: 99)) })
        // A section whose only name is unknown still counts as saying whom it serves.
        let alone = try load("[session]\nallow-users=no-such-user-here\n")
        #expect(alone.found.isEmpty)
        #expect(alone.config.session.allowUsers.isEmpty)
    }

    @Test("an unknown group is an error at its line")
    func unknownGroup() throws {
        let loaded = try load("[session]\nallow-users=0\nallow-group=no-such-group-here\n")
        #expect(loaded.found == ["\(loaded.path):3: [session] allow-group: no group 'no-such-group-here' on this system"])
    }

    @Test("[session] that lets no one in, and backend=none without [session], are refused at their lines")
    func uselessLocksAreRefused() throws {
        let nobody = try load("[grid]\nrows=3\n[session]\nsocket=/run/x.sock\n")
        #expect(nobody.found == ["\(nobody.path):3: [session] needs allow-users= or allow-group=: it lets no one in otherwise"])
        let noFace = try load("[display]\nbackend=none\n[touch]\nbackend=none\n")
        #expect(noFace.found == [
            "\(noFace.path):2: [display] backend=none needs a [session] section: with no screen, only a lock face in the session can open",
            "\(noFace.path):4: [touch] backend=none needs a [session] section: with no touch, only a lock face in the session can open",
        ])
        let verifierOnly = try load("[display]\nbackend=none\n[touch]\nbackend=none\n[session]\nallow-users=0\n")
        #expect(verifierOnly.found.isEmpty)
        #expect(verifierOnly.config.display.backend == .off)
        #expect(verifierOnly.config.touch.backend == .off)
    }
}
