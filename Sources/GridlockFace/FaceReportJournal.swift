import GridlockCore
import LinuxSys

/// What a face's reports say in the journal.
extension FaceReport {
    /// How loud the journal says it.
    public var priority: LogPriority {
        switch self {
        case .accepted, .rejected, .lockedOut, .relocked, .panelHandedOver, .panelBack, .enrollmentStarted, .enrollmentSent,
             .enrollmentEnded, .calibrationStarted, .calibrationEnded: .notice
        case .serviceLost, .serviceSilent, .notChecked: .warning
        case .serviceAvailable, .lockoutEnded, .tooShort, .strokeCancelled, .enrollmentFirstDrawn, .enrollmentTooShort,
             .enrollmentMismatch, .calibrationTapped: .info
        }
    }

    /// The journal's sentence; none holds a pattern.
    public var description: String {
        switch self {
        case .serviceAvailable: "gridlockd answers: patterns can be checked"
        case .serviceLost: "lost gridlockd: nothing can be checked until it answers again"
        case .serviceSilent: "gridlockd does not answer: nothing can be checked until it does"
        case .accepted: "gridlockd accepted the pattern"
        case .rejected(let failures): "gridlockd refused the pattern (\(failures) failure(s) in a row)"
        case .lockedOut(let seconds): "gridlockd is locked out for \(seconds) s"
        case .lockoutEnded: "the lockout ended"
        case .notChecked(let reason): "gridlockd did not check the pattern: \(reason)"
        case .tooShort(let nodes): "stroke too short (\(nodes) nodes): not sent"
        case .strokeCancelled(let reason): "stroke discarded: \(reason.rawValue)"
        case .relocked: "the lock shows again: asking gridlockd where it stands"
        case .panelHandedOver: "gridlockd handed the panel over to an action: display and touchscreen let go until it is done"
        case .panelBack: "the action is done: display and touchscreen taken back"
        case .enrollmentStarted: "gridlock enroll asked for a new pattern: draw it, then draw it again"
        case .enrollmentFirstDrawn(let nodes): "enrolment: first drawing (\(nodes) nodes); draw it again to confirm"
        case .enrollmentTooShort(let nodes): "enrolment: drawing too short (\(nodes) nodes)"
        case .enrollmentMismatch: "enrolment: the second drawing differs from the first; start over"
        case .enrollmentSent(let nodes): "enrolment: both drawings agree (\(nodes) nodes); sent to gridlockd for gridlock enroll"
        case .enrollmentEnded: "the enrolment is over: the lock shows again"
        case .calibrationStarted: "gridlock calibrate asked for the crosses: touch the centre of each (the touchscreen's calibration set aside meanwhile)"
        case .calibrationTapped(let step, let count): step < count ? "calibration: cross \(step) of \(count) tapped" : "calibration: cross \(step) of \(count) tapped; the taps went to gridlockd for gridlock calibrate"
        case .calibrationEnded: "the calibration is over: the touchscreen's calibration applies again and the lock shows"
        }
    }
}
