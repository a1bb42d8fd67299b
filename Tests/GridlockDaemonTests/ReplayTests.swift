import Foundation
import GridlockCore
import GridlockDisplay
import GridlockRendering
import GridlockInput
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// The whole pipeline on recordings: decoder, mapper, machine, argon2 verification,
/// actions and rendering, in virtual time, as `gridlock replay` runs it.
@Suite struct ReplayTests {
    static let hasher = try! PatternHasher()
    /// The cheapest cost libsodium allows: these tests check behaviour, not cost.
    static let cheap = PatternHasher.Argon2Cost(opsLimit: 1, memoryKiB: 8)

    static func recording(_ name: String) throws -> EvemuRecording {
        let path = ConfigFixtures.root.appendingPathComponent("Tests/Fixtures/\(name).evemu").path
        return try EvemuRecording(parsing: String(contentsOfFile: path, encoding: .utf8), file: path)
    }

    static func config(exec: [String]? = ["/bin/true"], timeout: Duration? = .seconds(10)) throws -> GridlockConfig {
        var config = GridlockConfig()
        config.display.size = PixelSize(width: 800, height: 480)
        let hash = try hasher.hash(message: "3x3:1-2-3-6-9", cost: cheap)
        config.patterns = [PatternEntry(name: "door", hash: hash, exec: exec, source: SourceLocation(file: "test", line: 1))]
        config.action.timeout = timeout
        return config
    }

    struct Run {
        var lines: [String] = []
        var scenes: [Scene] = []

        var events: [[String: Any]] {
            lines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        }

        func results() -> [String] { events.filter { $0["event"] as? String == "attempt" }.map { $0["result"] as! String } }
    }

    static func replay(
        _ name: String, config: GridlockConfig, frames: String? = nil, wallClock: (() -> WallTime)? = nil
    ) throws -> Run {
        var run = Run()
        var options = ReplayRunner.Options(config: config, recording: try recording(name), framesDirectory: frames) {
            run.lines.append($0)
        }
        options.onPresent = { run.scenes.append($0) }
        if let wallClock { options.wallClock = wallClock }
        try ReplayRunner(options).run()
        return run
    }

    @Test("a wrong pattern then the right one unlocks and runs the action") func aWrongPatternThenTheRightOneUnlocksAndRunsTheAction() throws {
        let run = try Self.replay("demo-wrong-then-right", config: Self.config(exec: ["/bin/echo", "relay", "pulsed"]))
        #expect(run.results() == ["rejected", "accepted"])
        let accepted = try #require(run.events.first { $0["result"] as? String == "accepted" })
        #expect(accepted["pattern"] as? String == "door")
        #expect(accepted["nodes"] as? Int == 5)
        let output = run.events.filter { $0["event"] as? String == "action-output" }.map { $0["line"] as? String }
        #expect(output == ["relay pulsed"])
        let action = try #require(run.events.first { $0["event"] as? String == "action" })
        #expect(action["status"] as? Int == 0)
        // The machine relocks once the action ended and success-ms passed.
        #expect(run.scenes.last?.message == .prompt)
    }

    @Test("every touch protocol unlocks", arguments: [
        "protocol-b-1-2-3-6-9", "protocol-a-1-2-3-6-9", "single-touch-1-2-3-6-9", "second-finger-1-2-3-6-9",
    ])
    func everyTouchProtocolUnlocks(recording: String) throws {
        let run = try Self.replay(recording, config: Self.config())
        #expect(run.results() == ["accepted"])
    }

    /// `localtime_r` fails for these; the weekday of its unfilled result used to trap.
    @Test("with the clock far out of range a scheduled pattern is refused, not a trap; one without a schedule opens",
          arguments: [Int64.max, Int64.min, 253_402_387_200 /* 10000-01-02 */, Int64(Int32.max) * 31_557_600 * 2])
    func farOutClockFailsClosed(seconds: Int64) throws {
        let clock = { WallTime(epochSeconds: seconds, zone: SystemTimeZone(), synchronised: true) }
        var config = try Self.config(exec: nil)
        config.patterns[0].limits.schedule.windows = try PatternSchedule.windows(from: "Daily 00:00-24:00")
        #expect(try Self.replay("protocol-b-1-2-3-6-9", config: config, wallClock: clock).results() == ["rejected"])
        config.patterns[0].limits.schedule = PatternSchedule(validUntil: LocalDateTime(year: 2099, month: 12, day: 31))
        #expect(try Self.replay("protocol-b-1-2-3-6-9", config: config, wallClock: clock).results() == ["rejected"])
        config.patterns[0].limits.schedule = PatternSchedule()
        #expect(try Self.replay("protocol-b-1-2-3-6-9", config: config, wallClock: clock).results() == ["accepted"])
    }

    @Test("goodix style releases end each stroke") func goodixStyleReleasesEndEachStroke() throws {
        let run = try Self.replay("goodix-release-1-2-3-6-9", config: Self.config())
        #expect(run.results() == ["accepted", "accepted"])
    }

    @Test("a too short pattern is reported and not counted") func aTooShortPatternIsReportedAndNotCounted() throws {
        let run = try Self.replay("too-short", config: Self.config())
        #expect(run.results() == ["too-short"])
        #expect(run.events.first?["nodes"] as? Int == 3)
        #expect(run.events.allSatisfy { $0["failures"] == nil })
        #expect(run.scenes.contains { $0.message == .tooShort(minimum: 4) })
    }

