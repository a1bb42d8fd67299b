import Foundation
import GridlockCore
import GridlockInput
import GridlockEvdev
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// Paths of the fixtures and scratch folders the config tests share.
enum ConfigFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String {
        root.appendingPathComponent("Tests/Fixtures/config").appendingPathComponent(relative).path
    }

    static var example: String { root.appendingPathComponent("examples/gridlock.conf").path }

    /// A fresh folder with the given files (relative path -> contents).
    static func scratch(_ files: [String: String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("gridlock-config-\(UUID().uuidString)")
        for (name, contents) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
    }

    static func diagnostics(_ path: String) -> [String] {
        ConfigLoader.validateOnly(path: path).diagnostics.map(\.description)
    }
}

struct ConfigLoaderTests {
    static let hash = "$argon2id$v=19$m=65536,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"

    @Test("nearly empty file gives the documented defaults") func nearlyEmptyFileGivesTheDocumentedDefaults() throws {
        let path = ConfigFixtures.path("good/nearly-empty.conf")
        let loaded = try ConfigLoader.load(path: path)
        #expect(loaded.files == [path])
        let c = loaded.config
        #expect(c.display.backend == .drm)
        #expect(c.display.device == .auto)
        #expect(c.display.connector == .auto)
        #expect(c.display.mode == .preferred)
        #expect(c.display.rotation == .none)
        #expect(c.display.size == PixelSize(width: 800, height: 480))
        #expect(c.display.outputDirectory == nil)
        #expect(c.display.blankAfter == nil)
        #expect(c.touch.backend == .evdev)
        #expect(c.touch.device == .auto)
        #expect(c.touch.calibration == nil)
        #expect(c.touch.grab)
        #expect(c.touch.stuckTouch == .milliseconds(5000))
        #expect(c.grid.shape.rows == 3 && c.grid.shape.columns == 3)
        #expect(c.grid.sizeFraction == 0.8)
        #expect(c.grid.hitRadiusFraction == 0.6)
        #expect(c.grid.minNodes == 4)
        #expect(c.grid.showPath)
        #expect(c.theme == Theme())
        #expect(c.feedback.errorDuration == .milliseconds(1000))
        #expect(c.feedback.successDuration == .milliseconds(1500))
        #expect(c.lockout.schedule == .android)
        #expect(c.lockout.stateFile == "/var/lib/gridlock/attempts")
        #expect(c.security.argon2Ops == nil && c.security.argon2MemKiB == nil)
        #expect(c.action.timeout == .seconds(10))
        #expect(c.action.mode == .pulse)
        #expect(c.patterns.isEmpty)
    }

    @Test("example loads without diagnostics and enrols nothing") func exampleLoadsWithoutDiagnosticsAndEnrolsNothing() throws {
        let check = ConfigLoader.validateOnly(path: ConfigFixtures.example)
        #expect(check.diagnostics.map(\.description) == [])
        let config = try ConfigLoader.load(path: ConfigFixtures.example).config
        // A shipped, known pattern would open every door installed from the example.
        #expect(config.patterns.isEmpty)
    }

