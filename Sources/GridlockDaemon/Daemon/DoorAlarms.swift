import GridlockCore
import LinuxSys

/// What the lock tells the `[on EVENT]` hooks: lock reports, unlocks and the touch device
/// or display going away become events with their facts. The daemon only says what
/// happened; which event that is, and when it is tamper, is decided here.
final class DoorAlarms {
    let hooks: HookSupervisor
    /// What the last round saw, so a device that goes away while the lock shows is noticed.
    private var lastTouchDevice: String?
    private var lastDisplay: String?

    init(hooks: HookSupervisor) {
        self.hooks = hooks
    }

    var isQuiet: Bool { hooks.isQuiet }

    func started(device: String?) { hooks.fire(.start, HookFacts(device: device)) }

    /// Every hook still running is stopped; `[on stop]` runs within its budget.
    func stopping(device: String?) { hooks.stopAll(runningStopHookWith: HookFacts(device: device)) }

    func unlocked(by plan: UnlockActionPlan, device: String?) {
        hooks.fire(.unlock, HookFacts(pattern: plan.patternName, device: device))
        if plan.isDuress { hooks.fire(.duress, HookFacts(pattern: plan.patternName, device: device)) }
    }

    func noted(_ report: LockReport, device: String?) {
        switch report {
        case .rejected(_, let failures):
            hooks.fire(.failure, HookFacts(failures: failures, device: device))
        case .lockout(let seconds, let failures):
            hooks.fire(.lockout, HookFacts(failures: failures, lockoutSeconds: seconds, device: device))
        case .strokeCancelled(.stuckTouch):
            tamper("stuck-contact", device: device)
        case .notRecorded:
            // The door stays shut, but someone must come: a full or failed disk, or a
            // state directory made read-only, is also how an attacker would reset the count.
            tamper("attempts-not-recorded", device: device)
        default:
            break
        }
    }

    /// Called after every round with what is there now. `watching` is false while an
    /// action holds the devices or the daemon stops: then a device going is no alarm.
    func observe(touchDevice: String?, display: String?, watching: Bool) {
        defer { (lastTouchDevice, lastDisplay) = (touchDevice, display) }
        guard watching else { return }
        if let lost = lastTouchDevice, touchDevice == nil { tamper("touch-device-removed", device: lost) }
        if let lost = lastDisplay, display == nil { tamper("display-removed", device: lost) }
    }

    /// A lock face's word on the devices it holds (the panel's own face, `gridlock-panel`):
    /// a touchscreen or display gone is tamper as gridlockd's own would be, named by the
    /// face that said so (the face's word names no device path: nothing of it reaches a
    /// hook's environment but the reason).
    func faceReported(_ event: FaceEvent, by peer: PeerCredentials, watching: Bool) {
        let face = "reported by the lock face of \(peer)"
        switch event {
        case .touchscreenGone:
            if watching { tamper("touch-device-removed", device: nil, source: face) }
        case .displayGone:
            if watching { tamper("display-removed", device: nil, source: face) }
        case .contactStuck:
            if watching { tamper("stuck-contact", device: nil, source: face) }
        case .touchscreenBack:
            Journal.log(.notice, "the lock face of \(peer) has its touchscreen back")
        case .displayBack:
            Journal.log(.notice, "the lock face of \(peer) has its display back")
        }
    }

    func tamper(_ reason: String, device: String?, source: String? = nil) {
        Journal.log(
            .warning, "tamper: \(reason)\(device.map { " (\($0))" } ?? "")\(source.map { " (\($0))" } ?? "")",
            JournalFields(messageID: JournalCatalog.tamper, fields: ["GRIDLOCK_EVENT": "tamper", "GRIDLOCK_REASON": reason]))
        hooks.fire(.tamper, HookFacts(device: device, reason: reason))
    }
}
