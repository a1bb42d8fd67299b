import Glibc  // signal numbers
import GridlockCore
import LinuxSys

/// Running a pattern's unlock actions from the loop: the duress program first (silent),
/// then `exec=`; in handover mode the display and the touch grab go to the action.
extension Daemon {
    public func beginAction(for patternName: String) {
        let plan = config.actionPlan(for: patternName)
        if plan.isDuress {
            Journal.log(.alert, "duress pattern \(patternName) used")
        }
        actionPlan = plan
        actionQueue = [plan.duressExec.map { ($0, true) }, plan.exec.map { ($0, false) }].compactMap { $0 }
        startNextAction()
    }

    func startNextAction() {
        guard let plan = actionPlan else { return }
        guard !actionQueue.isEmpty else {
            actionPlan = nil
            pending.append(.actionFinished)
            return
        }
        let (argv, silent) = actionQueue.removeFirst()
        runningSilently = silent
        if !silent, config.action.mode == .handover, !handedOver {
            // A session takes the panel: let it be DRM master and read the touchscreen.
            handedOver = true
            touch.setGrabbed(false)
            service.output.setActive(false)
            Journal.log(.info, "handing the display and touch over to the action for pattern \(plan.patternName)")
        }
        do {
            let action = try actions.start(
                patternName: plan.patternName, argv: argv, timeout: plan.enforcedTimeout,
                now: MonotonicClock.now())
            runningAction = action
            try poller.add(action.outputFD, token: Token.actionOutput.rawValue)
            if let exitFD = action.exitFD { try poller.add(exitFD, token: Token.actionExit.rawValue) }
        } catch {
            Journal.log(.error, "\(error)")
            runningAction = nil
            startNextAction()
        }
    }

    /// Output and exit of the running action (on readable output and on SIGCHLD).
    func pumpAction() {
        guard let action = runningAction, let plan = actionPlan else { return }
        let silent = runningSilently
        do {
            for line in try action.drainOutputLines() where !silent {
                Journal.log(.info, "action \(plan.patternName): \(line)")
            }
            if action.outputEnded { try? poller.remove(action.outputFD) }
            guard let status = try action.reap() else { return }
            for line in try action.drainOutputLines() where !silent {
                Journal.log(.info, "action \(plan.patternName): \(line)")
            }
            try? poller.remove(action.outputFD)
            if let exitFD = action.exitFD { try? poller.remove(exitFD) }
            let priority: LogPriority = status == .exited(0) ? .info : .warning
            Journal.log(priority, "action for pattern \(plan.patternName) \(silent ? "(duress) " : "")finished: \(status)")
        } catch {
            Journal.log(.error, "action for pattern \(plan.patternName): \(error)")
            try? poller.remove(action.outputFD)
            if let exitFD = action.exitFD { try? poller.remove(exitFD) }
        }
        runningAction = nil
        if handedOver, !runningSilently {
            handedOver = false
            service.output.setActive(true)
            touch.setGrabbed(true)
            Journal.log(.info, "took the display and touch back")
        }
        startNextAction()
    }
}
