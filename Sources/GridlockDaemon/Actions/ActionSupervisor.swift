import GridlockConfiguration
import GridlockCore
import LinuxSys

/// What the supervisor needs from whoever runs the lock: the daemon gives the panel
/// away and takes it back, a replay has nothing to give.
public protocol ActionSupervisorDelegate: AnyObject {
    /// `[action] mode=handover`: the action is about to start and takes the display and
    /// the touch grab until it ends. `whenFree` starts it, once whoever holds the panel
    /// has let it go (at once for gridlockd's own face; a face apart is asked first).
    func handOver(to patternName: String, whenFree: @escaping () -> Void)
    func takeBack()
    /// Everything this unlock runs has ended (or nothing was configured).
    func actionsFinished()
    func report(_ report: ActionReport)
}

/// Runs what an accepted pattern runs, one program at a time: its `duress-exec=` first
/// and silently, then its `exec=`; each without a shell, in its own process group, with
/// the `[action] timeout=` enforced (SIGTERM, then SIGKILL) and its output turned into
/// lines, a slice per turn of the loop and at most `loggedLinesPerSecond` of them (the
/// rest counted). Both `gridlockd` and `gridlock replay` run their actions through this,
/// on an `EventLoop`, so a replay's outcome is the daemon's.
public final class ActionSupervisor {
    /// A relay program says a line or two; a session in handover mode may log for hours.
    public static let loggedLinesPerSecond = 50

    public var mode: ActionMode
    public weak var delegate: ActionSupervisorDelegate?

    private let loop: EventLoop
    private let runner: ActionRunner
    private let clock: () -> Instant
    private var plan: UnlockActionPlan?
    private var queue: [(argv: [String], silent: Bool)] = []
    private var running: (action: RunningAction, silent: Bool)?
    private var handedOver = false
    /// The program handed the panel, not started until the panel is free (`handOver`).
    private var waitingForPanel: (argv: [String], silent: Bool)?
    /// Ended programs whose process groups still hold what they started in the background:
    /// stopped at their timeout, or when the daemon stops, like the programs themselves.
    private var lingering: [RunningAction] = []
    private var timeout: EventLoop.Deadline!

    public init(
        loop: EventLoop, mode: ActionMode, runner: ActionRunner = ActionRunner(),
        clock: (() -> Instant)? = nil
    ) {
        self.loop = loop
        self.mode = mode
        self.runner = runner
        // Real time, the loop's `now`: an action's timeout is real even in a replay.
        self.clock = clock ?? { [loop] in loop.now() }
        timeout = loop.deadline("action timeout", clock: .real) { [unowned self] now in enforceTimeout(now: now) }
    }

    /// Nothing runs and nothing is queued (what the lock screen waits for).
    public var isIdle: Bool { plan == nil }

    /// Idle, and nothing an ended program left behind is waiting to be stopped (what a
    /// stopping daemon waits for).
    public var isQuiet: Bool {
        lingering.removeAll { $0.nextDeadline == nil }
        return isIdle && lingering.isEmpty
    }

    /// The pattern whose action runs now, if any.
    public var runningPattern: String? { running == nil ? nil : plan?.patternName }

    /// The process groups it still answers for (each led by the program it started): the
    /// running program's, and those of ended ones whose leftovers wait for their timeout.
    public var processGroups: [OwnedProcessGroup] {
        ((running.map { [$0.action] } ?? []) + lingering.filter { $0.nextDeadline != nil }).map(\.processGroup)
    }

    /// Starts what `plan` runs; its end comes back through `actionsFinished()`.
    public func begin(_ plan: UnlockActionPlan) {
        precondition(isIdle, "one unlock at a time: the lock machine waits for .actionFinished")
        if plan.isDuress { delegate?.report(.duressUsed(pattern: plan.patternName)) }
        self.plan = plan
        queue = [plan.duressExec.map { ($0, true) }, plan.exec.map { ($0, false) }].compactMap { $0 }
        startNext()
    }

    /// SIGCHLD: on kernels without pidfds the only news that the program ended.
    public func childExited() { pump() }

