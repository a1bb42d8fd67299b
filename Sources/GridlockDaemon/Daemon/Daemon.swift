import GridlockConfiguration
import GridlockCore
import GridlockInput
import LinuxSys

/// `gridlockd`: the wiring between the parts it is given (`DaemonParts`) and the lock
/// screen's `LockService`, on one `EventLoop`. With nothing on screen changing and no
/// action running it sleeps in the kernel with no timeout (the systemd watchdog, when
/// enabled, is the one periodic wake-up).
public final class Daemon {
    public struct Options {
        public var configPath: String
        /// What this run is for (the lock, enrollment, a benchmark); see `Role`.
        public var role: Role = .lock

        public init(configPath: String, role: Role = .lock) {
            self.configPath = configPath
            self.role = role
        }
    }

    /// What the lock reported, as the journal gets it; tests compare these with a replay's.
    public enum Outcome: Equatable, Sendable {
        case lock(LockReport)
        case action(ActionReport)
        /// A benchmark role's figures (`Role.benchStartup`, `Role.benchStroke`).
        case measured(Measurement)
    }

    let options: Options
    var config: GridlockConfig
    /// Each drawn pattern's check, made under the configuration in force when it ends.
    private(set) var checks: PatternChecks!
    package let loop: EventLoop
    let touch: TouchSource
    let supervisor: ActionSupervisor
    /// `[on EVENT]` programs beside the lock, and when a vanished device is tamper.
    let alarms: DoorAlarms
    /// What hooks and actions left orphaned, when this process adopts it (gridlockd).
    let strays: StrayProcesses?
    /// Schedules and uses between a matching hash and the lock machine.
    let gate: PatternGate
    package let service: LockService
    /// What the panel shows (the service's screen): the daemon tells it of blanking,
    /// hand-over and sizes; the service hands it scenes.
    public let screen: any LockPresenter
    var systemd: ServiceManagerLink
    private let clock: () -> Instant
    private let timers: DaemonTimers
    /// The beeper's sounds; nil: silent.
    let sounds: (any LockSounds)?
    private var blanker: ScreenBlanker
    private var latency = LatencyMeter()
    /// Events for the lock machine, handled after the round of the loop that produced
    /// them; a touch carries the kernel's time of its input frame.
    var pending: [(event: LockEvent, time: Instant?)] = []
    /// Never goes back, so the machine sees time as monotonic even when a touch's kernel
    /// time is older than a deadline that fired in the same round.
    var lastTime: Instant
    /// `[session]`: lock faces in the user's session (`Daemon+Session.swift`).
    var session: SessionServer?
    /// Every part, in the order it started: the stop ends them in reverse.
    let group: PartGroup
    var stopping = false
    /// SIGHUP's configuration, judged off the loop.
    let reloader: ConfigReloader
    /// Called on the loop once a reload was taken up or refused (tests wait for it).
    public var onReloaded: (() -> Void)?
    /// `[action] mode=handover`: the display and the touch grab belong to the action now.
    var handedOver = false
    /// Receives every outcome the journal is told of.
    public var observe: ((Outcome) -> Void)?
    /// The confirmed pattern, once an enrollment (`Role.enroll`) succeeded.
    public private(set) var enrolledPattern: Pattern?

