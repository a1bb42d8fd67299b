import Glibc
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// Records what the supervisor asks of its owner, in order.
final class RecordingOwner: ActionSupervisorDelegate {
    var events: [String] = []
    var reports: [ActionReport] = []
    var finished = false

    func handOver(to patternName: String, whenFree: @escaping () -> Void) {
        events.append("hand over to \(patternName)")
        if holdsPanel { panelHeld = whenFree } else { whenFree() }
    }
    /// Whether a face apart holds the panel: the action then waits for `releasePanel()`.
    var holdsPanel = false
    private var panelHeld: (() -> Void)?
    func releasePanel() {
        events.append("panel free")
        panelHeld?()
        panelHeld = nil
    }
    func takeBack() { events.append("take back") }
    func actionsFinished() {
        events.append("finished")
        finished = true
    }
    /// The first output line that is a process id (the leftover tests print `$!`).
    var firstPrintedPID: pid_t? {
        reports.lazy.compactMap { report -> pid_t? in
            if case .output(_, let line) = report { pid_t(line) } else { nil }
        }.first
    }

    func report(_ report: ActionReport) {
        reports.append(report)
        if case .output(_, let line) = report { events.append("output \(line)") }
    }
}

@Suite struct ActionSupervisorTests {
    func plan(exec: [String]?, duressExec: [String]? = nil, timeout: Duration = .seconds(10)) -> UnlockActionPlan {
        UnlockActionPlan(
            patternName: "door", exec: exec, duressExec: duressExec, isDuress: duressExec != nil, timeout: timeout)
    }

    /// Runs `plan` to its end on a loop of its own, as `gridlock replay` does.
    func run(_ plan: UnlockActionPlan, mode: ActionMode = .pulse, runner: ActionRunner = ActionRunner()) throws -> RecordingOwner {
        let loop = try EventLoop()
        let supervisor = ActionSupervisor(loop: loop, mode: mode, runner: runner)
        let owner = RecordingOwner()
        supervisor.delegate = owner
        supervisor.begin(plan)
        try loop.run(until: { supervisor.isIdle })
        return owner
    }

