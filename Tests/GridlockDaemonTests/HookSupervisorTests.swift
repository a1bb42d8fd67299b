import Foundation
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockDaemon

/// `[on EVENT]` programs on a real loop: what reaches the journal when one floods its output,
/// fails, cannot start, or comes again while it still runs.
@Suite struct HookSupervisorTests {
    final class Journal {
        var lines: [(LogPriority, String)] = []
        func log(_ priority: LogPriority, _ message: String, _ fields: JournalFields) { lines.append((priority, message)) }
        func messages(containing text: String) -> [String] { lines.map(\.1).filter { $0.contains(text) } }
    }

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
        #expect(journal.messages(containing: "finished: exited with status 0 (4950 more output lines not logged)").count == 1)
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
        let journal = try run([.tamper: hook("trap '' TERM; sleep 5", timeout: .milliseconds(300))]) { $0.fire(.tamper) }
        #expect(journal.messages(containing: "hook [on tamper]: exceeded its timeout: SIGTERM sent to its process group").count == 1)
        #expect(journal.messages(containing: "hook [on tamper]: exceeded its timeout: SIGKILL sent to its process group").count == 1)
        #expect(journal.messages(containing: "hook [on tamper]: finished: killed by signal 9").count == 1)
    }
}