    /// A failure here stops `parts.group` (the console gets its picture back) before it throws.
    public init(options: Options, config: GridlockConfig, parts: DaemonParts) throws(DaemonError) {
        self.options = options
        self.config = config
        loop = parts.loop
        touch = parts.touch
        supervisor = parts.supervisor
        systemd = ServiceManagerLink(parts.notifier)
        systemd.drawsNothing = config.display.backend == .off && !options.role.isBenchmark
        clock = parts.clock
        lastTime = parts.clock()
        reloader = ConfigReloader(loop: parts.loop, path: options.configPath)
        group = parts.group
        let matcher = try group.step { () throws(DaemonError) in
            do {
                return PatternMatcher(config: config, hasher: try PatternHasher())
            } catch {
                throw .unsupported("\(error)")
            }
        }
        gate = PatternGate(config: config, state: parts.state, wallClock: parts.wallClock)
        let wallClock = parts.wallClock
        let hooks = HookSupervisor(
            loop: loop, hooks: options.role.guardsADoor ? config.hooks : [:],
            wallClock: { wallClock().epochSeconds })
        if case .replay(let limit) = options.role { hooks.untimedLimit = limit }
        alarms = DoorAlarms(hooks: hooks)
        strays = parts.adoptsOrphans
            ? StrayProcesses(loop: loop, ownedGroups: { [supervisor, alarms] in supervisor.processGroups + alarms.hooks.processGroups })
            : nil
        blanker = ScreenBlanker(timeout: config.display.blankAfter, now: lastTime)
        let makeScreen = parts.screen
        let clock = parts.clock
        screen = try group.step { () throws(DaemonError) in try makeScreen(config, options.role, clock) }
        if options.role.countsAttempts { Self.applyPendingReset(to: parts.state) }
        let machine = LockMachine(
            layout: config.gridLayout(frame: screen.size), settings: config.lockSettings, mode: options.role.machineMode,
            attempts: parts.state.saved.attempts)
        screen.coalescesFrames = true
        screen.predictsTip = options.role.predictsTip(config)
        service = LockService(machine: machine, screen: screen, stateFile: parts.state)
        timers = DaemonTimers(loop: loop, watchdogInterval: parts.watchdogInterval)
        sounds = parts.sounds(config.feedback.sounds)
        let verifier = parts.verifier ?? BackgroundVerifier(loop: parts.loop)
        checks = PatternChecks(matcher: matcher, minimumNodes: config.grid.minNodes, verifier: verifier) { [unowned self] match in
            pending.append((gate.admit(match), nil))
        }
        connect()
        if let listener = parts.sessionListener { attachSession(listener) }
        // After the builder's display, touch and socket; stopped before them, in reverse.
        // The three that run programs or hooks stop together and are waited for: a relay's
        // action is told to end in the same turn as the [on stop] hook starts.
        group.add("action", isQuiet: { [supervisor] in supervisor.isQuiet }) { [supervisor] in supervisor.stopAll() }
        group.add("hooks", isQuiet: { [alarms] in alarms.isQuiet }) { [alarms, touch] in alarms.stopping(device: touch.devicePath) }
        if let strays { group.add("stray processes", isQuiet: { strays.isQuiet }) { strays.stopAll() } }
        group.add("beeper") { [sounds] in sounds?.stop() }
        // A check in flight is answered `stopping`, then every connection closes.
        group.add("session server") { [unowned self] in session?.detach() }
    }

    /// Hands every source's news to the right handler; the loop calls these, nothing polls.
    private func connect() {
        service.shell = self
        supervisor.delegate = self
        loop.signalHandler = { [unowned self] in handle($0) }
        touch.attach(to: loop) { [unowned self] in accept($0, at: $1) }
        screen.attach(to: loop) { [unowned self] in handleOutputEvent($0) }
        timers.lock.onFire { [unowned self] _ in pending.append((.timerFired, nil)) }
        timers.tip.onFire { [unowned self] _ in screen.settleTip() }
        timers.blank.onFire { [unowned self] now in blankIfIdle(now: now) }
        timers.watchdog.onFire { [unowned self] _ in pingWatchdog() }
        timers.giveUp.onFire { [unowned self] _ in
            Journal.log(.warning, "nothing was enrolled in \(options.role.giveUpAfter?.components.seconds ?? 0) s; giving up")
            stopping = true
        }
    }

    var now: Instant { clock() }

    /// Runs until SIGTERM/SIGINT (or, enrolling, until a pattern is confirmed or the time
    /// is up); returns the exit status. Every way out passes through `shutdown()`.
    public func run() -> Int32 {
        Journal.log(
            .info,
            "\(options.role.journalName) starting: \(options.role.playsARecording ? "" : "display \(config.display.backend.rawValue), touch \(config.touch.backend.rawValue), ")grid \(config.grid.shape), \(config.patterns.count) pattern(s)",
            JournalFields(messageID: JournalCatalog.start, fields: ["GRIDLOCK_EVENT": "start", "GRIDLOCK_PATTERNS": String(config.patterns.count)]))
        if config.patterns.isEmpty, options.role.guardsADoor {
            Journal.log(.warning, "no [pattern] is enrolled: nothing can unlock; add one with gridlock enroll")
        }
        logClockTrust()
        service.start(at: now)
        afterRound()
        var status: Int32 = 0
        var strokeStart = (cpu: Int64(0), frames: 0)
        if options.role.isBenchmark {
            observe?(.measured(.firstFrame(at: loop.now(), memory: ProcessStatus.memory())))
            strokeStart = (ProcessStatus.cpuTimeNanoseconds(), screen.framesPresented)
            stopping = options.role == .benchStartup
        }
        timers.startWatchdog(now: now)
        timers.giveUp.due = options.role.giveUpAfter.map { now + $0 }
        do {
            try loop.run(until: { stopping }, afterEach: afterRound)
        } catch {
            Journal.log(.critical, "event loop: \(error)")
            status = 1
        }
        if options.role == .benchStroke {
            observe?(.measured(.stroke(
                cpu: .nanoseconds(ProcessStatus.cpuTimeNanoseconds() - strokeStart.cpu),
                frames: screen.framesPresented - strokeStart.frames)))
        }
        shutdown()
        return status
    }