    /// Stops the running program (SIGTERM to its group, SIGKILL after the runner's grace
    /// period) and drops the rest of the queue; the loop must run until `isIdle`.
    public func stopAll() {
        queue = []
        if let waiting = waitingForPanel {
            // Never started: the panel is taken back and the unlock ends here.
            waitingForPanel = nil
            endAction(silent: waiting.silent)
        }
        let now = clock()
        for action in (running.map { [$0.action] } ?? []) + lingering {
            delegate?.report(.stopping(pattern: action.patternName))
            do {
                try action.terminate(now: now)
            } catch {
                delegate?.report(.failed(pattern: action.patternName, reason: "\(error)"))
            }
        }
        rearmTimeout()
    }

    private func startNext() {
        guard let plan else { return }
        guard !queue.isEmpty else {
            self.plan = nil
            delegate?.actionsFinished()
            return
        }
        let (argv, silent) = queue.removeFirst()
        if !silent, mode == .handover, !handedOver {
            handedOver = true
            waitingForPanel = (argv, silent)
            delegate?.report(.handedOver(pattern: plan.patternName))
            delegate?.handOver(to: plan.patternName) { [weak self] in self?.panelFree() }
            return
        }
        start(argv, silent: silent)
    }

    /// The panel is the action's now: the program waiting for it starts.
    private func panelFree() {
        guard let (argv, silent) = waitingForPanel else { return }
        waitingForPanel = nil
        start(argv, silent: silent)
    }

    private func start(_ argv: [String], silent: Bool) {
        guard let plan else { return }
        let action: RunningAction
        do {
            // The silent program's lines are never shown, so none is ever made.
            action = try runner.start(
                patternName: plan.patternName, argv: argv, timeout: plan.enforcedTimeout, now: clock(),
                outputBudget: silent ? .perRun(0) : .perSecond(Self.loggedLinesPerSecond))
            try action.watch(on: loop, as: "action") { [unowned self] in pump() }
        } catch {
            delegate?.report(.couldNotStart(pattern: plan.patternName, duress: silent, reason: "\(error)"))
            endAction(silent: silent)
            return
        }
        running = (action, silent)
        rearmTimeout()
    }

    /// Output and exit of the running program: one slice of output per call.
    private func pump() {
        guard let (action, silent) = running else { return }
        do {
            report(try action.readOutput(now: clock()), of: action, silent: silent)
            if action.outputEnded { loop.unwatch(action.outputFD) }
            guard let status = try action.reap() else { return }
            action.unwatchExit(from: loop)
            // What the pipe held at the exit is shown, a slice per round, before the end;
            // a process left behind that keeps it open is not waited for.
            guard action.outputSettled else { return }
            report(action.finishOutput(now: clock()), of: action, silent: silent)
            delegate?.report(.finished(pattern: action.patternName, duress: silent, status: status))
            if action.leftProcessesBehind {
                lingering.append(action)
                delegate?.report(.leftProcessesBehind(pattern: action.patternName))
            }
        } catch {
            delegate?.report(.failed(pattern: action.patternName, reason: "\(error)"))
        }
        action.unwatch(from: loop)
        endAction(silent: silent)
    }

    private func report(_ pieces: [OutputLineSplitter.Piece], of action: RunningAction, silent: Bool) {
        guard !silent else { return }
        for piece in pieces {
            switch piece {
            case .line(let line): delegate?.report(.output(pattern: action.patternName, line: line))
            case .dropped(let dropped): delegate?.report(.outputDropped(pattern: action.patternName, dropped))
            }
        }
    }

    private func endAction(silent: Bool) {
        running = nil
        rearmTimeout()
        if handedOver, !silent {
            handedOver = false
            delegate?.takeBack()
            delegate?.report(.tookBack)
        }
        startNext()
    }

    /// The running program's deadline, and those of what ended programs left behind.
    private func enforceTimeout(now: Instant) {
        for action in (running.map { [$0.action] } ?? []) + lingering {
            do {
                if let outcome = try action.handleDeadline(now: now) {
                    delegate?.report(.timedOut(pattern: action.patternName, outcome: outcome))
                }
            } catch {
                delegate?.report(.failed(pattern: action.patternName, reason: "\(error)"))
            }
        }
        rearmTimeout()
    }

    private func rearmTimeout() {
        lingering.removeAll { $0.nextDeadline == nil }
        timeout.due = ((running.map { [$0.action] } ?? []) + lingering).compactMap(\.nextDeadline).min()
    }
}
