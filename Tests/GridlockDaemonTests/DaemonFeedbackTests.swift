import Foundation
import GridlockCore
import GridlockDisplay
import GridlockInput
@testable import GridlockEvdev
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// The daemon's real loop with a fake touchscreen (over a pipe) and a fake buzzer: which
/// tones are written, in which order, and that each step lasts at least its time (the
/// loop's deadline ends it, never early).
@Suite("the daemon's sounds, with a fake beeper", .serialized)
final class DaemonFeedbackTests {
    let directory: String
    let touchEnvironment = FakeEnvironment()
    let beeperEnvironment = FakeBeeperEnvironment()
    let logs = LogLines()
    static let frame = Size(width: 800, height: 480)
    var wakeUps = WakeUps()

    init() throws {
        directory = try makeTemporaryDirectory()
        try Directory.create("\(directory)/input")
        try Directory.create("\(directory)/sound")
        touchEnvironment.nodes["\(directory)/input/event0"] = try deviceFixture("ft5406-multitouch")
        beeperEnvironment.nodes["\(directory)/sound/event1"] = FakeBeeperEnvironment.speaker
    }

    deinit { removeDirectory(directory) }

    func config(schedule: LockoutSchedule = .android) throws -> GridlockConfig {
        var config = try ReplayTests.config(exec: ["/bin/true"])
        config.lockout.schedule = schedule
        config.lockout.stateFile = "\(directory)/attempts"
        config.feedback.errorDuration = .milliseconds(400)
        config.feedback.successDuration = .milliseconds(50)
        config.feedback.sounds.lockout = [ToneStep(hertz: 440, duration: .milliseconds(300))]
        return config
    }

    /// Runs the daemon while `stroke` is drawn one touch frame at a time, until `stopWhen`
    /// has held and then the next silence is written (the sound it caused has ended), or,
    /// given `linger`, until that long after `stopWhen` held. With `pacedByTicks` each frame
    /// after the first is delivered when the tick of the one before has ended (its silence
    /// written), as a finger slower than a tick would draw; so however loaded the machine
    /// is, no frame and no verdict can cut a tick short. Without it, all frames at once.
    @discardableResult
    func run(
        config: GridlockConfig, stroke: [Int], linger: Duration? = nil, pacedByTicks: Bool = true,
        stopWhen: @escaping (Daemon.Outcome) -> Bool
    ) throws -> FakeToneWriter? {
        let loop = try EventLoop()
        let touch = try EvdevTouchSource(
            settings: .init(selector: .auto, directory: "\(directory)/input"), frame: Self.frame, rotation: .none,
            now: MonotonicClock.now(), environment: touchEnvironment, log: logs.log)
        let beeper = try BeeperSource(
            settings: .init(selector: .auto, directory: "\(directory)/sound"), now: MonotonicClock.now(),
            environment: beeperEnvironment, log: logs.log)
        let parts = DaemonParts(
            loop: loop, output: NullOutput(size: Self.frame), touch: touch,
            supervisor: ActionSupervisor(loop: loop, mode: config.action.mode), state: StateFile(path: config.lockout.stateFile),
            beeper: beeper)
        let daemon = try Daemon(options: .init(configPath: "\(directory)/unused.conf"), config: config, parts: parts)
        let end = loop.deadline("test end") { _ in daemon.stop() }
        var stopAtSilence = false
        daemon.observe = { outcome in
            guard stopWhen(outcome) else { return }
            if let linger { end.due = MonotonicClock.now() + linger } else { stopAtSilence = true }
        }
        loop.deadline("test limit") { _ in
            Issue.record("the daemon did not finish within 10 s")
            daemon.stop()
        }.due = MonotonicClock.now() + .seconds(10)

        let device = try #require(touchEnvironment.opened.last)
        var frames: [[EvdevReadResult]] = [[]]
        for event in try DaemonLoopTests.strokeEvents(through: stroke, layout: config.gridLayout(frame: Self.frame)) {
            frames[frames.count - 1].append(event)
            if case .event(let e) = event, e.type == InputCodes.EV_SYN { frames.append([]) }
        }
        var waiting = frames.filter { !$0.isEmpty }
        if pacedByTicks, let writer = beeperEnvironment.opened.last {
            device.deliver(waiting.removeFirst())
            var lastPitch = 0
            writer.onSound = { hertz in
                defer { lastPitch = hertz }
                if stopAtSilence, hertz == 0 { daemon.stop() }
                guard hertz == 0, lastPitch == FeedbackSounds.standard.tick.first?.hertz, !waiting.isEmpty else { return }
                device.deliver(waiting.removeFirst())
            }
        } else {
            for frame in waiting { device.deliver(frame) }
        }
        #expect(daemon.run() == 0)
        wakeUps = daemon.wakeUps
        return beeperEnvironment.opened.last
    }

    /// Each tone lasted at least `steps`' times: (pitch, shortest time until the next write).
    func expectSteps(_ writer: FakeToneWriter, _ steps: [(Int, Duration?)]) {
        // The first write is the silence on taking the beeper.
        let steps = [(0, nil)] + steps
        #expect(writer.pitches == steps.map(\.0))
        for (index, (pitch, shortest)) in steps.enumerated() where index + 1 < writer.tones.count {
            guard let shortest else { continue }
            let lasted = writer.tones[index + 1].at.duration(since: writer.tones[index].at)
            #expect(lasted >= shortest, "\(pitch) Hz lasted \(lasted), less than \(shortest)")
        }
    }

