import Glibc  // signal numbers
import GridlockCore
import GridlockDisplay
import GridlockInput
import LinuxSys

/// `gridlockd`: one thread, one epoll loop over the signalfd, one timerfd, the
/// verifier's eventfd, the running action's output and the touch source. With nothing
/// on screen changing and no action running it sleeps in the kernel with no timeout
/// (the systemd watchdog, when enabled, is the one periodic wake-up).
public final class Daemon: LockShell {
    public struct Options {
        public var configPath: String
        /// Render but present nowhere, and exit after the first frame, printing the
        /// monotonic time it was presented: what `gridlock bench` measures start-up with.
        public var benchStartup = false
        /// `.enroll` runs the set-a-gesture flow on the panel instead of the lock screen
        /// (`gridlock enroll`): no attempts are counted and the loop ends with the pattern.
        public var mode: LockMachine.Mode = .unlock
        /// Give up (enrollment) when nothing was enrolled after this long.
        public var giveUpAfter: Duration?

        public init(configPath: String) { self.configPath = configPath }
    }

    enum Token: Int {
        case signals = 1, timer, verifier, actionOutput, actionExit
        static let touchBase = 100
        static let outputBase = 200
    }

    let options: Options
    var config: GridlockConfig
    var matcher: PatternMatcher
    let hasher: PatternHasher
    let poller: EventPoller
    let signals: SignalFD
    private let timer: TimerFD
    private let verifierWakeup: EventFD
    let notifier = SystemdNotifier.fromEnvironment()
    private let watchdogInterval: Duration?
    private var nextWatchdog: Int64?
    var service: LockService!
    var touch: TouchSource
    private var polledTouchDescriptors: [FileDescriptor] = []
    private var polledTouchGeneration = 0
    /// The latest input frame already measured, and the worst input-to-present time of the stroke.
    private var measuredInputTime: Int64?
    private var strokeWorstLatency: Int64 = 0
    private var polledOutputDescriptors: [FileDescriptor] = []
    private var verification: BackgroundJob<String?>?
    let actions = ActionRunner()
    var runningAction: RunningAction?
    /// The programs still to run for the current unlock; a duress program runs first and silently.
    var actionQueue: [(argv: [String], silent: Bool)] = []
    var runningSilently = false
    var actionPlan: UnlockActionPlan?
    private var machineDeadline: Instant?
    var pending: [LockEvent] = []
    var stopping = false
    private var readySent = false
    var blanker: ScreenBlanker
    /// `[action] mode=handover`: the display and the touch grab belong to the action now.
    var handedOver = false
    private var giveUpAt: Int64?
    /// The confirmed pattern, once an enrollment (`Options.mode == .enroll`) succeeded.
    public private(set) var enrolledPattern: Pattern?

    public init(options: Options, loaded: LoadedConfig) throws(DaemonError) {
        self.options = options
        config = loaded.config
        do {
            // Signals first, before any thread exists, so every thread inherits the blocked mask.
            signals = try SignalFD(signals: [SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGPIPE])
            poller = try EventPoller()
            timer = try TimerFD()
            verifierWakeup = try EventFD()
            hasher = try PatternHasher()
        } catch let error as SystemCallError {
            throw .system(error)
        } catch {
            throw .unsupported("\(error)")
        }
        matcher = PatternMatcher(config: config, hasher: hasher)
        watchdogInterval = SystemdNotifier.watchdogIntervalFromEnvironment()
        blanker = ScreenBlanker(timeout: config.display.blankAfter, now: Instant(nanoseconds: MonotonicClock.now()))

        let output = try DaemonComponents.output(for: config, headless: options.benchStartup)
        touch = try DaemonComponents.touchSource(
            for: config, frame: output.size, rotation: output.rotation, start: MonotonicClock.now())
        let renderer: SceneRenderer
        do {
            renderer = try SceneRenderer(size: output.size, theme: config.theme)
        } catch {
            throw .display("\(error)")
        }
        let counting = !options.benchStartup && options.mode == .unlock
        let attempts = Self.restoreAttempts(config: config, persist: counting)
        let machine = LockMachine(
            layout: config.gridLayout(frame: output.size), settings: config.lockSettings, mode: options.mode,
            attempts: attempts)
        service = LockService(
            machine: machine, renderer: renderer, output: output, shell: self,
            attemptsFile: counting ? config.lockout.stateFile : nil)
        do {
            try poller.add(signals.fileDescriptor, token: Token.signals.rawValue)
            try poller.add(timer.fileDescriptor, token: Token.timer.rawValue)
            try poller.add(verifierWakeup.fileDescriptor, token: Token.verifier.rawValue)
        } catch {
            throw .system(error)
        }
    }

