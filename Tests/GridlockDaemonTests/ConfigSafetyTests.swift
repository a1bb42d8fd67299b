import Foundation
import Glibc
import GridlockCore
import GridlockDisplay
import GridlockRendering
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// The owners and modes `ConfigVerdict` (gridlockd's start, reloads and check-config alike)
/// accepts and refuses.
@Suite struct ConfigSafetyTests {
    static let hash = "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"

    /// A config folder: main file, one drop-in with a pattern, one without, state folder.
    func makeSetup() throws -> String {
        let folder = try ConfigFixtures.scratch([
            "gridlock.conf": "[display]\nbackend=png\noutput-dir=frames\n",
            "gridlock.conf.d/50-door.conf": "[pattern door]\nhash=\(Self.hash)\n",
            "gridlock.conf.d/60-theme.conf": "[theme]\nnode=#112233\n",
            "state/.keep": "",
        ])
        try FileManager.default.createDirectory(atPath: "\(folder)/frames", withIntermediateDirectories: true)
        try "[lockout]\nstate-file=../state/attempts\n".write(toFile: "\(folder)/gridlock.conf.d/10-state.conf", atomically: true, encoding: .utf8)
        for file in ["gridlock.conf", "gridlock.conf.d/50-door.conf", "gridlock.conf.d/60-theme.conf", "gridlock.conf.d/10-state.conf"] {
            chmod("\(folder)/\(file)", 0o600)
        }
        for directory in ["", "/gridlock.conf.d"] { chmod("\(folder)\(directory)", 0o755) }
        chmod("\(folder)/state", 0o700)
        return folder
    }

    func problems(_ folder: String, runningAs user: UInt32 = 0) -> [ConfigDiagnostic] {
        ConfigVerdict.check(path: "\(folder)/gridlock.conf", runningAs: user).check.diagnostics
    }