    @Test("duress: the alert, the silent program first, then exec=; the silent one's output is never reported")
    func duressRunsSilentlyFirst() throws {
        let owner = try run(plan(exec: ["/bin/echo", "open"], duressExec: ["/bin/echo", "alarm"]))
        #expect(owner.reports == [
            .duressUsed(pattern: "door"),
            .finished(pattern: "door", duress: true, status: .exited(0)),
            .output(pattern: "door", line: "open"),
            .finished(pattern: "door", duress: false, status: .exited(0)),
        ])
        #expect(owner.events == ["output open", "finished"])
    }

    @Test("no exec= at all: finished at once, nothing started")
    func nothingToRun() throws {
        let owner = try run(plan(exec: nil))
        #expect(owner.reports.isEmpty)
        #expect(owner.events == ["finished"])
    }

    @Test("a duress program that cannot start does not keep exec= from running")
    func missingDuressProgram() throws {
        let owner = try run(plan(exec: ["/bin/echo", "open"], duressExec: ["/nonexistent/alarm"]))
        #expect(owner.reports.count == 4)
        if case .couldNotStart(_, true, let reason) = owner.reports[1] {
            #expect(reason.contains("/nonexistent/alarm"))
        } else {
            Issue.record("expected couldNotStart, got \(owner.reports[1])")
        }
        #expect(owner.reports[1].jsonFields == nil)
        #expect(owner.events == ["output open", "finished"])
    }

    @Test("handover: the panel goes to the action before it starts and comes back after it ended")
    func handoverOrder() throws {
        let owner = try run(plan(exec: ["/bin/echo", "session"], duressExec: ["/bin/true"]), mode: .handover)
        #expect(owner.events == ["hand over to door", "output session", "take back", "finished"])
        #expect(owner.reports.contains(.handedOver(pattern: "door")))
        #expect(owner.reports.contains(.tookBack))
    }

    @Test("handover to a panel a face apart holds: the program starts only once the panel is free; a stop before that starts nothing")
    func handoverWaitsForThePanel() throws {
        let loop = try EventLoop()
        let supervisor = ActionSupervisor(loop: loop, mode: .handover)
        let owner = RecordingOwner()
        owner.holdsPanel = true
        supervisor.delegate = owner
        supervisor.begin(plan(exec: ["/bin/echo", "session"]))
        // Without the panel's release nothing starts (a start would be within `begin`).
        #expect(owner.events == ["hand over to door"])
        #expect(supervisor.runningPattern == nil)
        #expect(!supervisor.isIdle)
        owner.releasePanel()
        try loop.run(until: { supervisor.isIdle })
        #expect(owner.events == ["hand over to door", "panel free", "output session", "take back", "finished"])

        let stopped = RecordingOwner()
        stopped.holdsPanel = true
        supervisor.delegate = stopped
        supervisor.begin(plan(exec: ["/bin/echo", "never"]))
        supervisor.stopAll()
        #expect(supervisor.isIdle)
        // The panel freed late starts nothing.
        stopped.releasePanel()
        #expect(stopped.events == ["hand over to door", "take back", "finished", "panel free"])
        #expect(!stopped.reports.contains { if case .output = $0 { true } else { false } })
    }

    @Test("the timeout sends SIGTERM to the group; one that ignores it gets SIGKILL after the grace")
    func timeoutEscalates() throws {
        let owner = try run(
            // A second for the shell to set its trap before the SIGTERM comes.
            plan(exec: ["/bin/sh", "-c", "trap '' TERM; sleep 100"], timeout: .seconds(1)),
            runner: ActionRunner(killGrace: .milliseconds(200)))
        #expect(owner.reports == [
            .timedOut(pattern: "door", outcome: .terminated),
            .timedOut(pattern: "door", outcome: .killed),
            .finished(pattern: "door", duress: false, status: .signaled(Signal.kill.rawValue)),
        ])
    }

    @Test("stopping (the daemon exits): the queue is dropped and a program ignoring SIGTERM is killed")
    func stopAllKillsTheStubborn() throws {
        let loop = try EventLoop()
        let supervisor = ActionSupervisor(loop: loop, mode: .pulse, runner: ActionRunner(killGrace: .milliseconds(200)))
        let owner = RecordingOwner()
        supervisor.delegate = owner
        supervisor.begin(plan(exec: ["/bin/echo", "never"], duressExec: ["/bin/sh", "-c", "trap '' TERM; echo up; sleep 100"]))
        #expect(supervisor.runningPattern == "door")
        let start = MonotonicClock.now()
        loop.deadline("stop") { _ in supervisor.stopAll() }.due = start + .milliseconds(100)
        try loop.run(until: { supervisor.isIdle })
        #expect(MonotonicClock.now() >= start + .milliseconds(300))
        #expect(owner.reports == [
            .duressUsed(pattern: "door"),
            .stopping(pattern: "door"),
            .timedOut(pattern: "door", outcome: .killed),
            .finished(pattern: "door", duress: true, status: .signaled(Signal.kill.rawValue)),
        ])
        #expect(owner.events == ["finished"])
    }

    @Test("what a program leaves running in its group is stopped at its timeout")
    func leftoversAreStoppedAtTheTimeout() throws {
        let loop = try EventLoop()
        let supervisor = ActionSupervisor(loop: loop, mode: .pulse, runner: ActionRunner(killGrace: .milliseconds(200)))
        let owner = RecordingOwner()
        supervisor.delegate = owner
        supervisor.begin(plan(exec: ["/bin/sh", "-c", "sleep 100 & echo $!"], timeout: .milliseconds(300)))
        try loop.run(until: { supervisor.isIdle })
        let leftover = try #require(owner.firstPrintedPID)
        #expect(owner.reports.contains(.leftProcessesBehind(pattern: "door")))
        #expect(processState(leftover).map { $0 != "Z" } == true)
        #expect(!supervisor.isQuiet)
        try loop.run(until: { supervisor.isQuiet })
        // SIGKILL may follow: a killed process stays a group member until init reaps it.
        #expect(owner.reports.contains(.timedOut(pattern: "door", outcome: .terminated)))
        let state = waitUntilNotRunning(leftover)
        #expect(state == nil || state == "Z")
    }

    @Test("stopping: what an ended program left behind is stopped too, SIGKILL if it ignores SIGTERM")
    func stopAllReachesLeftovers() throws {
        let loop = try EventLoop()
        let supervisor = ActionSupervisor(loop: loop, mode: .pulse, runner: ActionRunner(killGrace: .milliseconds(200)))
        let owner = RecordingOwner()
        supervisor.delegate = owner
        // The program ends only once its leftover ignores SIGTERM (bit 15 of SigIgn): a stop
        // sent before the trap was set would end it with SIGTERM alone, and the SIGKILL this
        // test is about would never be needed.
        let script = """
            (trap '' TERM; exec sleep 100) & pid=$!
            until [ $(( 0x$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$pid/status) & 0x4000 )) -ne 0 ]; do :; done
            echo $pid
            """
        supervisor.begin(plan(exec: ["/bin/sh", "-c", script], timeout: .seconds(60)))
        try loop.run(until: { supervisor.isIdle })
        let leftover = try #require(owner.firstPrintedPID)
        supervisor.stopAll()
        try loop.run(until: { supervisor.isQuiet })
        #expect(owner.reports.suffix(2) == [
            .stopping(pattern: "door"), .timedOut(pattern: "door", outcome: .killed),
        ])
        let state = waitUntilNotRunning(leftover)
        #expect(state == nil || state == "Z")
    }
}

