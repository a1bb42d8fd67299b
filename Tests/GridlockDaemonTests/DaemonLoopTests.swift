import Foundation
import GridlockCore
import GridlockDisplay
import GridlockRendering
import GridlockInput
@testable import GridlockEvdev
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// gridlockd's real loop (`Daemon.run`, its `EventLoop`, the action supervisor, the
/// state file) driven by the fake evdev devices of `EvdevTouchSourceTests` over real
/// pipes, presenting real frames as PNG files that are checked by sampling pixels.
@Suite("the daemon's loop, with fake devices", .serialized)
final class DaemonLoopTests {
    let directory: String
    let environment = FakeEnvironment()
    let logs = LogLines()
    static let frame = Size(width: 800, height: 480)

    init() throws {
        directory = try makeTemporaryDirectory()
        try Directory.create("\(directory)/input")
        environment.nodes["\(directory)/input/event0"] = try deviceFixture("ft5406-multitouch")
    }

    deinit { removeDirectory(directory) }

    func config(schedule: LockoutSchedule = .android) throws -> GridlockConfig {
        var config = try ReplayTests.config(exec: ["/bin/echo", "relay", "pulsed"])
        config.lockout.schedule = schedule
        config.lockout.stateFile = "\(directory)/attempts"
        config.feedback.errorDuration = .milliseconds(50)
        config.feedback.successDuration = .milliseconds(50)
        return config
    }

    struct Run {
        var outcomes: [Daemon.Outcome] = []
        var scenes: [Scene] = []
        var status: Int32 = -1
        var wakeUps = WakeUps()
    }

    /// When a run ends besides `until`: never a time that a loaded machine could outrun.
    enum Ending {
        /// Only `until` (or the 10 s limit, a failure) ends it.
        case outcome
        /// Once the whole stroke has been read and handled: for strokes that must change nothing.
        case strokeRead
        /// Once a frame shows a scene this says yes to.
        case scene((Scene) -> Bool)
        /// After this long: only for "nothing happens" windows, whose outcome a slow machine
        /// cannot turn (it can only leave less to see).
        case quietFor(Duration)
    }

    /// Runs a daemon on the fake touchscreen until `until` says so or `ending` comes (else
    /// 10 s is a failure), after `stroke` was delivered to the device.
    /// Its state is `saved` in the config's state file, or `state` as gridlockd opened it.
    /// With `hooksWritten`, `until` also waits for those hooks (`envHook`) to have written
    /// their files: the stop would stop them too.
    func runDaemon(
        config: GridlockConfig, saved: SavedState = .clean, state: StateFile? = nil,
        wallClock: @escaping () -> WallTime = SystemWallClock.now,
        frames: String, stroke: [Int], lift: Bool = true, hooksWritten: [HookEvent] = [],
        ending: Ending = .outcome, until done: @escaping ([Daemon.Outcome]) -> Bool = { _ in false }
    ) throws -> Run {
        try Directory.create(frames)
        let loop = try EventLoop()
        let touch = try EvdevTouchSource(
            settings: .init(selector: .auto, directory: "\(directory)/input"), frame: Self.frame, rotation: .none,
            now: MonotonicClock.now(), environment: environment, log: logs.log)
        let parts = DaemonParts(
            loop: loop, output: PNGOutput(size: Self.frame, directory: frames), touch: touch,
            supervisor: ActionSupervisor(loop: loop, mode: config.action.mode),
            state: state ?? StateFile(path: config.lockout.stateFile, saved: saved), wallClock: wallClock)
        let daemon = try Daemon(options: .init(configPath: "\(directory)/unused.conf"), config: config, parts: parts)
        var run = Run()
        var closedFiles: Set<String> = []
        let finished = {
            done(run.outcomes) && hooksWritten.allSatisfy { closedFiles.contains("\($0.rawValue).env") }
        }
        let hookFiles = try Inotify()
        if !hooksWritten.isEmpty {
            try hookFiles.watch(directory: directory, mask: UInt32(bitPattern: IN_CLOSE_WRITE))
            try loop.watch(hookFiles.fileDescriptor, as: "test hook files") {
                for event in (try? hookFiles.readEvents()) ?? [] { closedFiles.insert(event.name) }
                if finished() { daemon.stop() }
            }
        }
        defer { loop.unwatch(hookFiles.fileDescriptor) }
        daemon.observe = { outcome in
            run.outcomes.append(outcome)
            if finished() { daemon.stop() }
        }
        daemon.screen.onPresent = { scene in
            run.scenes.append(scene)
            if case .scene(let wanted) = ending, wanted(scene) { daemon.stop() }
        }
        loop.deadline("test limit") { _ in
            Issue.record("the daemon did not finish within 10 s; outcomes so far: \(run.outcomes)")
            daemon.stop()
        }.due = MonotonicClock.now() + .seconds(10)
        let end = loop.deadline("test end") { _ in daemon.stop() }
        if case .quietFor(let window) = ending { end.due = MonotonicClock.now() + window }
        let device = try #require(environment.opened.last)
        if case .strokeRead = ending {
            // Due at once: it fires in the round that read the last event, whose events the
            // daemon handles before the loop looks at `stop()`.
            device.onDrained = { end.due = MonotonicClock.now() }
        }
        let events = try Self.strokeEvents(through: stroke, layout: config.gridLayout(frame: Self.frame))
        // Without the lift: the finger stays down (a stuck contact).
        device.deliver(lift ? events : Array(events.dropLast(3)))
        run.status = daemon.run()
        run.wakeUps = daemon.wakeUps
        return run
    }

