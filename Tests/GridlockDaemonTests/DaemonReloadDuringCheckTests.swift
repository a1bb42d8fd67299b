import Foundation
import Glibc
import GridlockCore
import GridlockDisplay
import GridlockInput
@testable import GridlockEvdev
import LinuxSys
import Testing
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// Holds every check open until the test releases it, so a reload can land inside the
/// window a real argon2 check leaves (tens of milliseconds), every time.
final class HeldVerifier: PatternVerifying {
    private var held: [(pattern: Pattern, matcher: PatternMatcher, done: (PatternMatch?) -> Void)] = []
    /// Called when a check is asked for (on the loop's thread).
    var onRequest: (Int) -> Void = { _ in }
    private(set) var requests = 0

    func verify(_ pattern: Pattern, with matcher: PatternMatcher, then done: @escaping (PatternMatch?) -> Void) {
        held.append((pattern, matcher, done))
        requests += 1
        onRequest(requests)
    }

    /// Finishes every held check as the real verifier would: the matcher it was given decides.
    func releaseAll() {
        let released = held
        held.removeAll()
        for check in released { check.done(check.matcher.match(check.pattern)) }
    }
}

/// A verdict belongs to the configuration it was made under: a reload that lands while
/// the drawn pattern is being checked never lets the old configuration open the door.
extension DaemonLoopTests {
    static let cheapHasher = ReplayTests.hasher

    static func hash(_ pattern: String) throws -> String {
        try cheapHasher.hash(message: "3x3:\(pattern)", cost: ReplayTests.cheap)
    }

    /// The config file gridlockd would read: a door pattern (`door`: its lines), an action
    /// and an `[on unlock]` hook that each leave a file behind if they run, and `extra`.
    func writeConfig(_ path: String, door: String?, extra: String = "") throws {
        var text = """
            [display]
            backend=png
            output-dir=\(directory)/frames
            [lockout]
            state-file=\(directory)/state/attempts
            [on unlock]
            exec=/bin/sh -c "echo unlocked >> \(directory)/unlock-hook.ran"
            \(extra)
            """
        if let door {
            text += "[pattern door]\n\(door)\nexec=/bin/sh -c \"echo opened >> \(directory)/door.ran\"\n"
        }
        // A rename, as `gridlock enroll` and editors that save safely do: never a torn read.
        try AtomicFile.write(Array(text.utf8), to: path, mode: 0o600)
    }

    struct ReloadRun {
        var outcomes: [Daemon.Outcome] = []
        var journal: [String] = []
        var requests = 0
    }

    /// Draws 1-2-3-6-9 on a daemon whose `door` is `before`; while its check is held,
    /// rewrites the config so that `door` is `after` (nil: removed), reloads, and only
    /// then lets the check finish. Ends at the attempt's outcome (and its action's end).
    func drawWhileReloading(
        before: String, after: String?, saved: SavedState = .clean
    ) throws -> ReloadRun {
        try Directory.create("\(directory)/state")
        chmod("\(directory)/state", 0o700)
        chmod(directory, 0o755)
        let path = "\(directory)/gridlock.conf"
        try writeConfig(path, door: before)
        let config = try ConfigVerdict.load(path: path).config

        let loop = try EventLoop()
        let touch = try EvdevTouchSource(
            settings: .init(selector: .auto, directory: "\(directory)/input"), frame: Self.frame, rotation: .none,
            now: MonotonicClock.now(), environment: environment, log: logs.log)
        let verifier = HeldVerifier()
        let parts = DaemonParts(
            loop: loop, output: NullOutput(size: Self.frame), touch: touch,
            supervisor: ActionSupervisor(loop: loop, mode: config.action.mode),
            state: StateFile(path: config.lockout.stateFile, saved: saved), verifier: verifier)
        let daemon = try Daemon(options: .init(configPath: path), config: config, parts: parts)

        var run = ReloadRun()
        let reload = loop.deadline("reload during the check") { [unowned self] _ in
            do {
                try writeConfig(path, door: after)
            } catch {
                Issue.record("cannot rewrite the config: \(error)")
            }
            // The held check is let go once the reload, judged off the loop, has been taken up.
            daemon.onReloaded = { verifier.releaseAll() }
            daemon.reload()
        }
        verifier.onRequest = { request in
            // The first check is held across the reload; the check made again runs at once.
            if request == 1 { reload.due = MonotonicClock.now() } else { verifier.releaseAll() }
        }
        daemon.observe = { outcome in
            run.outcomes.append(outcome)
            switch outcome {
            case .lock(.rejected), .action(.finished): daemon.stop()
            case .lock(.accepted(_, _)) where after == nil: daemon.stop()
            default: break
            }
        }
        let limit = loop.deadline("test limit") { _ in
            Issue.record("the daemon did not finish within 20 s; outcomes so far: \(run.outcomes)")
            daemon.stop()
        }
        limit.due = MonotonicClock.now() + .seconds(20)
        let device = try #require(environment.opened.last)
        device.deliver(try Self.strokeEvents(through: [1, 2, 3, 6, 9], layout: config.gridLayout(frame: Self.frame)))

        let recorder = JournalRecorder()
        Journal.$recorder.withValue(recorder) { _ = daemon.run() }
        // The handlers above hold the daemon, which holds the loop that holds them: let go.
        Self.letGo(daemon, deadlines: [reload, limit])
        verifier.onRequest = { _ in }
        run.journal = recorder.messages
        run.requests = verifier.requests
        return run
    }

