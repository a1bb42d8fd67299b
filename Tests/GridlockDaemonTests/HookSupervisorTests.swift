import Foundation
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// `[on EVENT]` programs on a real loop: what reaches the journal when one floods its output,
/// fails, cannot start, or comes again while it still runs.
@Suite struct HookSupervisorTests {
    final class Journal {
        var lines: [(LogPriority, String)] = []
        var onLog: (String) -> Void = { _ in }
        func log(_ priority: LogPriority, _ message: String, _ fields: JournalFields) {
            lines.append((priority, message))
            onLog(message)
        }
        func messages(containing text: String) -> [String] { lines.map(\.1).filter { $0.contains(text) } }
        /// What one hook's lines say after `text` was logged.
        func messages(of event: HookEvent, after text: String) -> [String] {
            let own = lines.map(\.1).filter { $0.hasPrefix("hook [on \(event.rawValue)]: ") }
            guard let mark = own.firstIndex(where: { $0.contains(text) }) else { return [] }
            return own[(mark + 1)...].map { String($0.dropFirst("hook [on \(event.rawValue)]: ".count)) }
        }
    }

    /// Instants a thousand days ahead, which the loop never reaches by itself: the test
    /// fires the supervisor's deadlines, so nothing depends on how fast the machine is.
    final class TestClock {
        var now = MonotonicClock.now() + .seconds(86_400 * 1000)
    }

    static let grace = Duration.milliseconds(200)

    func hook(_ script: String, timeout: Duration? = .seconds(10)) -> HookConfig {
        HookConfig(argv: ["/bin/sh", "-c", script], timeout: timeout, source: SourceLocation(file: "test.conf", line: 7))
    }

    func run(_ hooks: [HookEvent: HookConfig], firing: (HookSupervisor) -> Void) throws -> Journal {
        let journal = Journal()
        let loop = try EventLoop(signals: [.child])
        let supervisor = HookSupervisor(loop: loop, hooks: hooks, killGrace: .milliseconds(200), wallClock: { 1_764_547_200 }, journal: journal.log)
        // Weak: the supervisor holds the loop, so a strong capture here would be a cycle.
        loop.signalHandler = { [weak supervisor] _ in supervisor?.childExited() }
        firing(supervisor)
        loop.deadline("test limit") { _ in Issue.record("hooks still running after 10 s") }.due = MonotonicClock.now() + .seconds(10)
        try loop.run(until: { supervisor.isQuiet })
        return journal
    }