    @Test("a root owned private setup is safe") func aRootOwnedPrivateSetupIsSafe() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        #expect(problems(folder).isEmpty)
        #expect(try ConfigVerdict.load(path: "\(folder)/gridlock.conf", runningAs: 0).files.count == 4)
    }

    @Test("a group writable main file is refused with the fix") func aGroupWritableMainFileIsRefusedWithTheFix() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        chmod("\(folder)/gridlock.conf", 0o664)
        let found = problems(folder)
        #expect(found.map(\.location.file) == ["\(folder)/gridlock.conf"])
        #expect(found.first?.message.contains("writable by its group (mode 0664)") == true)
        #expect(found.first?.message.contains("chmod go-w") == true)
        #expect(throws: ConfigError.self) { try ConfigVerdict.load(path: "\(folder)/gridlock.conf", runningAs: 0) }
    }

    @Test("loadSkippingFileSafety takes a group-writable config load refuses, and still refuses its text and named files")
    func skippingFileSafetySkipsOnlyOwnersAndModes() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        let main = "\(folder)/gridlock.conf"
        chmod(main, 0o664)
        #expect(throws: ConfigError.self) { try ConfigVerdict.load(path: main) }
        #expect(try ConfigVerdict.loadSkippingFileSafety(path: main).config.patterns.map(\.name) == ["door"])
        // The state file a directory: a named file's problem, which no door skips.
        try FileManager.default.createDirectory(atPath: "\(folder)/state/attempts", withIntermediateDirectories: true)
        let named = expectError(ConfigError.self) { try ConfigVerdict.loadSkippingFileSafety(path: main) }
        #expect(named?.diagnostics.map(\.location) == [SourceLocation(file: "\(folder)/gridlock.conf.d/10-state.conf", line: 2)])
        try "[display]\nbackend=png\noutput-dir=frames\nsize=wide\n".write(toFile: main, atomically: false, encoding: .utf8)
        let text = expectError(ConfigError.self) { try ConfigVerdict.loadSkippingFileSafety(path: main) }
        #expect(text?.diagnostics.map(\.location) == [SourceLocation(file: main, line: 4)])
    }

    @Test("a world-writable drop-in is refused even without a hash: it could set schedule=none")
    func aWorldWritableDropInIsRefusedWithOrWithoutHashes() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        chmod("\(folder)/gridlock.conf.d/60-theme.conf", 0o666)
        let found = problems(folder)
        #expect(found.map(\.location.file) == ["\(folder)/gridlock.conf.d/60-theme.conf"])
        #expect(found.first?.message.contains("writable by others") == true)
        #expect(found.first?.message.contains("schedule of none") == true)
    }

    @Test("a file with hashes readable by others is refused: a leaked hash is searched in hours")
    func aWorldReadableHashIsRefused() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        chmod("\(folder)/gridlock.conf.d/60-theme.conf", 0o644)
        #expect(problems(folder).isEmpty)
        chmod("\(folder)/gridlock.conf.d/50-door.conf", 0o644)
        let found = problems(folder)
        #expect(found.map(\.location.file) == ["\(folder)/gridlock.conf.d/50-door.conf"])
        #expect(found.first?.message.contains("readable by others (mode 0644)") == true)
        #expect(found.first?.message.contains("chmod 0600") == true)
    }

    @Test("a drop-in folder writable by others is refused: anyone could add a file to it")
    func aWorldWritableDropInFolderIsRefused() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        chmod("\(folder)/gridlock.conf.d", 0o777)
        let found = problems(folder)
        #expect(found.map(\.location.file) == ["\(folder)/gridlock.conf.d"])
        #expect(found.first?.message.contains("replace the configuration files") == true)
    }

    @Test("an empty drop-in folder writable by others is refused: the next reload would read what is put there")
    func anEmptyWorldWritableDropInFolderIsRefused() throws {
        let folder = try ConfigFixtures.scratch(["gridlock.conf": "[display]\nbackend=png\noutput-dir=/tmp\n[lockout]\nstate-file=state/attempts\n"])
        defer { ConfigFixtures.remove(folder) }
        chmod("\(folder)/gridlock.conf", 0o600)
        chmod(folder, 0o755)
        try FileManager.default.createDirectory(atPath: "\(folder)/gridlock.conf.d", withIntermediateDirectories: false)
        chmod("\(folder)/gridlock.conf.d", 0o777)
        let found = problems(folder)
        #expect(found.map(\.location.file) == ["\(folder)/gridlock.conf.d"])
        #expect(found.first?.message.contains("chmod go-w") == true)
    }

    @Test("a state file writable by others is refused, as its directory would be")
    func anUnsafeStateFileIsRefused() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        try AtomicFile.write(AttemptFileFormat.encode(AttemptState.clean), to: "\(folder)/state/attempts", mode: 0o600)
        #expect(problems(folder).isEmpty)
        chmod("\(folder)/state/attempts", 0o666)
        let found = problems(folder)
        #expect(found.map(\.location.file) == ["\(folder)/state/attempts"])
        #expect(found.first?.message.contains("chmod 0600") == true && found.first?.message.contains("reset the failure count") == true)
    }

    /// `state-file=/tmp/attempts` was refused with "fix: chmod 0700 /tmp", which would
    /// break every other program using /tmp.
    @Test("a state file in a folder everyone shares (sticky, as /tmp) is refused with the advice of a folder of its own, never a chmod of it")
    func aStateFileInASharedFolderGetsSensibleAdvice() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        try Directory.create("\(folder)/tmp")
        chmod("\(folder)/tmp", 0o1777)
        try "[lockout]\nstate-file=../tmp/attempts\n".write(toFile: "\(folder)/gridlock.conf.d/10-state.conf", atomically: true, encoding: .utf8)
        chmod("\(folder)/gridlock.conf.d/10-state.conf", 0o600)
        let found = problems(folder)
        #expect(found.map(\.location.file) == ["\(folder)/tmp"])
        let message = try #require(found.first?.message)
        #expect(message.contains("writable by others (mode 01777)"))
        #expect(message.contains("is a folder everyone shares (it has the sticky bit, as /tmp has): put the state file in a folder of its own, such as /var/lib/gridlock"))
        #expect(!message.contains("chmod"), "\(message)")
    }

    @Test("a state folder others may write to, or another user's, is refused with a folder of its own first, then the chmod or chown")
    func aPossiblySharedStateFolderGetsBothFixes() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        chmod("\(folder)/state", 0o777)
        var message = try #require(problems(folder).first?.message)
        #expect(message.contains("fix: put the state file in a folder of its own, such as /var/lib/gridlock (systemd's StateDirectory=gridlock makes it 0700), or, if \(folder)/state is gridlock's alone, chmod 0700 \(folder)/state"))
        chmod("\(folder)/state", 0o700)
        try #require(chown("\(folder)/state", 65534, 65534) == 0)
        message = try #require(problems(folder).first?.message)
        #expect(message.contains("owned by uid 65534, not root; fix: put the state file in a folder of its own"))
        #expect(message.hasSuffix("or, if \(folder)/state is gridlock's alone, chown root:root \(folder)/state"))
    }

    @Test("a configuration in a folder everyone shares is refused with the advice of a folder of its own")
    func aConfigurationInASharedFolderGetsSensibleAdvice() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        chmod(folder, 0o1777)
        let found = problems(folder)
        #expect(found.map(\.location.file) == [folder])
        #expect(found.first?.message.contains("keep the configuration and its drop-ins in a folder of their own, such as /etc/gridlock") == true)
        #expect(found.first?.message.contains("chmod") == false)
    }

    @Test("a FIFO as the replay recording is a FILE error, never a hang")
    func aFIFORecordingIsRefused() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        try #require(mkfifo("\(folder)/touch.evemu", 0o600) == 0)
        try "[touch]\nbackend=replay\ndevice=\(folder)/touch.evemu\n".write(
            toFile: "\(folder)/gridlock.conf.d/70-touch.conf", atomically: true, encoding: .utf8)
        chmod("\(folder)/gridlock.conf.d/70-touch.conf", 0o600)
        let found = problems(folder)
        #expect(found.map(\.location.description) == ["\(folder)/gridlock.conf.d/70-touch.conf:3"])
        #expect(found.first?.message.contains("[touch] device: \(folder)/touch.evemu: it is a FIFO") == true, "\(found)")
    }

    @Test("a file owned by someone else is refused") func aFileOwnedBySomeoneElseIsRefused() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        try #require(chown("\(folder)/gridlock.conf.d/60-theme.conf", 65534, 65534) == 0)
        let found = problems(folder)
        #expect(found.count == 1)
        #expect(found.first?.message.contains("owned by uid 65534, not root") == true)
        // The same file is fine for a daemon running as that user (a setup without root).
        #expect(problems(folder, runningAs: 65534).filter { $0.location.file.hasSuffix("60-theme.conf") }.isEmpty)
    }

    @Test("a state directory writable by its group, or owned by another user, is refused")
    func anUnsafeStateDirectoryIsRefused() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        chmod("\(folder)/state", 0o770)
        var found = problems(folder)
        #expect(found.map(\.location.file) == ["\(folder)/state"])
        #expect(found.first?.message.contains("chmod 0700") == true)
        chmod("\(folder)/state", 0o700)
        try #require(chown("\(folder)/state", 65534, 65534) == 0)
        found = problems(folder)
        #expect(found.first?.message.contains("owned by uid 65534") == true)
    }

    /// The setup with `[session] socket=` in a drop-in of its own, at its line 2.
    func withSession(_ folder: String, socket: String) throws -> String {
        let dropIn = "\(folder)/gridlock.conf.d/70-session.conf"
        try "[session]\nsocket=\(socket)\nallow-users=0\n".write(toFile: dropIn, atomically: true, encoding: .utf8)
        chmod(dropIn, 0o600)
        return dropIn
    }

    @Test("the session socket's folder is refused at the socket= line unless root's, writable by no one else and no link")
    func theSocketFolderFollowsTheStateFolderRule() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        let dropIn = try withSession(folder, socket: "\(folder)/glk/session.sock")
        // Missing: gridlockd makes it, root's, in a folder that is safe.
        #expect(problems(folder).isEmpty)
        try FileManager.default.createDirectory(atPath: "\(folder)/glk", withIntermediateDirectories: false)
        chmod("\(folder)/glk", 0o755)
        #expect(problems(folder).isEmpty)

        try #require(chown("\(folder)/glk", 65534, 65534) == 0)
        var found = problems(folder)
        #expect(found.map(\.location) == [SourceLocation(file: dropIn, line: 2)])
        #expect(found.first?.message.hasPrefix("[session] socket: \(folder)/glk: owned by uid 65534, not root") == true, "\(found)")
        try #require(chown("\(folder)/glk", 0, 0) == 0)

        chmod("\(folder)/glk", 0o777)
        found = problems(folder)
        #expect(found.map(\.location) == [SourceLocation(file: dropIn, line: 2)])
        #expect(found.first?.message.contains("writable by others (mode 0777), so anyone in it could put a socket of their own where lock faces look for gridlockd") == true, "\(found)")
        chmod("\(folder)/glk", 0o755)

        // A link, even to a safe folder: whoever can change it decides where the socket goes.
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/link", withDestinationPath: "\(folder)/glk")
        _ = try withSession(folder, socket: "\(folder)/link/session.sock")
        found = problems(folder)
        #expect(found.map(\.location) == [SourceLocation(file: dropIn, line: 2)])
        #expect(found.first?.message.hasPrefix("[session] socket: \(folder)/link: a symbolic link") == true, "\(found)")

        // A folder above that another user owns could swap the whole branch.
        try FileManager.default.createDirectory(atPath: "\(folder)/theirs/glk", withIntermediateDirectories: true)
        chmod("\(folder)/theirs", 0o755)
        chmod("\(folder)/theirs/glk", 0o755)
        try #require(chown("\(folder)/theirs", 65534, 65534) == 0)
        _ = try withSession(folder, socket: "\(folder)/theirs/glk/session.sock")
        found = problems(folder)
        #expect(found.map(\.location) == [SourceLocation(file: dropIn, line: 2)])
        #expect(found.first?.message.hasPrefix("[session] socket: \(folder)/theirs: owned by uid 65534") == true, "\(found)")
        #expect(throws: ConfigError.self) { try ConfigVerdict.load(path: "\(folder)/gridlock.conf", runningAs: 0) }
    }

    @Test("a session socket in /tmp itself is refused with the advice of a folder of its own")
    func aSocketInTmpIsRefused() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        let dropIn = try withSession(folder, socket: "/tmp/session.sock")
        let found = problems(folder)
        #expect(found.map(\.location) == [SourceLocation(file: dropIn, line: 2)])
        #expect(found.first?.message.contains("put the socket in a folder of its own, such as /run/gridlock/") == true, "\(found)")
    }

    @Test("a singular, nearly singular, underflowing or huge calibration matrix is a config error at its line")
    func singularCalibrationIsRefused() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        for (matrix, reason) in [("1 2 0 2 4 0", "singular"), ("1e-300 0 0 0 1e-300 0", "singular"), ("1e-4 0 0 0 1e-4 0", "nearly so"),
                                 ("1e200 0 0 0 1e200 0", "beyond ±1000")] {
            try "[touch]\ncalibration=\(matrix)\n".write(
                toFile: "\(folder)/gridlock.conf.d/70-touch.conf", atomically: true, encoding: .utf8)
            chmod("\(folder)/gridlock.conf.d/70-touch.conf", 0o600)
            let found = problems(folder)
            #expect(found.map(\.location.description) == ["\(folder)/gridlock.conf.d/70-touch.conf:2"], "\(matrix)")
            #expect(found.first?.message.contains(reason) == true, "\(found)")
        }
    }

    @Test("a replay recording that is not there is a config error, not a failed start")
    func aMissingRecordingIsRefused() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        try "[touch]\nbackend=replay\ndevice=\(folder)/missing.evemu\n".write(
            toFile: "\(folder)/gridlock.conf.d/70-touch.conf", atomically: true, encoding: .utf8)
        chmod("\(folder)/gridlock.conf.d/70-touch.conf", 0o600)
        let found = problems(folder)
        #expect(found.map(\.location.description) == ["\(folder)/gridlock.conf.d/70-touch.conf:3"])
        #expect(found.first?.message == "[touch] device: recording \(folder)/missing.evemu does not exist", "\(found)")
    }

    @Test("a FIFO or an oversized file among the drop-ins is a FILE error, never a hang")
    func nonRegularAndHugeDropIns() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        try #require(mkfifo("\(folder)/gridlock.conf.d/70-fifo.conf", 0o600) == 0)
        try String(repeating: "# padding\n", count: 120_000).write(
            toFile: "\(folder)/gridlock.conf.d/80-huge.conf", atomically: true, encoding: .utf8)
        chmod("\(folder)/gridlock.conf.d/80-huge.conf", 0o600)
        let found = problems(folder).map(\.description)
        #expect(found == [
            "\(folder)/gridlock.conf.d/70-fifo.conf: cannot read: it is a FIFO, not a regular file",
            "\(folder)/gridlock.conf.d/80-huge.conf: cannot read: larger than 1048576 bytes",
        ])
    }

    @Test("theme images that cannot be drawn are config errors at their line, with the path and the reason")
    func unusableThemeImagesAreRefusedAtTheirLine() throws {
        let folder = try makeSetup()
        defer { ConfigFixtures.remove(folder) }
        // Relative to the drop-in that names them.
        let brand = "\(folder)/gridlock.conf.d/brand"
        try FileManager.default.createDirectory(atPath: brand, withIntermediateDirectories: true)
        let dot = try ShadowBuffer(width: 6, height: 6)
        try PNGFile.write(dot, to: "\(brand)/dot.png")
        func header(_ width: UInt32, _ height: UInt32) -> Data {
            func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
            // In typed parts: Swift 6.0 gives up type-checking the literals in one long sum.
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            let ihdr: [UInt8] = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0, 0, 0, 0, 0]
            return Data(signature + bigEndian(13) + Array("IHDR".utf8) + ihdr)
        }
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: "\(brand)/logo.png"))
        try header(0, 5).write(to: URL(fileURLWithPath: "\(brand)/empty.png"))
        try header(16385, 5).write(to: URL(fileURLWithPath: "\(brand)/huge.png"))
        try #require(mkfifo("\(brand)/fifo.png", 0o600) == 0)
        let dropIn = "\(folder)/gridlock.conf.d/70-brand.conf"
        try """
            [theme]
            node-image=brand/dot.png
            selected-image=brand/missing.png
            error-image=brand/logo.png
            success-image=brand/empty.png
            background-image=brand/huge.png
            """.write(toFile: dropIn, atomically: true, encoding: .utf8)
        let later = "\(folder)/gridlock.conf.d/71-fifo.conf"
        try "[theme]\nbackground-image=brand/fifo.png\n".write(toFile: later, atomically: true, encoding: .utf8)
        for file in [dropIn, later] { chmod(file, 0o600) }
        #expect(problems(folder).map(\.description) == [
            "\(dropIn):3: [theme] selected-image: cannot use '\(brand)/missing.png': No such file or directory",
            "\(dropIn):4: [theme] error-image: cannot use '\(brand)/logo.png': not a PNG file (it does not start with the PNG signature)",
            "\(dropIn):5: [theme] success-image: cannot use '\(brand)/empty.png': the image is 0x5 pixels, nothing to draw",
            "\(dropIn):6: [theme] background-image: cannot use '\(brand)/huge.png': the image is 16385x5 pixels; at most 16384 a side",
            "\(later):2: [theme] background-image: cannot use '\(brand)/fifo.png': it is a FIFO, not a regular file",
        ])
    }
}