extension ActionSupervisorTests {
    @Test("an action's output: 50 lines a second reach the journal, the rest is counted (on a clock that stands still)")
    func outputIsLimitedPerSecond() throws {
        let loop = try EventLoop()
        let stillness = MonotonicClock.now()
        let supervisor = ActionSupervisor(loop: loop, mode: .pulse, clock: { stillness })
        let owner = RecordingOwner()
        supervisor.delegate = owner
        supervisor.begin(plan(exec: ["/bin/sh", "-c", "i=0; while [ $i -lt 200 ]; do echo line $i; i=$((i+1)); done"]))
        try loop.run(until: { supervisor.isIdle })
        let lines = owner.reports.compactMap { if case .output(_, let line) = $0 { line } else { nil } }
        #expect(lines == (0..<ActionSupervisor.loggedLinesPerSecond).map { "line \($0)" })
        // "line 50\n" ... "line 199\n": 50 of 8 bytes, 100 of 9.
        let dropped = ActionReport.outputDropped(pattern: "door", OutputLineSplitter.Dropped(lines: 150, bytes: 1300))
        #expect(owner.reports.suffix(2) == [dropped, .finished(pattern: "door", duress: false, status: .exited(0))])
        #expect(dropped.logMessage == "action door: (150 more lines, 1300 bytes dropped)")
        #expect(dropped.jsonFields?.map { "\($0.0)=\($0.1.plainText)" } == [
            "event=action-output-dropped", "pattern=door", "lines=150", "bytes=1300",
        ])
        #expect(dropped.journalFields.fields["GRIDLOCK_EVENT"] == "action-output-dropped")
    }
}

@Suite struct JournalFieldsTests {
    @Test("attempts, lockouts and action exits carry the documented fields; never the nodes")
    func reportsCarryTheirFields() {
        let accepted = LockReport.accepted(patternName: "door", nodes: 5).journalFields
        #expect(accepted.messageID == JournalCatalog.unlock)
        #expect(accepted.fields == [
            "GRIDLOCK_EVENT": "attempt", "GRIDLOCK_RESULT": "accepted", "GRIDLOCK_PATTERN": "door", "GRIDLOCK_NODES": "5",
        ])
        let lockout = LockReport.lockout(seconds: 30, failures: 5).journalFields
        #expect(lockout.messageID == JournalCatalog.lockout)
        #expect(lockout.fields["GRIDLOCK_LOCKOUT_SECONDS"] == "30")
        #expect(lockout.fields["GRIDLOCK_FAILURES"] == "5")
        let exit = ActionReport.finished(pattern: "door", duress: false, status: .signaled(9)).journalFields
        #expect(exit.messageID == JournalCatalog.actionExit)
        #expect(exit.fields == ["GRIDLOCK_EVENT": "action", "GRIDLOCK_PATTERN": "door", "GRIDLOCK_ACTION_STATUS": "137"])
        let ids = [JournalCatalog.start, JournalCatalog.stop, JournalCatalog.attempt, JournalCatalog.unlock,
                   JournalCatalog.lockout, JournalCatalog.lockoutEnded, JournalCatalog.strokeCancelled,
                   JournalCatalog.enrollment, JournalCatalog.duress, JournalCatalog.actionExit, JournalCatalog.action,
                   JournalCatalog.touchDevice, JournalCatalog.display]
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) && $0 == $0.lowercased() })
    }
}
