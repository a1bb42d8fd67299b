import GridlockCore
import GridlockDisplay
import GridlockInput
import GridlockRendering
import LinuxSys
import Testing
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// One composition: parts start in order and stop in reverse, once, whether the start
/// failed or the program stopped; quiet-saying parts stop together and are waited for.
@Suite struct PartGroupTests {
    /// What each part did, in order.
    final class Log {
        var lines: [String] = []
    }

    /// An output that says when it is closed.
    final class ClosingOutput: DisplayOutput {
        let size = Size(width: 320, height: 240)
        let log: Log
        init(log: Log) { self.log = log }
        func present(_ buffer: ShadowBuffer, damage: Damage) throws(DisplayError) {}
        func close() { log.lines.append("display closed") }
    }

    @Test("parts stop in the reverse order of their start, once")
    func reverseOrderOnce() {
        let log = Log()
        let group = PartGroup()
        for name in ["display", "touch", "socket"] { group.add(name) { log.lines.append("\(name) stopped") } }
        group.stopAll(on: nil)
        group.stopAll(on: nil)
        #expect(log.lines == ["socket stopped", "touch stopped", "display stopped"])
        #expect(group.isStopped)
    }

    @Test("a step that fails stops what started before it, in reverse, and the error goes on")
    func failedStepStopsTheStarted() {
        let log = Log()
        let group = PartGroup()
        group.add("display") { log.lines.append("display stopped") }
        group.add("touch") { log.lines.append("touch stopped") }
        #expect(throws: DaemonError.self) {
            try group.step { () throws(DaemonError) -> Int in throw .touch("/dev/input/event3: gone") }
        }
        #expect(log.lines == ["touch stopped", "display stopped"])
    }

    @Test("quiet-saying parts stop together, then are waited for before the parts started before them")
    func quietPartsAreWaitedFor() throws {
        let loop = try EventLoop()
        let log = Log()
        let group = PartGroup()
        var actionRunning = true
        group.add("display") { log.lines.append("display closed") }
        group.add("action", isQuiet: { !actionRunning }) {
            log.lines.append("action told to end")
            // It ends a turn of the loop later, as a child reaped on SIGCHLD would.
            loop.deadline("action ends") { _ in
                log.lines.append("action ended")
                actionRunning = false
            }.due = loop.now()
        }
        group.add("hooks", isQuiet: { true }) { log.lines.append("hooks told to end") }
        group.add("beeper") { log.lines.append("beeper silent") }
        group.stopAll(on: loop)
        #expect(log.lines == ["beeper silent", "hooks told to end", "action told to end", "action ended", "display closed"])
    }

    @Test("a part that never becomes quiet is waited for up to the stop limit, said in the journal, and the rest still stop")
    func stopLimitEndsTheWait() throws {
        let loop = try EventLoop()
        let log = Log()
        let group = PartGroup(stopLimit: .milliseconds(20))
        group.add("display") { log.lines.append("display closed") }
        group.add("action", isQuiet: { false }) { log.lines.append("action told to end") }
        let recorder = JournalRecorder()
        Journal.$recorder.withValue(recorder) { group.stopAll(on: loop) }
        #expect(log.lines == ["action told to end", "display closed"])
        #expect(recorder.messages.contains { $0.hasPrefix("stopping: action still running after") })
    }

    @Test("a daemon whose start fails after its parts were built gives the display back: its close is called")
    func failedDaemonStartClosesTheDisplay() throws {
        let log = Log()
        let loop = try EventLoop()
        var config = try ReplayTests.config(exec: ["/bin/true"])
        config.theme.font = .family("No Such Family Anywhere")
        let parts = DaemonParts(
            loop: loop, output: ClosingOutput(log: log), touch: NoTouchSource(),
            supervisor: ActionSupervisor(loop: loop, mode: config.action.mode))
        #expect(throws: DaemonError.self) {
            _ = try Daemon(options: .init(configPath: "/nonexistent/gridlock.conf"), config: config, parts: parts)
        }
        #expect(log.lines == ["display closed"])
        #expect(parts.group.isStopped)
    }
}