    /// A missing file means no failures. A corrupt or unreadable one is taken as the first
    /// lockout of the schedule: damaging the file must never earn free attempts.
    static func restoreAttempts(config: GridlockConfig, persist: Bool) -> AttemptState {
        guard persist else { return .clean }
        let path = config.lockout.stateFile
        switch AttemptStore.load(from: path) {
        case .missing:
            return .clean
        case .loaded(let state):
            if state.failures > 0 {
                Journal.log(.notice, "restored \(state.failures) consecutive failed attempts from \(path)")
            }
            return state
        case .corrupt(let reason):
            Journal.log(.alert, "attempt state \(path) is corrupt (\(reason)); locking out as after repeated failures")
        case .unreadable(let error):
            Journal.log(.alert, "attempt state unreadable: \(error); locking out as after repeated failures")
        }
        guard let first = config.lockout.schedule.firstLockout else { return .clean }
        return AttemptState(failures: first.failures, lockoutPending: true)
    }

    var now: Instant { Instant(nanoseconds: MonotonicClock.now()) }

    /// Runs until SIGTERM/SIGINT; returns the exit status.
    public func run() -> Int32 {
        Journal.log(.info, "\(options.mode == .enroll ? "enrollment" : "gridlockd") starting: display \(config.display.backend.rawValue), touch \(config.touch.backend.rawValue), grid \(config.grid.shape), \(config.patterns.count) pattern(s)")
        if config.patterns.isEmpty, options.mode == .unlock {
            Journal.log(.warning, "no [pattern] is enrolled: nothing can unlock; add one with gridlock enroll")
        }
        service.start(at: now)
        afterEvents()
        if options.benchStartup {
            print("first-frame-monotonic-ns \(MonotonicClock.now())")
            print("peak-rss-kib \(ProcessStatus.peakResidentKiB() ?? -1)")
            return 0
        }
        if let watchdogInterval {
            nextWatchdog = MonotonicClock.now() + watchdogInterval.nanoseconds / 2
        }
        giveUpAt = options.giveUpAfter.map { MonotonicClock.now() + $0.nanoseconds }
        while !stopping {
            let ready: [EventPoller.Ready]
            do {
                ready = try poller.wait(timeoutMilliseconds: nil)
            } catch {
                Journal.log(.critical, "epoll_wait: \(error)")
                return 1
            }
            for event in ready {
                handle(token: event.token)
            }
            afterEvents()
        }
        shutdown()
        return 0
    }

    private func handle(token: Int) {
        switch Token(rawValue: token) {
        case .signals: handleSignals()
        case .timer:
            _ = try? timer.acknowledge()
            handleDeadlines()
        case .verifier:
            _ = try? verifierWakeup.consume()
            if let job = verification, let result = job.take() {
                verification = nil
                pending.append(.verified(patternName: result))
            }
        case .actionOutput, .actionExit:
            pumpAction()
        default:
            if token >= Token.outputBase {
                let index = token - Token.outputBase
                guard polledOutputDescriptors.indices.contains(index) else { return }
                handleOutputEvent(service.output.handleReadable(polledOutputDescriptors[index], buffer: service.renderer.buffer))
                return
            }
            let index = token - Token.touchBase
            guard polledTouchDescriptors.indices.contains(index) else { return }
            let clock = MonotonicClock.now()
            touch.handleReadable(polledTouchDescriptors[index], now: clock) { accept($0) }
        }
    }

    /// Every touch passes the blanker: the stroke that wakes a dark panel goes no further.
    private func accept(_ touch: TouchEvent) {
        switch blanker.filter(touch, at: now) {
        case .forward:
            pending.append(.touch(touch))
        case .swallow:
            break
        case .wake:
            service.output.setBlanked(false)
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
            Journal.log(.notice, "display is now \(Int(size.width))x\(Int(size.height)) (logical), rotation \(service.output.rotation.degrees)")
            touch.setFrame(size, rotation: service.output.rotation)
            do {
                try service.resize(to: size, settings: config.lockSettings, layout: config.gridLayout(frame: size), at: now)
            } catch {
                Journal.log(.critical, "cannot draw at the new size: \(error)")
            }
        }
    }

    /// Handles queued events, then re-arms the one timer and refreshes the polled descriptors.
    private func afterEvents() {
        let presentedBefore = service.framesPresented
        var strokeEnded = false
        while !pending.isEmpty {
            let event = pending.removeFirst()
            if case .touch(.up) = event { strokeEnded = true }
            if case .touch(.cancel) = event { strokeEnded = true }
            service.handle(event, at: now)
        }
        measureInputLatency(presented: service.framesPresented > presentedBefore, strokeEnded: strokeEnded)
        if !readySent, service.framesPresented > 0 {
            readySent = true
            try? notifier.notify("READY=1\nSTATUS=Showing the lock screen")
        }
        if case .enrolled(let nodes) = service.machine.phase, enrolledPattern == nil {
            enrolledPattern = try? Pattern(nodes: nodes, shape: config.grid.shape)
            stopping = true
        }
        syncDescriptors()
        armTimer()
    }