    /// Asks the loop to end after the current round (tests; signals do it in production).
    public func stop() { stopping = true }

    /// How often the loop woke, and why (`SIGUSR1` logs it).
    public var wakeUps: WakeUps { loop.wakeUps }

    /// Every touch passes the blanker: the stroke that wakes a dark panel goes no further.
    private func accept(_ touch: TouchEvent, at time: Instant) {
        switch blanker.filter(touch, at: time) {
        case .forward:
            pending.append((.touch(touch), time))
        case .swallow:
            break
        case .wake:
            screen.setBlanked(false)
            Journal.log(.info, "panel woken by a touch")
        }
    }

    private func handleOutputEvent(_ event: OutputEvent) {
        switch event {
        case .none:
            break
        case .redrawAll:
            service.redraw(at: now)
        case .resized(let size):
            Journal.log(
                .notice,
                "display is now \(Int(size.width))x\(Int(size.height)) (logical), rotation \(screen.rotation.degrees)",
                JournalFields(messageID: JournalCatalog.display, fields: ["GRIDLOCK_EVENT": "display"]))
            touch.setFrame(size, rotation: screen.rotation)
            do {
                try service.resize(to: size, settings: config.lockSettings, layout: config.gridLayout(frame: size), at: now)
            } catch {
                Journal.log(.critical, "cannot draw at the new size: \(error)")
            }
        }
    }

    /// Handles the round's events in order, shows the result once, then brings descriptors
    /// and deadlines up to date.
    private func afterRound() {
        let strokeEnded = handlePending()
        presentFrame(strokeEnded: strokeEnded)
        if screen.framesPresented > 0, systemd.frameDrawn(onScreen: screen.isShowingFrames) {
            alarms.started(device: touch.devicePath)
            // Found damaged, deleted or older at start: the lock holds, but someone should look.
            if service.stateFile?.damage != nil { alarms.tamper("state-file-damaged", device: touch.devicePath) }
        }
        alarms.observe(
            touchDevice: touch.devicePath, display: screen.connectedDisplay,
            watching: !handedOver && !stopping && options.role.guardsADoor)
        if case .enrolled(let nodes) = service.machine.phase, enrolledPattern == nil {
            enrolledPattern = try? Pattern(nodes: nodes, shape: config.grid.shape)
            stopping = true
        }
        if options.role.endsWithTheRecording, recordingIsDone { stopping = true }
        timers.blank.due = handedOver ? nil : blanker.deadline
        // Whatever the round changed (a reload, a reset, a lockout), the faces that watch hear it.
        session?.lockMayHaveChanged()
    }

    /// A stroke benchmark ends with the last event it plays; a replay once, besides, every
    /// timer has run out and nothing it started (a check, an action, a hook) still runs:
    /// what gridlockd would have done with the recording, to the end.
    private var recordingIsDone: Bool {
        guard touch.isExhausted, pending.isEmpty else { return false }
        guard case .replay = options.role else { return true }
        return !loop.hasPendingDeadlines(on: .loop) && loop.backgroundJobsRunning == 0
            && supervisor.isQuiet && alarms.isQuiet
    }