    @Test("a flood of output: the first 50 lines are logged, the rest counted")
    func floodIsCapped() throws {
        let journal = try run([.lockout: hook("i=0; while [ $i -lt 5000 ]; do echo line $i; i=$((i+1)); done")]) { $0.fire(.lockout) }
        let output = journal.messages(containing: "hook [on lockout]: line ")
        #expect(output.count == HookSupervisor.loggedLinesPerRun)
        #expect(output.first == "hook [on lockout]: line 0")
        // "line 50\n" ... "line 4999\n": 50 of 8 bytes, 900 of 9, 4000 of 10.
        #expect(journal.messages(of: .lockout, after: "line 49") == [
            "(4950 more lines, 48500 bytes dropped)", "finished: exited with status 0",
        ])
    }

    @Test("a failing hook is logged at warning with its status; one that cannot start, at error with its source")
    func failuresAreLogged() throws {
        let journal = try run([
            .failure: hook("exit 3"),
            .unlock: HookConfig(argv: ["/nonexistent/alarm"], source: SourceLocation(file: "test.conf", line: 9)),
        ]) {
            $0.fire(.failure, HookFacts(failures: 1))
            $0.fire(.unlock, HookFacts(pattern: "door"))
        }
        #expect(journal.lines.contains { $0.0 == .warning && $0.1 == "hook [on failure]: finished: exited with status 3" })
        #expect(journal.lines.contains { $0.0 == .error && $0.1.hasPrefix("hook [on unlock]: could not start /nonexistent/alarm: ") && $0.1.hasSuffix("(set at test.conf:9)") })
    }

    @Test("events while a hook runs are folded into one more run with the newest facts")
    func burstsAreFolded() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let journal = try run([.failure: hook("echo $GRIDLOCK_FAILURES >> \(folder)/runs; sleep 0.3")]) { supervisor in
            for failures in 1...20 { supervisor.fire(.failure, HookFacts(failures: failures)) }
        }
        #expect(try String(contentsOfFile: "\(folder)/runs", encoding: .utf8) == "1\n20\n")
        #expect(journal.messages(containing: "still running; this failure is passed on when it ends").count == 1)
    }

    @Test("after=N: nothing before the Nth consecutive failure")
    func afterCountsFailures() throws {
        var config = hook("echo $GRIDLOCK_FAILURES")
        config.after = 3
        let journal = try run([.failure: config]) { supervisor in
            supervisor.fire(.failure, HookFacts(failures: 2))
        }
        #expect(journal.lines.isEmpty)
    }

    @Test("a hook past its timeout gets SIGTERM, and SIGKILL if it ignores that")
    func timeoutsEscalate() throws {
        let journal = try run([.tamper: hook("trap '' TERM; sleep 5", timeout: .seconds(1))]) { $0.fire(.tamper) }
        #expect(journal.messages(containing: "hook [on tamper]: exceeded its timeout: SIGTERM sent to its process group").count == 1)
        #expect(journal.messages(containing: "hook [on tamper]: exceeded its timeout: SIGKILL sent to its process group").count == 1)
        #expect(journal.messages(containing: "hook [on tamper]: finished: killed by signal 9").count == 1)
    }

    /// A supervisor on a loop of its own, on `clock`, with a 200 ms grace.
    func supervisor(_ hooks: [HookEvent: HookConfig], clock: TestClock? = nil) throws -> (EventLoop, HookSupervisor, Journal) {
        let journal = Journal()
        let loop = try EventLoop(signals: [.child])
        let supervisor = HookSupervisor(
            loop: loop, hooks: hooks, killGrace: Self.grace, clock: clock.map { clock in { clock.now } } ?? MonotonicClock.now,
            wallClock: { 1_764_547_200 }, journal: journal.log)
        loop.signalHandler = { [weak supervisor] _ in supervisor?.childExited() }
        return (loop, supervisor, journal)
    }

    /// Turns the loop until `condition` holds; a failure after 10 s of real time.
    func turn(_ loop: EventLoop, until condition: () -> Bool) throws {
        var overran = false
        let limit = loop.deadline("test limit") { _ in overran = true }
        limit.due = MonotonicClock.now() + .seconds(10)
        try loop.run(until: { condition() || overran })
        limit.due = nil
        if overran { Issue.record("still waiting after 10 s") }
    }

    @Test("stopping: a running hook with timeout=0 gets SIGTERM at once, and SIGKILL when the grace has passed, not before")
    func stopAllEscalatesAfterTheGrace() throws {
        let clock = TestClock()
        let (loop, supervisor, journal) = try supervisor([.start: hook("trap '' TERM; echo ready; sleep 1000", timeout: nil)], clock: clock)
        supervisor.fire(.start)
        try turn(loop) { !journal.messages(containing: "hook [on start]: ready").isEmpty }

        let stop = clock.now
        supervisor.stopAll()
        #expect(journal.messages(of: .start, after: "ready") == ["gridlockd is stopping: SIGTERM sent to its process group"])
        #expect(supervisor.nextDeadline == stop + Self.grace)
        supervisor.handleDeadlines(now: stop + (Self.grace - .nanoseconds(1)))
        #expect(journal.messages(containing: "SIGKILL").isEmpty)
        supervisor.handleDeadlines(now: stop + Self.grace)
        #expect(supervisor.nextDeadline == nil)
        try turn(loop) { supervisor.isQuiet }
        #expect(journal.messages(of: .start, after: "ready") == [
            "gridlockd is stopping: SIGTERM sent to its process group",
            "gridlockd is stopping: SIGKILL sent to its process group",
            "finished: killed by signal 9 (SIGKILL)",
        ])
    }

    @Test("[on stop] with timeout=0 runs for the stop budget, then SIGTERM, then SIGKILL after the grace; the others stop at once")
    func stopHookHasABudget() throws {
        let clock = TestClock()
        let (loop, supervisor, journal) = try supervisor([
            .start: hook("trap '' TERM; echo ready; sleep 1000", timeout: nil),
            .stop: hook("trap '' TERM; echo ready; sleep 1000", timeout: nil),
        ], clock: clock)
        supervisor.fire(.start)
        try turn(loop) { !journal.messages(containing: "hook [on start]: ready").isEmpty }

        let stop = clock.now
        supervisor.stopAll(runningStopHookWith: HookFacts(device: "/dev/input/event0"))
        try turn(loop) { !journal.messages(containing: "hook [on stop]: ready").isEmpty }
        #expect(supervisor.nextDeadline == stop + Self.grace)
        supervisor.handleDeadlines(now: stop + Self.grace)
        try turn(loop) { !journal.messages(containing: "hook [on start]: finished").isEmpty }
        #expect(journal.messages(of: .stop, after: "ready") == [])

        #expect(supervisor.nextDeadline == stop + HookSupervisor.stopBudget)
        supervisor.handleDeadlines(now: stop + (HookSupervisor.stopBudget - .nanoseconds(1)))
        #expect(journal.messages(of: .stop, after: "ready") == [])
        supervisor.handleDeadlines(now: stop + HookSupervisor.stopBudget)
        #expect(supervisor.nextDeadline == stop + HookSupervisor.stopBudget + Self.grace)
        supervisor.handleDeadlines(now: stop + HookSupervisor.stopBudget + Self.grace)
        try turn(loop) { supervisor.isQuiet }

        #expect(journal.messages(of: .start, after: "ready") == [
            "gridlockd is stopping: SIGTERM sent to its process group",
            "gridlockd is stopping: SIGKILL sent to its process group",
            "finished: killed by signal 9 (SIGKILL)",
        ])
        #expect(journal.messages(of: .stop, after: "ready") == [
            "ran past the 5 s a stopping gridlockd gives it: SIGTERM sent to its process group",
            "ran past the 5 s a stopping gridlockd gives it: SIGKILL sent to its process group",
            "finished: killed by signal 9 (SIGKILL)",
        ])
    }

    @Test("[on stop] with a timeout shorter than the budget keeps its timeout; once stopping, no other event starts anything")
    func stopHookKeepsAShorterTimeout() throws {
        let clock = TestClock()
        let (loop, supervisor, journal) = try supervisor([
            .stop: hook("echo ready; exec sleep 1000", timeout: .seconds(1)), .failure: hook("echo never"),
        ], clock: clock)
        let stop = clock.now
        supervisor.stopAll(runningStopHookWith: HookFacts())
        supervisor.fire(.failure, HookFacts(failures: 1))
        #expect(supervisor.nextDeadline == stop + .seconds(1))
        try turn(loop) { !journal.messages(containing: "hook [on stop]: ready").isEmpty }
        supervisor.handleDeadlines(now: stop + .seconds(1))
        try turn(loop) { supervisor.isQuiet }
        #expect(journal.messages(of: .stop, after: "ready") == [
            "exceeded its timeout: SIGTERM sent to its process group", "finished: killed by signal 15 (SIGTERM)",
        ])
        #expect(journal.messages(containing: "[on failure]").isEmpty)
    }

    @Test("a flood in the pipe is read a slice per turn: a deadline set at its first line fires before it is drained")
    func floodDoesNotStarveTheLoop() throws {
        // 32 KiB of empty lines, all in the pipe (half its size) before the loop reads any.
        let (loop, supervisor, journal) = try supervisor([.start: hook("head -c 32768 /dev/zero | tr '\\0' '\\n'")])
        supervisor.fire(.start)
        let started = try #require(journal.messages(containing: "started /bin/sh (pid ").first)
        let pid = try #require(Int32(started.split(separator: " ").last!.dropLast()))
        #expect(waitUntilNotRunning(pid) == "Z", "the hook has written everything and exited")

        var order: [String] = []
        let turnOfTheLoop = loop.deadline("turn") { _ in order.append("deadline") }
        journal.onLog = { message in
            if message == "hook [on start]: ", order.isEmpty {
                order.append("first line")
                turnOfTheLoop.due = MonotonicClock.now()
            }
            if message.contains("finished") { order.append("finished") }
        }
        try turn(loop) { supervisor.isQuiet }
        #expect(order == ["first line", "deadline", "finished"])
        #expect(journal.messages(of: .start, after: "started").suffix(2) == [
            "(32718 more lines, 32718 bytes dropped)", "finished: exited with status 0",
        ])
    }
}
