import Foundation
import GridlockCore
import GridlockInput
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// `gridlock replay` is the daemon on a recording: its `[on EVENT]` hooks run as real
/// processes, it waits for them before it ends, and a hook with `timeout=0` cannot keep it
/// from ending. Only order is asserted: a hook's file exists when the replay returns.
@Suite struct ReplayHookTests {
    let directory: String

    init() throws {
        directory = try makeTemporaryDirectory()
    }

    func hook(_ event: HookEvent, _ script: String, timeout: Duration? = .seconds(10)) -> HookConfig {
        HookConfig(argv: ["/bin/sh", "-c", script], timeout: timeout, source: SourceLocation(file: "test", line: 1))
    }

    func written(_ name: String) -> String? { try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8) }

    func replay(_ config: GridlockConfig, _ recording: String = "protocol-b-1-2-3-6-9", limit: Duration? = nil)
        throws -> (lines: [String], journal: [String])
    {
        var lines: [String] = []
        var options = ReplayRunner.Options(config: config, recording: try ReplayTests.recording(recording), framesDirectory: nil) {
            lines.append($0)
        }
        if let limit { options.untimedHookLimit = limit }
        let recorder = JournalRecorder()
        try Journal.$recorder.withValue(recorder) { try ReplayRunner(options).run() }
        return (lines, recorder.messages)
    }

    @Test("start, unlock and stop hooks run with the daemon's facts, and the replay waits for a slow one")
    func hooksRunAndAreWaitedFor() throws {
        var config = try ReplayTests.config()
        config.hooks = [
            .start: hook(.start, "env > \(directory)/start.env"),
            // Still running when the recording and its timers are done: the replay waits.
            .unlock: hook(.unlock, "sleep 0.3; env > \(directory)/unlock.env"),
            .stop: hook(.stop, "env > \(directory)/stop.env"),
        ]
        let run = try replay(config)
        #expect(run.lines.contains { $0.contains(#""result":"accepted""#) })
        #expect(written("start.env")?.contains("GRIDLOCK_EVENT=start") == true)
        let unlock = try #require(written("unlock.env"), "the replay ended before its [on unlock] hook")
        #expect(unlock.contains("GRIDLOCK_EVENT=unlock") && unlock.contains("GRIDLOCK_PATTERN=door"))
        #expect(written("stop.env")?.contains("GRIDLOCK_EVENT=stop") == true)
        #expect(run.journal.contains("hook [on unlock]: finished: exited with status 0"))
    }

    @Test("a hook with timeout=0 is stopped at the replay's limit, so the replay ends")
    func anUntimedHookCannotHoldTheReplay() throws {
        var config = try ReplayTests.config()
        config.hooks = [.unlock: hook(.unlock, "echo $$ > \(directory)/hook.pid; exec sleep 600", timeout: nil)]
        let run = try replay(config, limit: .seconds(1))
        #expect(run.lines.contains { $0.contains(#""result":"accepted""#) })
        #expect(run.journal.contains {
            $0.hasPrefix("hook [on unlock]: ran past the 1 s a replay gives a hook with timeout=0: SIGTERM sent")
        }, "\(run.journal)")
        let pid = try #require(written("hook.pid").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(kill(pid, 0) != 0, "the hook's sleep outlived the replay")
    }

    @Test("with a state file the replay counts failures as gridlockd does, and the next replay goes on counting")
    func aStateFileCarriesFailuresAcrossReplays() throws {
        var config = try ReplayTests.config()
        config.lockout.schedule = .custom([.zero, .zero, .zero, .zero, .seconds(120)])
        var lines: [String] = []
        var options = ReplayRunner.Options(
            config: config, recording: try ReplayTests.recording("lockout-five-wrong"), framesDirectory: nil) { lines.append($0) }
        options.statePath = "\(directory)/attempts"
        try ReplayRunner(options).run()
        #expect(written("attempts")?.contains("failures=5") == true, "\(written("attempts") ?? "no file")")
        // The lockout ran out with the first replay's timers; the count did not.
        lines = []
        var next = options
        next.events = RecordedEventList(try ReplayTests.recording("demo-wrong-then-right"))
        try ReplayRunner(next).run()
        #expect(lines.first { $0.contains(#""result":"rejected""#) }?.contains(#""failures":6"#) == true, "\(lines)")
        // The sixth failure locks out again (120 s): the right pattern after it is not checked.
        #expect(!lines.contains { $0.contains(#""result":"accepted""#) })
        #expect(written("attempts")?.contains("failures=6") == true)

        // Without a state file every replay starts from none.
        lines = []
        next.statePath = nil
        next.events = RecordedEventList(try ReplayTests.recording("demo-wrong-then-right"))
        try ReplayRunner(next).run()
        #expect(lines.first { $0.contains(#""result":"rejected""#) }?.contains(#""failures":1"#) == true, "\(lines)")
        #expect(lines.contains { $0.contains(#""result":"accepted""#) })
    }
}
