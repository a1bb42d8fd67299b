import Foundation
import GridlockDaemon
import Glibc
import LinuxSys
import Testing

/// The poll loop in miniature, the way gridlockd will drive an action: output when the
/// poller says so, escalation when the timer fires. Reaping is polled here because the
/// tests have no signalfd for SIGCHLD.
private struct ActionLog {
    var lines: [String] = []
    var outcomes: [(RunningAction.DeadlineOutcome, Int64)] = []
    var status: LinuxSys.ExitStatus?  // Testing has its own ExitStatus
}

private func runToEnd(_ action: RunningAction, limitSeconds: Int64 = 15) throws -> ActionLog {
    let poller = try EventPoller()
    let timer = try TimerFD()
    try poller.add(action.outputFD, token: 1)
    try poller.add(timer.fileDescriptor, token: 2)
    var log = ActionLog()
    let limit = MonotonicClock.now() + limitSeconds * 1_000_000_000
    while log.status == nil || !action.outputEnded {
        if MonotonicClock.now() > limit {
            try action.signalGroup(.kill)
            Issue.record("action still running after \(limitSeconds) s")
            _ = try action.reap()
            return log
        }
        if let deadline = action.nextDeadline {
            try timer.arm(atMonotonicNanoseconds: deadline)
        } else {
            try timer.disarm()
        }
        for ready in try poller.wait(timeoutMilliseconds: 20) where ready.token == 2 {
            try timer.acknowledge()
            let now = MonotonicClock.now()
            if let outcome = try action.handleDeadline(now: now) { log.outcomes.append((outcome, now)) }
        }
        if log.status == nil { log.status = try action.reap() }
        if !action.outputEnded {
            log.lines += try action.drainOutputLines()
            if action.outputEnded { try poller.remove(action.outputFD) }
        }
    }
    log.lines += try action.drainOutputLines()
    return log
}

@Suite struct ActionRunnerTests {
    @Test func exitStatusesAreReported() throws {
        let runner = ActionRunner()
        let ok = try runner.start(patternName: "door", argv: ["/bin/true"], timeout: .seconds(10), now: MonotonicClock.now())
        #expect(try runToEnd(ok).status == .exited(0))
        let three = try runner.start(
            patternName: "door", argv: ["/bin/sh", "-c", "exit 3"], timeout: .seconds(10), now: MonotonicClock.now())
        #expect(try runToEnd(three).status == .exited(3))
    }

    @Test func outputArrivesAsLinesIncludingAFinalPartialOne() throws {
        let action = try ActionRunner().start(
            patternName: "door", argv: ["/bin/sh", "-c", "echo opening; echo relay busy >&2; printf done"],
            timeout: .seconds(10), now: MonotonicClock.now())
        let log = try runToEnd(action)
        #expect(log.status == .exited(0))
        #expect(log.lines == ["opening", "relay busy", "done"])
        #expect(log.outcomes.isEmpty)
    }

    @Test func environmentIsExactlyThePatternNameAndAFixedPath() throws {
        setenv("GRIDLOCK_TEST_PARENT_ONLY", "leak", 1)
        let action = try ActionRunner().start(
            patternName: "front door", argv: ["/usr/bin/env"], timeout: .seconds(10), now: MonotonicClock.now())
        let log = try runToEnd(action)
        #expect(log.lines.sorted() == [
            "GRIDLOCK_PATTERN=front door",
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        ])
    }

    @Test func timeoutSendsTermThenKillsTheWholeGroupAfterTheGrace() throws {
        // The child and its sleeping grandchild both ignore SIGTERM (an ignored signal
        // stays ignored across fork and exec), so only the SIGKILL to the group ends them.
        let start = MonotonicClock.now()
        let action = try ActionRunner().start(
            patternName: "stubborn",
            argv: ["/bin/sh", "-c", "trap '' TERM; sleep 100 & echo $!; wait; wait"],
            timeout: .milliseconds(300), now: start)
        #expect(action.nextDeadline == start + 300_000_000)

        let log = try runToEnd(action)
        #expect(log.status == .signaled(SIGKILL))
        #expect(log.outcomes.map(\.0) == [.terminated, .killed])
        if log.outcomes.count == 2 {
            #expect(log.outcomes[0].1 >= start + 300_000_000)
            #expect(log.outcomes[1].1 - log.outcomes[0].1 >= 2_000_000_000)
            #expect(log.outcomes[1].1 - log.outcomes[0].1 < 3_000_000_000)
        }
        #expect(action.nextDeadline == nil)

        let grandchild = try #require(log.lines.first.flatMap { pid_t($0) })
        let state = waitUntilNotRunning(grandchild)
        #expect(state == nil || state == "Z")
    }

    @Test func childThatHonoursTermStopsAtTheFirstDeadline() throws {
        let start = MonotonicClock.now()
        let action = try ActionRunner().start(
            patternName: "polite", argv: ["/bin/sleep", "100"], timeout: .milliseconds(100), now: start)
        let log = try runToEnd(action)
        #expect(log.status == .signaled(SIGTERM))
        #expect(log.outcomes.map(\.0) == [.terminated])
    }

    @Test func onlyOneActionRunsAtATime() throws {
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

    @Test func missingProgramErrorNamesPatternAndPath() throws {
        let error = #expect(throws: ActionRunnerError.self) {
            _ = try ActionRunner().start(
                patternName: "door", argv: ["/usr/local/bin/no-such-unlock"], timeout: .seconds(1), now: 0)
        }
        #expect(error?.description
            == "the action for pattern \"door\" could not start: posix_spawn /usr/local/bin/no-such-unlock: No such file or directory (ENOENT)")
    }

    @Test func earlyTimerWakeupDoesNothing() throws {
        let start = MonotonicClock.now()
        let action = try ActionRunner().start(
            patternName: "door", argv: ["/bin/sleep", "100"], timeout: .seconds(10), now: start)
        #expect(try action.handleDeadline(now: start + 1_000_000) == nil)
        #expect(processState(action.pid) != nil && processState(action.pid) != "Z")
        try action.signalGroup(.kill)
        _ = try runToEnd(action)
    }
}