    /// Breaks the cycles a test makes (daemon -> loop -> deadline handler -> daemon, and
    /// daemon -> observe -> daemon), so the test's daemon is freed when it ends and
    /// LeakSanitizer has nothing of it to report.
    static func letGo(_ daemon: Daemon, deadlines: [EventLoop.Deadline]) {
        for deadline in deadlines { deadline.onFire { _ in } }
        daemon.observe = nil
        daemon.screen.onPresent = nil
    }

    var actionOrHookRan: Bool {
        FileManager.default.fileExists(atPath: "\(directory)/door.ran")
            || FileManager.default.fileExists(atPath: "\(directory)/unlock-hook.ran")
    }

    /// The journal says the reload came first, then the second check, then the verdict.
    func expectReloadThenCheckAgain(_ journal: [String], verdict: String) {
        let reloaded = journal.firstIndex { $0.hasPrefix("configuration reloaded") }
        let checkedAgain = journal.firstIndex { $0.contains("checking it again under the new one") }
        let decided = journal.lastIndex { $0.contains(verdict) }
        #expect(reloaded != nil && checkedAgain != nil && decided != nil, "journal: \(journal)")
        if let reloaded, let checkedAgain, let decided {
            #expect(reloaded < checkedAgain && checkedAgain < decided, "journal: \(journal)")
        }
    }

    /// The journal says the reload came before the verdict, and the check was not made again
    /// (the hashes did not change: the new limits apply to the verdict as it comes).
    func expectReloadBeforeVerdict(_ journal: [String], verdict: String) {
        let reloaded = journal.firstIndex { $0.hasPrefix("configuration reloaded") }
        let decided = journal.lastIndex { $0.contains(verdict) }
        #expect(reloaded != nil && decided != nil && reloaded! < decided!, "journal: \(journal)")
        #expect(!journal.contains { $0.contains("checking it again") }, "journal: \(journal)")
    }

    @Test("a pattern re-enrolled with another drawing during the check does not open with the old one")
    func reEnrolledDuringTheCheck() throws {
        let run = try drawWhileReloading(before: "hash=\(try Self.hash("1-2-3-6-9"))", after: "hash=\(try Self.hash("7-8-9-6-3"))")
        #expect(run.outcomes == [.lock(.rejected(nodes: 5, failures: 1))])
        #expect(run.requests == 2)
        #expect(!actionOrHookRan)
        expectReloadThenCheckAgain(run.journal, verdict: "attempt rejected")
    }

    @Test("a pattern removed during the check opens nothing: no success, no action, no [on unlock]")
    func removedDuringTheCheck() throws {
        let run = try drawWhileReloading(before: "hash=\(try Self.hash("1-2-3-6-9"))", after: nil)
        #expect(run.outcomes == [.lock(.rejected(nodes: 5, failures: 1))])
        #expect(!actionOrHookRan)
        expectReloadThenCheckAgain(run.journal, verdict: "attempt rejected")
    }

    @Test("a pattern that expired with the reload during the check is refused by the new validity")
    func expiredDuringTheCheck() throws {
        let hash = try Self.hash("1-2-3-6-9")
        let run = try drawWhileReloading(before: "hash=\(hash)", after: "hash=\(hash)\nvalid-until=2020-01-01T00:00")
        #expect(run.outcomes == [.lock(.rejected(nodes: 5, failures: 1))])
        #expect(!actionOrHookRan)
        expectReloadBeforeVerdict(run.journal, verdict: "matched but may not open")
    }

    @Test("a pattern used up by the reload during the check (uses=2 -> uses=1, used once) is refused")
    func usedUpDuringTheCheck() throws {
        let hash = try Self.hash("1-2-3-6-9")
        let usedOnce = SavedState(patterns: ["door": PatternUse(count: 1, hashTag: PatternUse.tag(of: hash), lastAccepted: nil)])
        let run = try drawWhileReloading(before: "hash=\(hash)\nuses=2", after: "hash=\(hash)\nuses=1", saved: usedOnce)
        #expect(run.outcomes == [.lock(.rejected(nodes: 5, failures: 1))])
        #expect(!actionOrHookRan)
        expectReloadBeforeVerdict(run.journal, verdict: "matched but may not open")
    }