    private func handleDeadlines() {
        let clock = MonotonicClock.now()
        if let due = touch.nextDeadline, due <= clock {
            touch.handleDeadline(now: clock) { accept($0) }
        }
        if let due = machineDeadline, due.nanoseconds <= clock {
            machineDeadline = nil
            pending.append(.timerFired)
        }
        if let action = runningAction, let due = action.nextDeadline, due <= clock {
            do {
                if let outcome = try action.handleDeadline(now: clock) {
                    Journal.log(.warning, "action for pattern \(action.patternName) exceeded its timeout: \(outcome == .terminated ? "SIGTERM" : "SIGKILL") sent to its process group")
                }
            } catch {
                Journal.log(.error, "action for pattern \(action.patternName): \(error)")
            }
        }
        if let due = giveUpAt, due <= clock {
            Journal.log(.warning, "nothing was enrolled in \(options.giveUpAfter?.components.seconds ?? 0) s; giving up")
            stopping = true
        }
        if !handedOver, blanker.timerFired(at: Instant(nanoseconds: clock)) {
            service.output.setBlanked(true)
            Journal.log(.info, "panel blanked after \(config.display.blankAfter.map { "\($0.components.seconds)" } ?? "?") s without touch")
        }
        if let due = nextWatchdog, due <= clock, let watchdogInterval {
            try? notifier.notify("WATCHDOG=1")
            nextWatchdog = clock + watchdogInterval.nanoseconds / 2
        }
    }

    private func armTimer() {
        let blanking = handedOver ? nil : blanker.deadline?.nanoseconds
        let deadlines = [
            machineDeadline?.nanoseconds, touch.nextDeadline, runningAction?.nextDeadline, nextWatchdog, blanking, giveUpAt,
        ]
        do {
            if let earliest = deadlines.compactMap({ $0 }).min() {
                try timer.arm(atMonotonicNanoseconds: earliest)
            } else {
                try timer.disarm()
            }
        } catch {
            Journal.log(.critical, "timerfd: \(error)")
        }
    }

    /// Input-to-present time: from the kernel's timestamp of the frame that moved the
    /// finger to the moment its picture was handed to the display. Logged once per stroke
    /// (the worst), at debug level, so a slow panel or renderer shows up without noise.
    private func measureInputLatency(presented: Bool, strokeEnded: Bool) {
        if presented, let input = touch.lastFrameKernelTime, input != measuredInputTime {
            measuredInputTime = input
            strokeWorstLatency = max(strokeWorstLatency, MonotonicClock.now() - input)
        }
        if strokeEnded, strokeWorstLatency > 0 {
            Journal.log(.debug, "stroke input-to-frame latency: worst \(strokeWorstLatency / 1000) us")
            strokeWorstLatency = 0
        }
    }

    /// Devices come and go (hotplug, a display appearing): poll exactly what the sources hold now.
    private func syncDescriptors() {
        if touch.descriptorGeneration != polledTouchGeneration {
            // The numbers may be the same as before but name another device now: register afresh.
            polledTouchGeneration = touch.descriptorGeneration
            for fd in polledTouchDescriptors { try? poller.remove(fd) }
            polledTouchDescriptors = []
        }
        sync(&polledTouchDescriptors, to: touch.descriptors, base: Token.touchBase, what: "touch device")
        sync(&polledOutputDescriptors, to: service.output.descriptors, base: Token.outputBase, what: "display")
    }

    private func sync(_ polled: inout [FileDescriptor], to wanted: [FileDescriptor], base: Int, what: String) {
        guard wanted != polled else { return }
        for fd in polled { try? poller.remove(fd) }
        for (index, fd) in wanted.enumerated() {
            do {
                try poller.add(fd, token: base + index)
            } catch {
                Journal.log(.error, "cannot poll \(what): \(error)")
            }
        }
        polled = wanted
    }

    // MARK: LockShell

    public func beginVerification(of pattern: Pattern) {
        let matcher = self.matcher
        do {
            verification = try BackgroundJob.start(wakeup: verifierWakeup) { matcher.match(pattern) }
        } catch {
            // Never a free pass: a check that cannot run is a wrong pattern.
            Journal.log(.critical, "cannot start verification: \(error)")
            pending.append(.verified(patternName: nil))
        }
    }

    public func setDeadline(_ deadline: Instant?) { machineDeadline = deadline }

    public func report(_ report: LockReport, at time: Instant) {
        blanker.noteActivity(at: time)
        Journal.log(report.priority, report.logMessage)
    }
}