    /// Gives the lock machine the round's events; true when one of them ended a stroke.
    private func handlePending() -> Bool {
        var strokeEnded = false
        latency.beginRound()
        while !pending.isEmpty {
            let (event, time) = pending.removeFirst()
            if case .touch(let touch) = event {
                latency.noteInput(touch, at: time)
                if case .up = touch { strokeEnded = true }
                if case .cancel = touch { strokeEnded = true }
            }
            lastTime = max(lastTime, time ?? now)
            let selectedBefore = service.machine.selectedNodeCount
            service.handle(event, at: lastTime)
            sounds?.noteSelection(before: selectedBefore, after: service.machine.selectedNodeCount)
        }
        return strokeEnded
    }

    /// Draws the newest scene (once, however many events led to it), then what follows a
    /// frame: its latency, the round's sounds, the stroke's figures.
    private func presentFrame(strokeEnded: Bool) {
        let presented = screen.endRound(answering: latency.roundInputs, samples: latency.roundSamples)
        // After the frame: a sound never delays what the finger sees.
        sounds?.afterRound(now: now)
        latency.endRound(presented: presented, now: now)
        guard strokeEnded else { return }
        if let worst = latency.endStroke() {
            Journal.log(.debug, "stroke input-to-frame latency: worst \(worst.nanoseconds / 1000) us")
        }
        screen.endStroke()
    }

    /// Whether patterns with a schedule can open, and who said so (the kernel, or under
    /// `ProtectClock=` systemd-timesyncd's flag): the first thing to look at when one does not.
    private func logClockTrust() {
        let scheduled = config.patterns.filter { !$0.limits.schedule.isUnrestricted }.map(\.name)
        guard options.role.guardsADoor, !scheduled.isEmpty else { return }
        let clock = SystemWallClock.synchronisation()
        let consequence = clock.synchronised || config.security.trustUnsynchronisedClock
            ? "patterns with a schedule (\(scheduled.joined(separator: ", "))) open in their windows"
            : "patterns with a schedule (\(scheduled.joined(separator: ", "))) do not open until it is, or until [security] trust-unsynchronised-clock=true"
        Journal.log(clock.synchronised ? .info : .notice,
                    "clock: \(clock.synchronised ? "synchronised" : "not synchronised") according to \(clock.source); \(consequence)")
    }

    private func blankIfIdle(now: Instant) {
        guard !handedOver, blanker.timerFired(at: now) else { return }
        screen.setBlanked(true)
        Journal.log(.info, "panel blanked after \(config.display.blankAfter.map { "\($0.components.seconds)" } ?? "?") s without touch")
    }

    private func pingWatchdog() {
        systemd.watchdog()
        timers.startWatchdog(now: now)
    }

    /// The one way out: the parts stop in the reverse order of their start (`PartGroup`):
    /// the socket's faces are answered, the beeper falls silent, what runs is stopped and
    /// waited for (a relay must not stay energised because the daemon went away, every hook
    /// still running is stopped too, [on stop] runs within its budget), the touch device is
    /// let go and the console gets its picture back; systemd is told first.
    func shutdown() {
        systemd.stopping()
        group.stopAll(on: loop)
        Journal.log(
            .info, "\(options.role.journalName) \(options.role.machineMode == .enroll ? "ended" : "stopped")",
            JournalFields(messageID: JournalCatalog.stop, fields: ["GRIDLOCK_EVENT": "stop"]))
    }
}

// MARK: LockShell

extension Daemon: LockShell {
    public func beginVerification(of pattern: Pattern) {
        if case .verifying(_, let check?) = service.machine.phase { noteSessionCheck(check, nodes: pattern.nodes.count) }
        checks.begin(pattern)
    }

    public func beginAction(for patternName: String) {
        let plan = config.actionPlan(for: patternName)
        supervisor.begin(plan)
        alarms.unlocked(by: plan, device: touch.devicePath)
    }

    public func setDeadline(_ deadline: Instant?) { timers.lock.due = deadline }

    public func setTipDeadline(_ deadline: Instant?) { timers.tip.due = deadline }

    public func report(_ report: LockReport, at time: Instant) {
        blanker.noteActivity(at: time)
        sounds?.note(report)
        Journal.log(report.priority, report.logMessage, report.journalFields)
        observe?(.lock(report))
        alarms.noted(report, device: touch.devicePath)
    }

    public func answer(_ check: CheckID, _ verdict: CheckVerdict) {
        // To the connection that asked, and nobody else.
        session?.answer(check, SessionReply(verdict))
    }
}