    @Test("five wrong patterns lock out with a countdown then the right one unlocks") func fiveWrongPatternsLockOutWithACountdownThenTheRightOneUnlocks() throws {
        let run = try Self.replay("lockout-five-wrong", config: Self.config())
        #expect(run.results() == ["rejected", "rejected", "rejected", "rejected", "rejected", "accepted"])
        let lockout = try #require(run.events.first { $0["event"] as? String == "lockout" })
        #expect(lockout["seconds"] as? Int == 30)
        #expect(lockout["failures"] as? Int == 5)
        #expect(run.events.contains { $0["event"] as? String == "lockout-ended" })
        let failures = run.events.compactMap { $0["failures"] as? Int }
        #expect(failures == [1, 2, 3, 4, 5, 5])
        // The countdown showed every second from 30 down to 1.
        var countdown: [Int] = []
        for scene in run.scenes {
            if case .lockedOut(let s) = scene.message, countdown.last != s { countdown.append(s) }
        }
        #expect(countdown == Array((1...30).reversed()))
    }

    @Test("input during the lockout is ignored") func inputDuringTheLockoutIsIgnored() throws {
        // The lockout recording's sixth stroke comes 35 s after the fifth failure; replay a
        // config whose lockout is longer, so that stroke lands inside it.
        var config = try Self.config()
        config.lockout.schedule = .custom([.zero, .zero, .zero, .zero, .seconds(120)])
        let run = try Self.replay("lockout-five-wrong", config: config)
        #expect(run.results() == ["rejected", "rejected", "rejected", "rejected", "rejected"])
        #expect(run.events.contains { $0["event"] as? String == "lockout" && $0["seconds"] as? Int == 120 })
    }

    @Test("the actions exit status is reported") func theActionsExitStatusIsReported() throws {
        let run = try Self.replay("protocol-b-1-2-3-6-9", config: Self.config(exec: ["/bin/sh", "-c", "exit 3"]))
        let action = try #require(run.events.first { $0["event"] as? String == "action" })
        #expect(action["status"] as? Int == 3)
    }

    @Test("an action past its timeout is terminated") func anActionPastItsTimeoutIsTerminated() throws {
        let run = try Self.replay(
            "protocol-b-1-2-3-6-9", config: Self.config(exec: ["/bin/sleep", "30"], timeout: .milliseconds(300)))
        let action = try #require(run.events.first { $0["event"] as? String == "action" })
        #expect(action["signal"] as? String == "SIGTERM")
        #expect(action["status"] as? Int == 128 + 15)
    }

    @Test("actions run without a shell") func actionsRunWithoutAShell() throws {
        let exec = try ArgvSplitter.split("/bin/echo $(id) `id` $HOME")
        let run = try Self.replay("protocol-b-1-2-3-6-9", config: Self.config(exec: exec))
        let output = run.events.filter { $0["event"] as? String == "action-output" }.compactMap { $0["line"] as? String }
        #expect(output == ["$(id) `id` $HOME"])
    }

    @Test("the action sees only the pattern name and a minimal environment") func theActionSeesOnlyThePatternNameAndAMinimalEnvironment() throws {
        let run = try Self.replay("protocol-b-1-2-3-6-9", config: Self.config(exec: ["/usr/bin/env"]))
        let output = Set(run.events.filter { $0["event"] as? String == "action-output" }.compactMap { $0["line"] as? String })
        #expect(output == ["GRIDLOCK_PATTERN=door", "PATH=\(ActionRunner.searchPath)"])
    }

    @Test("no output line ever contains the drawn pattern") func noOutputLineEverContainsTheDrawnPattern() throws {
        var all: [String] = []
        for name in ["demo-wrong-then-right", "lockout-five-wrong", "too-short", "goodix-release-1-2-3-6-9"] {
            all += try Self.replay(name, config: Self.config()).lines
        }
        let drawn = ["1-2-3-6-9", "1-4-7-8", "3-2-1-4-7", "7-5-3-6", "1-5-9-8", "2-5-8-7", "1-2-3", "[0,1,2", "0, 1, 2"]
        for line in all {
            for pattern in drawn { #expect(!line.contains(pattern), "\(line)") }
            #expect(!line.contains("argon2"))
        }
        #expect(all.count > 10)
    }

    @Test("frames show the error and success colours at the drawn nodes") func framesShowTheErrorAndSuccessColoursAtTheDrawnNodes() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let config = try Self.config()
        let run = try Self.replay("demo-wrong-then-right", config: config, frames: folder)
        let layout = config.gridLayout(frame: Size(width: 800, height: 480))
        let theme = config.theme

        let wrong = try #require(run.scenes.firstIndex { if case .wrong = $0.message { true } else { false } })
        let wrongFrame = try PNGFile.read("\(folder)/frame-\(String(format: "%05d", wrong + 1)).png")
        for node in [0, 3, 6, 7] {
            let c = layout.center(of: node)
            #expect(wrongFrame.pixel(x: Int(c.x), y: Int(c.y)) == theme.error, "node \(node + 1)")
        }
        let idle = layout.center(of: 2)
        #expect(wrongFrame.pixel(x: Int(idle.x), y: Int(idle.y)) == theme.background)

        let success = try #require(run.scenes.firstIndex { $0.message == .success })
        let successFrame = try PNGFile.read("\(folder)/frame-\(String(format: "%05d", success + 1)).png")
        for node in [0, 1, 2, 5, 8] {
            let c = layout.center(of: node)
            #expect(successFrame.pixel(x: Int(c.x), y: Int(c.y)) == theme.success, "node \(node + 1)")
        }
        #expect(FileManager.default.fileExists(atPath: "\(folder)/frame-\(String(format: "%05d", run.scenes.count)).png"))
    }
}