    /// The example's commented pattern and hook sections, uncommented, are what they say.
    @Test("example pattern section parses when uncommented") func examplePatternSectionParsesWhenUncommented() throws {
        let text = try String(contentsOfFile: ConfigFixtures.example, encoding: .utf8)
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            ["#[pattern door]", "#hash=", "#exec=", "#valid", "#uses=", "#[on failure]", "#after="].contains { line.hasPrefix($0) }
                ? String(line.dropFirst()) : String(line)
        }.joined(separator: "\n")
        let folder = try ConfigFixtures.scratch(["gridlock.conf": uncommented])
        defer { ConfigFixtures.remove(folder) }
        let config = try ConfigLoader.load(path: "\(folder)/gridlock.conf").config
        let door = try #require(config.patterns.first)
        #expect(config.patterns.count == 1)
        #expect(door.name == "door")
        #expect(door.hash.hasPrefix("$argon2id$v=19$"))
        #expect(door.exec == ["/usr/local/bin/door-relay", "--open", "front door", "--seconds", "5"])
        #expect(door.limits.uses == 1)
        #expect(door.limits.schedule.description == "valid=Mon-Fri 07:00-09:30; Sat 08:00-12:00 valid-from=2026-12-01T00:00:00 valid-until=2026-12-31T18:00:00")
        let alarm = try #require(config.hooks[.failure])
        #expect(alarm.argv.first == "/usr/bin/mosquitto_pub" && alarm.after == 3 && alarm.timeout == .seconds(10))
        #expect(config.hooks.count == 1)
    }

    @Test("drop ins apply in byte order and later values win") func dropInsApplyInByteOrderAndLaterValuesWin() throws {
        let main = ConfigFixtures.path("dropins/gridlock.conf")
        let dir = main + ".d"
        let loaded = try ConfigLoader.load(path: main)
        // README, *.disabled and hidden files are not drop-ins; 'Z' (0x5A) sorts before 'a' (0x61).
        #expect(loaded.files == [main, "\(dir)/10-site.conf", "\(dir)/20-local.conf", "\(dir)/Z-upper.conf", "\(dir)/a-lower.conf"])
        #expect(loaded.config.display.rotation == .clockwise270)
        #expect(loaded.config.display.mode == .current)
        #expect(loaded.config.display.connector == .named("a-lower"))
        #expect(loaded.config.grid.shape.rows == 4)
        #expect(loaded.config.grid.shape.columns == 5)
        #expect(loaded.config.patterns.map(\.name) == ["main", "second", "third"])
        #expect(loaded.config.patterns.map(\.source) == [
            SourceLocation(file: main, line: 6),
            SourceLocation(file: "\(dir)/10-site.conf", line: 3),
            SourceLocation(file: "\(dir)/20-local.conf", line: 5),
        ])
    }

    @Test("duplicate pattern name across main file and drop in names both places") func duplicatePatternNameAcrossMainFileAndDropInNamesBothPlaces() {
        let main = ConfigFixtures.path("duplicate-pattern/gridlock.conf")
        #expect(ConfigFixtures.diagnostics(main) == [
            "\(main).d/50-door.conf:3: duplicate pattern name 'door' (first defined at \(main):1)"
        ])
    }

    @Test("relative paths are relative to the file that holds them") func relativePathsAreRelativeToTheFileThatHoldsThem() throws {
        let folder = try ConfigFixtures.scratch([
            "etc/gridlock.conf": "[theme]\nfont=fonts/panel.ttf\n[lockout]\nstate-file=state/attempts\n",
            "etc/gridlock.conf.d/10-replay.conf":
                "[display]\nbackend=png\noutput-dir=frames\n[touch]\nbackend=replay\ndevice=./recordings/tap.evemu\n",
        ])
        defer { ConfigFixtures.remove(folder) }
        // A font file is read when the config is checked, so it must be a real font.
        try FileManager.default.createDirectory(atPath: folder + "/etc/fonts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: FontFixtures.dejaVuSans, toPath: folder + "/etc/fonts/panel.ttf")
        let config = try ConfigLoader.load(path: folder + "/etc/gridlock.conf").config
        #expect(config.theme.font == .file(folder + "/etc/fonts/panel.ttf"))
        #expect(config.lockout.stateFile == folder + "/etc/state/attempts")
        #expect(config.display.outputDirectory == folder + "/etc/gridlock.conf.d/frames")
        #expect(config.touch.device == .path(folder + "/etc/gridlock.conf.d/recordings/tap.evemu"))
    }

    @Test("relative main file resolves against the working directory") func relativeMainFileResolvesAgainstTheWorkingDirectory() {
        #expect(ConfigPaths.resolve("a.ttf", relativeTo: "gridlock.conf", currentDirectory: "/srv") == "/srv/a.ttf")
        #expect(ConfigPaths.resolve("a.ttf", relativeTo: "./conf/g.conf", currentDirectory: "/srv") == "/srv/conf/a.ttf")
        #expect(ConfigPaths.resolve("/abs/a.ttf", relativeTo: "conf/g.conf", currentDirectory: "/srv") == "/abs/a.ttf")
        #expect(ConfigPaths.resolve("a.ttf", relativeTo: "/g.conf", currentDirectory: "/srv") == "/a.ttf")
    }

    @Test("every value kind is parsed") func everyValueKindIsParsed() throws {
        let folder = try ConfigFixtures.scratch([
            "g.conf": """
                [display]
                backend=png
                device=/dev/dri/card1
                connector=HDMI-A-1
                mode=1280x800@60
                rotation=90
                size=1024x600
                output-dir=/tmp/frames
                blank-after=300
                [touch]
                device=name:Goodix Capacitive
                calibration=0 -1 1 1 0 0
                grab=no
                stuck-touch-ms=2500
                [grid]
                rows=4
                columns=5
                size=0.5
                hit-radius=1
                min-nodes=6
                show-path=off
                [theme]
                background=#000000
                success=#00ff00
                prompt=Zeichne dein Muster ✍
                locked-out=Gesperrt für %d s ; a comment
                [feedback]
                error-ms=0
                success-ms=60000
                [lockout]
                schedule=0,0,30,60
                [security]
                argon2-ops=3
                argon2-mem=262144
                [action]
                timeout=0
                mode=handover
                [pattern alarm.1]
                hash=\(Self.hash)
                duress=yes
                duress-exec=/usr/bin/logger -t gridlock "duress pattern"

                """,
        ])
        defer { ConfigFixtures.remove(folder) }
        let c = try ConfigLoader.load(path: folder + "/g.conf").config
        #expect(c.display.backend == .png)
        #expect(c.display.device == .path("/dev/dri/card1"))
        #expect(c.display.connector == .named("HDMI-A-1"))
        #expect(c.display.mode == .size(PixelSize(width: 1280, height: 800), refreshHz: 60))
        #expect(c.display.rotation == .clockwise90)
        #expect(c.display.size == PixelSize(width: 1024, height: 600))
        // The frame every headless, png, replay and render caller lays the grid out in.
        #expect(c.display.physicalSize == Size(width: 1024, height: 600))
        #expect(c.display.logicalFrame == Size(width: 600, height: 1024))
        #expect(c.display.blankAfter == .seconds(300))
        #expect(c.touch.device == .nameContaining("Goodix Capacitive"))
        // Made before #expect: Swift 6.0's cannot take a `try` inside.
        let matrix = try CalibrationMatrix(values: [0, -1, 1, 1, 0, 0])
        #expect(c.touch.calibration == matrix)
        #expect(!c.touch.grab)
        #expect(c.touch.stuckTouch == .milliseconds(2500))
        #expect(c.grid.shape.rows == 4 && c.grid.shape.columns == 5)
        #expect(c.grid.sizeFraction == 0.5 && c.grid.hitRadiusFraction == 1.0)
        #expect(c.grid.minNodes == 6 && !c.grid.showPath)
        #expect(c.theme.background == Color(red: 0, green: 0, blue: 0))
        #expect(c.theme.success == Color(red: 0, green: 255, blue: 0))
        #expect(c.theme.prompt == "Zeichne dein Muster ✍")
        #expect(c.theme.lockedOut == "Gesperrt für %d s")
        #expect(c.feedback.errorDuration == .zero && c.feedback.successDuration == .seconds(60))
        #expect(c.lockout.schedule == .custom([.zero, .zero, .seconds(30), .seconds(60)]))
        #expect(c.security.argon2Ops == 3 && c.security.argon2MemKiB == 262144)
        #expect(c.action.timeout == nil && c.action.mode == .handover)
        #expect(c.patterns == [PatternEntry(
            name: "alarm.1", hash: Self.hash, exec: nil, duress: true,
            duressExec: ["/usr/bin/logger", "-t", "gridlock", "duress pattern"],
            source: SourceLocation(file: folder + "/g.conf", line: 38))])
    }

    @Test("load throws what validate only reports") func loadThrowsWhatValidateOnlyReports() throws {
        let path = ConfigFixtures.path("broken/several-errors.conf")
        let error = expectError(ConfigError.self) { try ConfigLoader.load(path: path) }
        #expect(error?.diagnostics == ConfigLoader.validateOnly(path: path).diagnostics)
        #expect(error?.description.split(separator: "\n").count == 5)
    }
}
