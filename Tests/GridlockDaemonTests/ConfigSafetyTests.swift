import Foundation
import Glibc
import Testing
@testable import GridlockDaemon

@Suite struct ConfigSafetyTests {
    static let hash = "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"

    /// A config folder: main file, one drop-in with a pattern, one without, state folder.
    func makeSetup() throws -> (folder: String, loaded: LoadedConfig) {
        let folder = try ConfigFixtures.scratch([
            "gridlock.conf": "[display]\nbackend=png\noutput-dir=frames\n[touch]\nbackend=replay\ndevice=rec.evemu\n",
            "gridlock.conf.d/50-door.conf": "[pattern door]\nhash=\(Self.hash)\n",
            "gridlock.conf.d/60-theme.conf": "[theme]\nnode=#112233\n",
            "state/.keep": "",
        ])
        try FileManager.default.createDirectory(atPath: "\(folder)/frames", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: "\(folder)/rec.evemu", contents: Data())
        try "[lockout]\nstate-file=../state/attempts\n".write(toFile: "\(folder)/gridlock.conf.d/10-state.conf", atomically: true, encoding: .utf8)
        for file in ["gridlock.conf", "gridlock.conf.d/50-door.conf", "gridlock.conf.d/60-theme.conf", "gridlock.conf.d/10-state.conf"] {
            chmod("\(folder)/\(file)", 0o600)
        }
        chmod("\(folder)/state", 0o700)
        return (folder, try ConfigLoader.load(path: "\(folder)/gridlock.conf"))
    }

    @Test func aRootOwnedPrivateSetupIsSafe() throws {
        let (folder, loaded) = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        #expect(ConfigSafety.problems(loaded: loaded, runningAs: 0).isEmpty)
    }

    @Test func aGroupWritableMainFileIsRefusedWithTheFix() throws {
        let (folder, loaded) = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        chmod("\(folder)/gridlock.conf", 0o664)
        let problems = ConfigSafety.problems(loaded: loaded, runningAs: 0)
        #expect(problems.map(\.path) == ["\(folder)/gridlock.conf"])
        #expect(problems.first?.message.contains("writable by its group (mode 0664)") == true)
        #expect(problems.first?.message.contains("chmod go-w") == true)
    }

    @Test func aWorldWritableDropInWithHashesIsRefusedButOneWithoutIsNot() throws {
        let (folder, loaded) = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        chmod("\(folder)/gridlock.conf.d/60-theme.conf", 0o666)
        #expect(ConfigSafety.problems(loaded: loaded, runningAs: 0).isEmpty)
        chmod("\(folder)/gridlock.conf.d/50-door.conf", 0o646)
        let problems = ConfigSafety.problems(loaded: loaded, runningAs: 0)
        #expect(problems.map(\.path) == ["\(folder)/gridlock.conf.d/50-door.conf"])
        #expect(problems.first?.message.contains("writable by others") == true)
    }

    @Test func aFileOwnedBySomeoneElseIsRefused() throws {
        let (folder, loaded) = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        try #require(chown("\(folder)/gridlock.conf.d/50-door.conf", 65534, 65534) == 0)
        let problems = ConfigSafety.problems(loaded: loaded, runningAs: 0)
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("owned by uid 65534, not root") == true)
        // The same file is fine for a daemon running as that user (a setup without root).
        #expect(ConfigSafety.problems(loaded: loaded, runningAs: 65534).filter { $0.path.hasSuffix("50-door.conf") }.isEmpty)
    }

    @Test func aWorldWritableStateDirectoryIsRefused() throws {
        let (folder, loaded) = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        chmod("\(folder)/state", 0o777)
        let problems = ConfigSafety.problems(loaded: loaded, runningAs: 0)
        #expect(problems.map(\.path) == ["\(folder)/state"])
        #expect(problems.first?.message.contains("chmod 0700") == true)
    }
}
