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
            ("allow-users=no-such-user-here", "[session] allow-users: no user 'no-such-user-here' on this system"),
            ("allow-users=root,,1000", "[session] allow-users: expected user names or uids separated by commas, got 'root,,1000'"),

            ("socket=run/session.sock", "[session] socket: expected an absolute path, got 'run/session.sock'"),
            ("socket=\(long)", "[session] socket: a socket path has at most 107 bytes, '\(long)' has 109"),
        ]
        for (line, said) in cases {
            let loaded = try load("[session]\nallow-group=0\n\(line)\n")
            #expect(loaded.found == ["\(loaded.path):3: \(said)"], "\(line)")
        }
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
