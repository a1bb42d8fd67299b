import Foundation
import Glibc
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// Hooks, schedules and limited uses through gridlockd's real loop (`DaemonLoopTests`'
/// fake touchscreen, real state file, real hook processes).
extension DaemonLoopTests {
    static let monday = LocalDateTime(year: 2026, month: 11, day: 30, hour: 8)

    static func wallClock(_ local: LocalDateTime = monday, synchronised: Bool) -> () -> WallTime {
        { WallTime(epochSeconds: local.wallSeconds!, zone: FixedOffsetZone.utc, synchronised: synchronised) }
    }

    /// A hook that writes its environment, one variable a line, to `<directory>/<event>.env`.
    func envHook(_ event: HookEvent, after: Int = 1) -> HookConfig {
        HookConfig(argv: ["/bin/sh", "-c", "env > \(directory)/\(event.rawValue).env"], after: after,
                   source: SourceLocation(file: "test", line: 1))
    }

    func hookEnvironment(_ event: HookEvent) -> [String: String]? {
        guard let text = try? String(contentsOfFile: "\(directory)/\(event.rawValue).env", encoding: .utf8) else { return nil }
        var variables: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            variables[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        // What sh adds itself.
        for name in ["PWD", "SHLVL", "_", "OLDPWD"] { variables[name] = nil }
        return variables
    }

    static func lockedOut(_ outcomes: [Daemon.Outcome]) -> Bool {
        outcomes.contains { if case .lock(.lockout) = $0 { true } else { false } }
    }

    @Test("hooks run with their facts and nothing else: start, failure (from after=), lockout, stop")
    func hooksGetTheirFacts() throws {
        var config = try config(schedule: LockoutSchedule(text: "0,60"))
        config.hooks = [.start: envHook(.start), .failure: envHook(.failure, after: 2), .lockout: envHook(.lockout), .stop: envHook(.stop)]
        let first = try runDaemon(config: config, frames: "\(directory)/one", stroke: [1, 4, 7, 8, 9], hooksWritten: [.start]) { outcomes in
            outcomes.contains(.lock(.rejected(nodes: 5, failures: 1)))
        }
        #expect(first.status == 0)
        #expect(hookEnvironment(.failure) == nil, "after=2: the first failure runs nothing")
        let start = try #require(hookEnvironment(.start))
        #expect(start["GRIDLOCK_EVENT"] == "start" && start["PATH"] == ActionRunner.searchPath)
        #expect(start["HOME"] == nil && start["GRIDLOCK_PATTERN"] == nil, "nothing inherited: \(start)")

        let restored = StateFile.restore(from: config.lockout.stateFile, schedule: config.lockout.schedule)
        let second = try runDaemon(
            config: config, saved: restored, frames: "\(directory)/two", stroke: [1, 4, 7, 8, 9],
            hooksWritten: [.failure, .lockout], until: Self.lockedOut)
        #expect(second.status == 0)
        let failure = try #require(hookEnvironment(.failure))
        #expect(failure["GRIDLOCK_EVENT"] == "failure" && failure["GRIDLOCK_FAILURES"] == "2")
        #expect(failure["GRIDLOCK_DEVICE"] == "\(directory)/input/event0")
        #expect(failure["GRIDLOCK_PATTERN"] == nil)
        let lockout = try #require(hookEnvironment(.lockout))
        #expect(lockout["GRIDLOCK_LOCKOUT_SECONDS"] == "60" && lockout["GRIDLOCK_FAILURES"] == "2")
        #expect(hookEnvironment(.stop)?["GRIDLOCK_EVENT"] == "stop")
        #expect(Int(lockout["GRIDLOCK_TIME"] ?? "") ?? 0 > 1_700_000_000)
    }

    @Test("unlock runs after the pattern's own action started; duress as well for a duress pattern")
    func unlockAndDuressHooks() throws {
        var config = try config()
        config.patterns[0].duress = true
        config.hooks = [.unlock: envHook(.unlock), .duress: envHook(.duress)]
        let run = try runDaemon(
            config: config, frames: "\(directory)/frames", stroke: [1, 2, 3, 6, 9], hooksWritten: [.unlock, .duress],
            until: Self.finishedAction)
        #expect(run.outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))
        #expect(hookEnvironment(.unlock)?["GRIDLOCK_PATTERN"] == "door")
        #expect(hookEnvironment(.duress)?["GRIDLOCK_EVENT"] == "duress")
    }

    @Test("a hook that hangs delays nothing and is stopped with what it started when the daemon stops")
    func hangingHookIsKilled() throws {
        var config = try config()
        // One write of both pids, to the file `hooksWritten` waits for: the stop comes after it.
        let pids = "\(directory)/failure.env"
        config.hooks = [.failure: HookConfig(
            argv: ["/bin/sh", "-c", "/bin/sleep 60 & printf '%s\\n%s\\n' $! $$ > \(pids); exec /bin/sleep 60"],
            timeout: .seconds(60), source: SourceLocation(file: "test", line: 1))]
        let run = try runDaemon(config: config, frames: "\(directory)/frames", stroke: [1, 4, 7, 8, 9], hooksWritten: [.failure]) { outcomes in
            outcomes.contains(.lock(.rejected(nodes: 5, failures: 1)))
        }
        // runDaemon's own limit (10 s) would have failed a stop that waited for the 60 s sleep.
        #expect(run.status == 0)
        let recorded = try String(contentsOfFile: pids, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        #expect(recorded.count == 2)
        for pid in recorded {
            // Gone, or a zombie of init's: nothing of the hook runs on.
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
            #expect(state == nil || state == "Z", "pid \(pid) still runs (\(state.map(String.init) ?? ""))")
        }
    }

    @Test("stopping: a hook with timeout=0 still running is stopped, not waited for, and [on stop] runs")
    func stoppingEndsHooksWithoutATimeout() throws {
        var config = try config()
        // Waited for, it would hold the stop for 20 s: past runDaemon's 10 s limit, a failure.
        config.hooks = [
            .start: HookConfig(argv: ["/bin/sleep", "20"], timeout: nil, source: SourceLocation(file: "test", line: 1)),
            .stop: envHook(.stop),
        ]
        let run = try runDaemon(config: config, frames: "\(directory)/frames", stroke: [1, 4, 7, 8, 9]) { outcomes in
            outcomes.contains(.lock(.rejected(nodes: 5, failures: 1)))
        }
        #expect(run.status == 0)
        #expect(hookEnvironment(.stop)?["GRIDLOCK_EVENT"] == "stop")
    }

    @Test("a pattern with a schedule does not open while the clock is unsynchronised, unless trusted")
    func scheduleNeedsATrustedClock() throws {
        var config = try config()
        config.patterns[0].limits.schedule.windows = try PatternSchedule.windows(from: "Mon-Fri 07:00-09:30")
        let refused = try runDaemon(
            config: config, wallClock: Self.wallClock(synchronised: false), frames: "\(directory)/one", stroke: [1, 2, 3, 6, 9]
        ) { $0.contains { if case .lock(.rejected) = $0 { true } else { false } } }
        #expect(refused.outcomes == [.lock(.rejected(nodes: 5, failures: 1))])

        config.security.trustUnsynchronisedClock = true
        let trusted = try runDaemon(
            config: config, wallClock: Self.wallClock(synchronised: false), frames: "\(directory)/two", stroke: [1, 2, 3, 6, 9],
            until: Self.finishedAction)
        #expect(trusted.outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))

        config.security.trustUnsynchronisedClock = false
        let saturday = LocalDateTime(year: 2026, month: 12, day: 5, hour: 8)
        let outside = try runDaemon(
            config: config, wallClock: Self.wallClock(saturday, synchronised: true), frames: "\(directory)/three", stroke: [1, 2, 3, 6, 9]
        ) { $0.contains { if case .lock(.rejected) = $0 { true } else { false } } }
        #expect(outside.outcomes == [.lock(.rejected(nodes: 5, failures: 1))])
    }

    @Test("uses=1: the use is on disk before the action runs; after a restart the pattern is used up")
    func limitedUsesSurviveARestart() throws {
        var config = try config()
        config.patterns[0].limits.uses = 1
        let first = try runDaemon(config: config, frames: "\(directory)/one", stroke: [1, 2, 3, 6, 9], until: Self.finishedAction)
        #expect(first.outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))
        let restored = StateFile.restore(from: config.lockout.stateFile, schedule: config.lockout.schedule)
        #expect(restored.uses(of: "door", hash: config.patterns[0].hash) == 1)
        #expect(restored.patterns["door"]?.lastAccepted != nil)
        let second = try runDaemon(config: config, saved: restored, frames: "\(directory)/two", stroke: [1, 2, 3, 6, 9]) {
            $0.contains { if case .lock(.rejected) = $0 { true } else { false } }
        }
        #expect(second.outcomes == [.lock(.rejected(nodes: 5, failures: 1))])
    }

    @Test("uses=1 used up, then the state file deleted: after a restart the pattern stays shut, and [on tamper] says why")
    func aDeletedStateFileGivesNoFreeUse() throws {
        var config = try config()
        config.patterns[0].limits.uses = 1
        config.hooks = [.tamper: envHook(.tamper)]
        let opened = StateFile.open(config.lockout.stateFile, schedule: config.lockout.schedule, patterns: config.patterns)
        let first = try runDaemon(config: config, state: opened, frames: "\(directory)/one", stroke: [1, 2, 3, 6, 9], until: Self.finishedAction)
        #expect(first.outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))
        #expect(hookEnvironment(.tamper) == nil)

        try #require(unlink(config.lockout.stateFile) == 0)
        let reopened = StateFile.open(config.lockout.stateFile, schedule: config.lockout.schedule, patterns: config.patterns)
        #expect(reopened.damage?.hasPrefix("is missing") == true)
        // Locked out first (the damaged file's lockout), then the right pattern: refused.
        config.lockout.schedule = try LockoutSchedule(text: "0,0,0,0,0,0,0,0,0,0")
        let second = try runDaemon(config: config, state: reopened, frames: "\(directory)/two", stroke: [1, 2, 3, 6, 9]) {
            $0.contains { if case .lock(.rejected) = $0 { true } else { false } }
        }
        #expect(!second.outcomes.contains { if case .lock(.accepted) = $0 { true } else { false } })
        #expect(second.outcomes.contains { if case .lock(.rejected) = $0 { true } else { false } })
        let tamper = try #require(hookEnvironment(.tamper), "[on tamper] ran")
        #expect(tamper["GRIDLOCK_REASON"] == "state-file-damaged")
    }

    @Test("a use that cannot be written opens nothing and says so on screen")
    func unwritableUseFailsClosed() throws {
        var config = try config()
        config.patterns[0].limits.uses = 3
        config.lockout.stateFile = "\(directory)/missing-folder/attempts"
        let run = try runDaemon(
            config: config, frames: "\(directory)/frames", stroke: [1, 2, 3, 6, 9], ending: .scene { $0.message == .cannotRecord })
        #expect(!run.outcomes.contains { if case .lock(.accepted) = $0 { true } else { false } })
        #expect(!run.outcomes.contains { if case .action = $0 { true } else { false } })
        #expect(run.scenes.contains { $0.message == .cannotRecord })
    }

    @Test("a contact held still past stuck-touch-ms cancels the stroke and is tamper")
    func stuckContactIsTamper() throws {
        var config = try config()
        config.touch.stuckTouch = .milliseconds(200)
        config.hooks = [.tamper: envHook(.tamper)]
        let run = try runDaemon(config: config, frames: "\(directory)/frames", stroke: [1, 2], lift: false, hooksWritten: [.tamper]) {
            $0.contains(.lock(.strokeCancelled(.stuckTouch)))
        }
        #expect(run.outcomes == [.lock(.strokeCancelled(.stuckTouch))])
        let tamper = try #require(hookEnvironment(.tamper))
        #expect(tamper["GRIDLOCK_REASON"] == "stuck-contact" && tamper["GRIDLOCK_DEVICE"] == "\(directory)/input/event0")
    }
}