    @Test("the right pattern: a tick for each of its five nodes, then the rising pair, then silence")
    func ticksThenSuccess() throws {
        let writer = try #require(try run(config: try config(), stroke: [1, 2, 3, 6, 9]) { outcome in
            if case .lock(.accepted) = outcome { true } else { false }
        })
        let tick: [(Int, Duration?)] = [(2000, .milliseconds(15)), (0, nil)]
        expectSteps(writer, tick + tick + tick + tick + tick + [(1047, .milliseconds(90)), (1568, .milliseconds(140)), (0, nil)])
        // Every step ended by the loop's deadline: 5 ticks, 2 steps of the pair.
        #expect(wakeUps.byCause["deadline beeper", default: 0] >= 7)
        #expect(wakeUps.byCause[WakeUps.earlyTimer] == nil)
    }

    @Test("a wrong pattern that locks out: ticks, the low tone, then the lockout tone when the lockout starts")
    func wrongThenLockout() throws {
        var lockoutConfig = try config(schedule: LockoutSchedule(text: "60"))
        // The wrong tone's 350 ms are timed from its write, after the frame; the error
        // display's from the lift. A display far longer than the tone keeps a slow frame
        // on a loaded machine from letting the lockout cut the tone short.
        lockoutConfig.feedback.errorDuration = .milliseconds(1500)
        let writer = try #require(try run(
            config: lockoutConfig, stroke: [1, 4, 7, 8]
        ) { outcome in
            if case .lock(.lockout) = outcome { true } else { false }
        })
        let tick: [(Int, Duration?)] = [(2000, .milliseconds(15)), (0, nil)]
        // The wrong tone (350 ms) ends before the error display (1.5 s) does; then the lockout.
        expectSteps(writer, tick + tick + tick + tick + [(220, .milliseconds(350)), (0, nil), (440, .milliseconds(300)), (0, nil)])
    }

    @Test("sounds set to off: the buzzer is opened, silenced once, and never sounded")
    func soundsOff() throws {
        var config = try config()
        config.feedback.sounds = FeedbackSounds(tick: [], wrong: [], success: [], lockout: [])
        let writer = try #require(try run(config: config, stroke: [1, 2, 3, 6, 9], linger: .milliseconds(100), pacedByTicks: false) { outcome in
            if case .lock(.accepted) = outcome { true } else { false }
        })
        #expect(writer.pitches == [0])  // only the silence on taking it
        #expect(wakeUps.byCause["deadline beeper"] == nil)
    }

    @Test("no beeper device: the daemon runs silent, and no beeper deadline ever wakes it")
    func noDevice() throws {
        beeperEnvironment.nodes = [:]
        try run(config: try config(), stroke: [1, 2, 3, 6, 9], linger: .milliseconds(300), pacedByTicks: false) { outcome in
            if case .lock(.accepted) = outcome { true } else { false }
        }
        #expect(beeperEnvironment.opened.isEmpty)
        #expect(logs.contains("no beeper"))
        #expect(wakeUps.byCause["deadline beeper"] == nil)
    }
}

@Suite struct VerifierBeeperTests {
    @Test("the verifier alone (display and touch none) opens no beeper for auto, the face plays the sounds; a path named, or a panel of its own, keeps the choice")
    func verifierAloneLeavesTheBeeperToTheFace() {
        var config = GridlockConfig()
        #expect(DaemonParts.beeperChoice(for: config) == .auto, "gridlockd with a panel of its own")
        config.display.backend = .off
        #expect(DaemonParts.beeperChoice(for: config) == .auto, "a touchscreen of its own still")
        config.touch.backend = .off
        #expect(DaemonParts.beeperChoice(for: config) == .off)
        config.feedback.beeper = .path("/dev/input/by-path/platform-pcspkr-event-spkr")
        #expect(DaemonParts.beeperChoice(for: config) == .path("/dev/input/by-path/platform-pcspkr-event-spkr"))
    }

    @Test("gridlockd is the verifier alone unless a display, a touchscreen, a beeper path or a benchmark needs a panel of its own")
    func whatNeedsThePanelInTheDaemonsProcess() {
        var config = GridlockConfig()
        #expect(Daemon.needsItsOwnPanel(config, role: .lock), "the default: a DRM display and evdev touch")
        config.display.backend = .off
        #expect(Daemon.needsItsOwnPanel(config, role: .lock), "a touchscreen of its own")
        config.touch.backend = .off
        #expect(!Daemon.needsItsOwnPanel(config, role: .lock))
        #expect(Daemon.needsItsOwnPanel(config, role: .benchStartup), "the benchmark draws")
        config.feedback.beeper = .off
        #expect(!Daemon.needsItsOwnPanel(config, role: .lock))
        config.feedback.beeper = .path("/dev/input/by-path/platform-pcspkr-event-spkr")
        #expect(Daemon.needsItsOwnPanel(config, role: .lock), "a buzzer of its own, opened through libevdev")
    }
}
