import Foundation
import GridlockDaemon
import Glibc
import GridlockCore
import LinuxSys
import Testing

/// A `RunningAction` driven on an `EventLoop` the way `ActionSupervisor` drives it:
/// output and exit when the loop says so, escalation at its deadlines.
private struct ActionLog {
    var lines: [String] = []
    var outcomes: [(RunningAction.DeadlineOutcome, Instant)] = []
    var status: LinuxSys.ExitStatus?  // Testing has its own ExitStatus
}

private func lines(_ pieces: [OutputLineSplitter.Piece]) -> [String] {
    pieces.compactMap { if case .line(let line) = $0 { line } else { nil } }
}

private func runToEnd(_ action: RunningAction, limitSeconds: Int64 = 15) throws -> ActionLog {
    let loop = try EventLoop()
    var log = ActionLog()
    var overran = false
    let escalation = loop.deadline("action timeout")
    escalation.onFire { now in
        if let outcome = try? action.handleDeadline(now: now) { log.outcomes.append((outcome, now)) }
        escalation.due = action.nextDeadline
    }
    escalation.due = action.nextDeadline
    loop.deadline("test limit") { _ in overran = true }.due = MonotonicClock.now() + .seconds(limitSeconds)
    let pump = {
        log.lines += lines((try? action.readOutput(now: MonotonicClock.now())) ?? [])
        if action.outputEnded { loop.unwatch(action.outputFD) }
        if log.status == nil { log.status = try? action.reap() }
    }
    try loop.watch(action.outputFD, as: "output", pump)
    if let exitFD = action.exitFD { try loop.watch(exitFD, as: "exit") { if log.status == nil { pump() } } }
    try loop.run(until: { (log.status != nil && action.outputEnded) || overran })
    if overran {
        try action.signalGroup(.kill)
        Issue.record("action still running after \(limitSeconds) s")
        _ = try action.reap()
    }
    loop.unwatch(action.outputFD)
    if let exitFD = action.exitFD { loop.unwatch(exitFD) }
    log.lines += lines(action.finishOutput(now: MonotonicClock.now()))
    return log
}

@Suite struct ActionRunnerTests {
    @Test("exit statuses are reported") func exitStatusesAreReported() throws {
        let runner = ActionRunner()
        let ok = try runner.start(patternName: "door", argv: ["/bin/true"], timeout: .seconds(10), now: MonotonicClock.now())
        #expect(try runToEnd(ok).status == .exited(0))
        let three = try runner.start(
            patternName: "door", argv: ["/bin/sh", "-c", "exit 3"], timeout: .seconds(10), now: MonotonicClock.now())
        #expect(try runToEnd(three).status == .exited(3))
    }

    @Test("output arrives as lines including a final partial one") func outputArrivesAsLinesIncludingAFinalPartialOne() throws {
        let action = try ActionRunner().start(
            patternName: "door", argv: ["/bin/sh", "-c", "echo opening; echo relay busy >&2; printf done"],
            timeout: .seconds(10), now: MonotonicClock.now())
        let log = try runToEnd(action)
        #expect(log.status == .exited(0))
        #expect(log.lines == ["opening", "relay busy", "done"])
        #expect(log.outcomes.isEmpty)
    }

    @Test("environment is exactly the pattern name and a fixed path") func environmentIsExactlyThePatternNameAndAFixedPath() throws {
        setenv("GRIDLOCK_TEST_PARENT_ONLY", "leak", 1)
        let action = try ActionRunner().start(
            patternName: "front door", argv: ["/usr/bin/env"], timeout: .seconds(10), now: MonotonicClock.now())
        let log = try runToEnd(action)
        #expect(log.lines.sorted() == [
            "GRIDLOCK_PATTERN=front door",
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        ])
    }

    @Test("timeout sends term then kills the whole group after the grace") func timeoutSendsTermThenKillsTheWholeGroupAfterTheGrace() throws {
        // The child and its sleeping grandchild both ignore SIGTERM (an ignored signal
        // stays ignored across fork and exec), so only the SIGKILL to the group ends them.
        let start = MonotonicClock.now()
        let action = try ActionRunner().start(
            patternName: "stubborn",
            argv: ["/bin/sh", "-c", "trap '' TERM; sleep 100 & echo $!; wait; wait"],
            timeout: .seconds(1), now: start)
        // The timeout leaves the shell a second to set its trap: one that arrived first
        // would end it with SIGTERM alone.
        #expect(action.nextDeadline == start + .seconds(1))

        let log = try runToEnd(action)
        #expect(log.status == .signaled(SIGKILL))
        #expect(log.outcomes.map(\.0) == [.terminated, .killed])
        if log.outcomes.count == 2 {
            #expect(log.outcomes[0].1 >= start + .seconds(1))
            // Never early; how late a loaded machine is, is no assertion.
            #expect(log.outcomes[1].1.duration(since: log.outcomes[0].1) >= .seconds(2))
        }
        #expect(action.nextDeadline == nil)

        let grandchild = try #require(log.lines.first.flatMap { pid_t($0) })
        let state = waitUntilNotRunning(grandchild)
        #expect(state == nil || state == "Z")
    }

    @Test("child that honours term stops at the first deadline") func childThatHonoursTermStopsAtTheFirstDeadline() throws {
        let start = MonotonicClock.now()
        let action = try ActionRunner().start(
            patternName: "polite", argv: ["/bin/sleep", "100"], timeout: .milliseconds(100), now: start)
        let log = try runToEnd(action)
        #expect(log.status == .signaled(SIGTERM))
        #expect(log.outcomes.map(\.0) == [.terminated])
    }

    @Test("only one action runs at a time") func onlyOneActionRunsAtATime() throws {
        let runner = ActionRunner()
        let first = try runner.start(patternName: "a", argv: ["/bin/sleep", "100"], timeout: .seconds(10), now: MonotonicClock.now())
        #expect(throws: ActionRunnerError.alreadyRunning(patternName: "a", pid: first.pid)) {
            _ = try runner.start(patternName: "b", argv: ["/bin/true"], timeout: .seconds(10), now: MonotonicClock.now())
        }
        try first.signalGroup(.kill)
        #expect(try runToEnd(first).status == .signaled(SIGKILL))
        let second = try runner.start(patternName: "b", argv: ["/bin/true"], timeout: .seconds(10), now: MonotonicClock.now())
        #expect(try runToEnd(second).status == .exited(0))
    }

    @Test("missing program error names pattern and path") func missingProgramErrorNamesPatternAndPath() throws {
        let error = expectError(ActionRunnerError.self) {
            _ = try ActionRunner().start(
                patternName: "door", argv: ["/usr/local/bin/no-such-unlock"], timeout: .seconds(1), now: .zero)
        }
        #expect(error?.description
            == "the action for pattern \"door\" could not start: posix_spawn /usr/local/bin/no-such-unlock: No such file or directory (ENOENT)")
    }

    @Test("early timer wakeup does nothing") func earlyTimerWakeupDoesNothing() throws {
        let start = MonotonicClock.now()
        let action = try ActionRunner().start(
            patternName: "door", argv: ["/bin/sleep", "100"], timeout: .seconds(10), now: start)
        #expect(try action.handleDeadline(now: start + .milliseconds(1)) == nil)
        #expect(processState(action.pid) != nil && processState(action.pid) != "Z")
        try action.signalGroup(.kill)
        _ = try runToEnd(action)
    }
}