    /// Protocol B events of one finger through the centres of `nodes` (1-based), 10 ms apart.
    static func strokeEvents(through nodes: [Int], layout: GridLayout) throws -> [EvdevReadResult] {
        var time = MonotonicClock.now()
        var events: [EvdevReadResult] = []
        func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            events.append(.event(InputEvent(time: time, type: type, code: code, value: value)))
        }
        for (index, node) in nodes.enumerated() {
            let centre = layout.center(of: node - 1)
            if index == 0 {
                add(InputCodes.EV_KEY, InputCodes.BTN_TOUCH, 1)
                add(InputCodes.EV_ABS, InputCodes.ABS_MT_SLOT, 0)
                add(InputCodes.EV_ABS, InputCodes.ABS_MT_TRACKING_ID, 7)
            }
            add(InputCodes.EV_ABS, InputCodes.ABS_MT_POSITION_X, Int32(centre.x))
            add(InputCodes.EV_ABS, InputCodes.ABS_MT_POSITION_Y, Int32(centre.y))
            add(InputCodes.EV_SYN, InputCodes.SYN_REPORT, 0)
            time = time + .milliseconds(10)
        }
        add(InputCodes.EV_ABS, InputCodes.ABS_MT_TRACKING_ID, -1)
        add(InputCodes.EV_KEY, InputCodes.BTN_TOUCH, 0)
        add(InputCodes.EV_SYN, InputCodes.SYN_REPORT, 0)
        return events
    }

    static func finishedAction(_ outcomes: [Daemon.Outcome]) -> Bool {
        outcomes.contains { if case .action(.finished) = $0 { true } else { false } }
    }

    @Test("a stroke in: the right pattern is drawn in the success colour and the action runs")
    func strokeInFrameAndActionOut() throws {
        let config = try config()
        let frames = "\(directory)/frames"
        let run = try runDaemon(config: config, frames: frames, stroke: [1, 2, 3, 6, 9], until: Self.finishedAction)
        #expect(run.status == 0)
        #expect(run.outcomes == [
            .lock(.accepted(patternName: "door", nodes: 5)),
            .action(.output(pattern: "door", line: "relay pulsed")),
            .action(.finished(pattern: "door", duress: false, status: .exited(0))),
        ])
        // The whole stroke arrived in one read: one frame for it, not one per touch frame.
        #expect(Array(run.scenes.map(\.message).prefix(3)) == [.prompt, .verifying, .success])
        let success = try #require(run.scenes.lastIndex { $0.message == .success })
        let picture = try PNGFile.read(PNGOutput.framePath(in: frames, index: success))
        let layout = config.gridLayout(frame: Self.frame)
        for node in [1, 2, 3, 6, 9] {
            let centre = layout.center(of: node - 1)
            #expect(picture.pixel(x: Int(centre.x), y: Int(centre.y)) == config.theme.success, "node \(node)")
        }
        let idle = layout.center(of: 4)
        #expect(picture.pixel(x: Int(idle.x), y: Int(idle.y)) != config.theme.success)
        // Nothing polled: every wake-up had a cause, and no timer fired with nothing due.
        #expect(run.wakeUps.byCause[WakeUps.earlyTimer] == nil)
        #expect(run.wakeUps.byCause[WakeUps.interrupted] == nil)
        #expect(run.wakeUps.byCause["touch", default: 0] >= 1)
    }

    @Test("a lockout is persisted and still holds after a restart: the right pattern is refused")
    func lockoutAcrossARestart() throws {
        let config = try config(schedule: LockoutSchedule(text: "60"))
        let first = try runDaemon(config: config, frames: "\(directory)/first", stroke: [1, 4, 7, 8, 9]) { outcomes in
            outcomes.contains { if case .lock(.lockout) = $0 { true } else { false } }
        }
        #expect(first.outcomes == [.lock(.rejected(nodes: 5, failures: 1)), .lock(.lockout(seconds: 60, failures: 1))])

        // A new daemon, as after a power cut: it starts from what the first one wrote.
        let restored = StateFile.restore(from: config.lockout.stateFile, schedule: config.lockout.schedule)
        #expect(restored.attempts.failures == 1)
        let second = try runDaemon(
            config: config, saved: restored, frames: "\(directory)/second", stroke: [1, 2, 3, 6, 9],
            ending: .strokeRead)
        #expect(!second.outcomes.contains(.lock(.accepted(patternName: "door", nodes: 5))))
        #expect(second.scenes.first.map { if case .lockedOut = $0.message { true } else { false } } == true)
    }

    @Test("the lockout message counts down once a second; before and after it, the lock screen's timer never wakes the loop")
    func lockoutCountdownWakesOncePerSecondOnly() throws {
        let config = try config(schedule: LockoutSchedule(text: "2,0"))
        let run = try runDaemon(config: config, frames: "\(directory)/frames", stroke: [1, 4, 7, 8, 9]) { outcomes in
            outcomes.contains(.lock(.lockoutEnded))
        }
        #expect(run.outcomes == [
            .lock(.rejected(nodes: 5, failures: 1)), .lock(.lockout(seconds: 2, failures: 1)), .lock(.lockoutEnded),
        ])
        let countdown = run.scenes.compactMap { if case .lockedOut(let s) = $0.message { s } else { nil } }
        #expect(countdown == [2, 1])
        // One wake-up ends the error display, one shows "1", one ends the lockout: no other.
        #expect(run.wakeUps.byCause["deadline lock screen", default: 0] == 3)
        #expect(run.wakeUps.byCause[WakeUps.earlyTimer] == nil)

        // Not locked out (and nothing touched): no timer wakes it at all for a second.
        let idle = try runDaemon(
            config: config, saved: StateFile.restore(from: config.lockout.stateFile, schedule: config.lockout.schedule),
            frames: "\(directory)/idle", stroke: [],
            ending: .quietFor(.seconds(1)))
        #expect(idle.outcomes == [])
        #expect(idle.wakeUps.byCause["deadline lock screen", default: 0] == 0)
        #expect(idle.wakeUps.byCause.keys.filter { $0.hasPrefix("deadline") && $0 != "deadline test end" } == [])
    }

    @Test("fail closed: with a state file that cannot be written, the right pattern is not checked")
    func unwritableStateFailsClosed() throws {
        var config = try config()
        // A regular file where the state directory should be: every write fails (ENOTDIR), even as root.
        try AtomicFile.write(Array("not a directory\n".utf8), to: "\(directory)/state", mode: 0o600)
        config.lockout.stateFile = "\(directory)/state/attempts"
        config.hooks = [.tamper: envHook(.tamper)]
        let run = try runDaemon(
            config: config, frames: "\(directory)/frames", stroke: [1, 2, 3, 6, 9], hooksWritten: [.tamper]
        ) { $0.contains(.lock(.notRecorded(nodes: 5))) }
        #expect(run.outcomes == [.lock(.notRecorded(nodes: 5))])
        #expect(run.scenes.contains { $0.message == .cannotRecord })
        #expect(!run.scenes.contains { $0.message == .success })
        let tamper = try #require(hookEnvironment(.tamper), "[on tamper] ran")
        #expect(tamper["GRIDLOCK_REASON"] == "attempts-not-recorded")
    }

    @Test("gridlockd and gridlock replay give the same outcomes for the same recording, duress included")
    func daemonAndReplayAgree() throws {
        var config = try config()
        config.patterns[0].duress = true
        config.patterns[0].duressExec = ["/bin/echo", "silent alarm"]
        // Played twice as fast: the real-time daemon run takes 1.6 s instead of 3.2.
        var recording = try ReplayTests.recording("demo-wrong-then-right")
        for index in recording.events.indices {
            recording.events[index].time = Instant(nanoseconds: recording.events[index].time.nanoseconds / 2)
        }

        var replayed: [Daemon.Outcome] = []
        var options = ReplayRunner.Options(config: config, recording: recording, framesDirectory: nil) { _ in }
        options.observe = { replayed.append($0) }
        try ReplayRunner(options).run()

        let loop = try EventLoop()
        let pipeline = try TouchPipeline(device: recording.device, calibration: .identity, rotation: .none, frame: Self.frame)
        let parts = DaemonParts(
            loop: loop, output: NullOutput(size: Self.frame),
            touch: RecordingTouchSource(recording: recording, pipeline: pipeline, start: MonotonicClock.now()),
            supervisor: ActionSupervisor(loop: loop, mode: config.action.mode))
        let daemon = try Daemon(options: .init(configPath: "\(directory)/unused.conf"), config: config, parts: parts)
        var live: [Daemon.Outcome] = []
        daemon.observe = { outcome in
            live.append(outcome)
            if live.count == replayed.count { daemon.stop() }
        }
        loop.deadline("test limit") { _ in daemon.stop() }.due = MonotonicClock.now() + .seconds(10)
        #expect(daemon.run() == 0)

        #expect(replayed == [
            .lock(.rejected(nodes: 4, failures: 1)),
            .lock(.accepted(patternName: "door", nodes: 5)),
            .action(.duressUsed(pattern: "door")),
            .action(.finished(pattern: "door", duress: true, status: .exited(0))),
            .action(.output(pattern: "door", line: "relay pulsed")),
            .action(.finished(pattern: "door", duress: false, status: .exited(0))),
        ])
        #expect(live == replayed)
    }
}
