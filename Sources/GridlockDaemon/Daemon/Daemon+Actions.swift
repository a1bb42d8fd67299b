import GridlockCore
import LinuxSys

/// What the action supervisor asks of the daemon: in handover mode the display and the
/// touch grab go to the action and come back when it ends.
extension Daemon: ActionSupervisorDelegate {
    public func handOver(to patternName: String, whenFree: @escaping () -> Void) {
        handedOver = true
        touch.setGrabbed(false)
        screen.setActive(false)
        // A face that holds the panel (gridlock-panel) lets it go first: the action starts
        // once it has said so (or gone, or after `SessionServer.panelReleasePatience`).
        guard let session else { return whenFree() }
        // A stop meanwhile ends the unlock (`ActionSupervisor.stopAll`): nothing starts then.
        session.panelModeChanged(whenFree: { [unowned self] in if !stopping { whenFree() } })
    }

    public func takeBack() {
        handedOver = false
        // A face that holds the panel (gridlock-panel) takes it back, also while stopping:
        // its lock shows again whatever gridlockd does next.
        session?.panelModeChanged()
        // Stopping: the output is closed next, which restores the console; no flash of the grid.
        guard !stopping else { return }
        screen.setActive(true)
        touch.setGrabbed(true)
    }

    public func actionsFinished() {
        pending.append((.actionFinished, nil))
    }

    public func report(_ report: ActionReport) {
        Journal.log(report.priority, report.logMessage, report.journalFields)
        observe?(.action(report))
    }
}