    @Test("a reload that leaves the pattern as it was does not check it again, and it opens, once")
    func unchangedPatternStillOpens() throws {
        let hash = try Self.hash("1-2-3-6-9")
        let run = try drawWhileReloading(before: "hash=\(hash)", after: "hash=\(hash)\n# touched by an administrator")
        #expect(run.outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))
        #expect(run.outcomes.last == .action(.finished(pattern: "door", duress: false, status: .exited(0))))
        #expect(run.requests == 1)
        let opened = try String(contentsOfFile: "\(directory)/door.ran", encoding: .utf8)
        #expect(opened == "opened\n")
        let reloaded = run.journal.firstIndex { $0.hasPrefix("configuration reloaded") }
        let accepted = run.journal.firstIndex { $0.contains("attempt accepted") }
        #expect(reloaded != nil && accepted != nil && reloaded! < accepted!, "journal: \(run.journal)")
        #expect(!run.journal.contains { $0.contains("checking it again") })
    }

    @Test("the gate never admits a match whose hash is no longer the pattern's, nor a name that is gone")
    func theGateRefusesStaleMatches() throws {
        var config = try config()
        let gate = PatternGate(config: config, state: StateFile(path: nil), wallClock: SystemWallClock.now)
        let enrolled = config.patterns[0].hash
        #expect(gate.admit(PatternMatch(name: "door", hash: enrolled)) == .verified(patternName: "door"))
        #expect(gate.admit(PatternMatch(name: "door", hash: try Self.hash("7-8-9"))) == .verified(patternName: nil))
        #expect(gate.admit(PatternMatch(name: "gone", hash: enrolled)) == .verified(patternName: nil))
        config.patterns = []
        gate.update(config)
        #expect(gate.admit(PatternMatch(name: "door", hash: enrolled)) == .verified(patternName: nil))
    }

    @Test("a reload in the middle of a stroke (a new colour) keeps it: the finished drawing opens the door")
    func aReloadMidStrokeKeepsTheStroke() throws {
        try Directory.create("\(directory)/state")
        chmod("\(directory)/state", 0o700)
        chmod(directory, 0o755)
        let path = "\(directory)/gridlock.conf"
        let door = "hash=\(try Self.hash("1-2-3-6-9"))"
        try writeConfig(path, door: door)
        let config = try ConfigVerdict.load(path: path).config
        let loop = try EventLoop()
        let touch = try EvdevTouchSource(
            settings: .init(selector: .auto, directory: "\(directory)/input"), frame: Self.frame, rotation: .none,
            now: MonotonicClock.now(), environment: environment, log: logs.log)
        let parts = DaemonParts(
            loop: loop, output: NullOutput(size: Self.frame), touch: touch,
            supervisor: ActionSupervisor(loop: loop, mode: config.action.mode),
            state: StateFile(path: config.lockout.stateFile, saved: .clean))
        let daemon = try Daemon(options: .init(configPath: path), config: config, parts: parts)
        let device = try #require(environment.opened.last)
        let layout = config.gridLayout(frame: Self.frame)
        let whole = try Self.strokeEvents(through: [1, 2, 3, 6, 9], layout: layout)
        // Down and through 1-2-3 (three touch frames of three events after the first's three more).
        let split = 3 + 3 * 3
        var outcomes: [Daemon.Outcome] = []
        let reloadAndFinish = loop.deadline("reload mid-stroke") { [unowned self] _ in
            do {
                try writeConfig(path, door: door, extra: "[theme]\nselected=#FF8800\n")
            } catch {
                Issue.record("cannot rewrite the config: \(error)")
            }
            // The rest of the stroke comes once the new configuration is in force.
            daemon.onReloaded = { device.deliver(Array(whole[split...])) }
            daemon.reload()
        }
        var reloaded = false
        daemon.screen.onPresent = { scene in
            if !reloaded, scene.nodes.filter({ $0 == .selected }).count == 3 {
                reloaded = true
                reloadAndFinish.due = MonotonicClock.now()
            }
        }
        daemon.observe = { outcome in
            outcomes.append(outcome)
            if case .action(.finished) = outcome { daemon.stop() }
            if case .lock(.rejected) = outcome { daemon.stop() }
        }
        let limit = loop.deadline("test limit") { _ in
            Issue.record("the daemon did not finish within 20 s; outcomes so far: \(outcomes)")
            daemon.stop()
        }
        limit.due = MonotonicClock.now() + .seconds(20)
        device.deliver(Array(whole[..<split]))
        let recorder = JournalRecorder()
        Journal.$recorder.withValue(recorder) { _ = daemon.run() }
        Self.letGo(daemon, deadlines: [reloadAndFinish, limit])
        #expect(reloaded)
        #expect(recorder.messages.contains { $0.hasPrefix("configuration reloaded") }, "journal: \(recorder.messages)")
        #expect(!recorder.messages.contains { $0.hasPrefix("stroke cancelled") }, "journal: \(recorder.messages)")
        #expect(outcomes.first == .lock(.accepted(patternName: "door", nodes: 5)))
    }
}
