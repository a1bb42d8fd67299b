/// What happens to the lock screen, as the shell reports it.
public enum LockEvent: Hashable, Sendable {
    /// A touch step of the primary finger, in frame coordinates.
    case touch(TouchEvent)
    /// A stroke finished on another face (a lock face in the user's session, through the
    /// session socket): its nodes in order, from 0, and the id its verdict goes back to.
    /// It is checked exactly as one drawn on the panel when `strokeAdmission` is `.ready`;
    /// either way the machine answers it once (`LockEffect.answer`).
    case stroke(nodes: [Int], check: CheckID)
    /// The verifier finished: the name of the matching pattern, or nil.
    case verified(patternName: String?)
    /// The unlock action ended (or there was none to run).
    case actionFinished
    /// The timer armed by `.armTimer` fired (spurious or late firings are harmless).
    case timerFired
    /// A `.persist` could not be carried out (full or read-only disk, I/O error). The
    /// shell skips the effects after it; an attempt whose failure is not on disk is not checked.
    case persistFailed
}

/// Whether a stroke from another face would be checked now (`LockMachine.strokeAdmission`).
public enum StrokeAdmission: Hashable, Sendable {
    case ready
    /// Nothing is checked for `seconds` more.
    case lockedOut(seconds: Int)
    /// A check runs, its result or an action is under way, a finger is on the panel, or
    /// the machine enrolls: a stroke now would not be checked, and is not counted.
    case busy
}

/// Names a check asked for by another face, for as long as its verdict is awaited; the
/// shell makes these (never two alike) and the machine hands each back in its answer.
public struct CheckID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "check \(rawValue)" }
}

/// What a check from another face came to (`LockEffect.answer`). The machine gives every
/// `.stroke` exactly one, whatever happens to it, so no asker waits for ever and no lost
/// answer leaves the next check `busy`.
public enum CheckVerdict: Hashable, Sendable {
    case accepted
    /// `failures` in a row now, `remainingBeforeLockout` more before one starts a lockout
    /// (nil: never).
    case rejected(failures: Int, remainingBeforeLockout: Int?)
    case lockedOut(seconds: Int)
    /// Not checked and not counted: see `StrokeAdmission.busy`.
    case busy
    /// Fewer nodes than `min-nodes`; not counted.
    case tooShort
    /// Counted, but its failure could not be written, so it was not checked.
    case notRecorded
    /// Its nodes are not a pattern of this grid (repeated, off the grid, none, or a grid
    /// reloaded since it was sent); not counted.
    case notOnGrid
}

/// What the shell must do, in order.
public enum LockEffect: Hashable, Sendable {
    case render(Scene)
    /// Write the attempt state durably before carrying out the effects after it.
    case persist(AttemptState)
    /// Check the pattern against the stored hashes, off the event loop, then send `.verified`.
    case verify(Pattern)
    /// Run the pattern's unlock action, then send `.actionFinished`.
    case runAction(patternName: String)
    /// Send `.timerFired` at this instant; replaces any earlier deadline.
    case armTimer(Instant)
    case disarmTimer
    /// Something worth logging or reporting; never carries the drawn nodes.
    case report(LockReport)
    /// Enrollment finished with this confirmed pattern.
    case enrolled(Pattern)
    /// Tell the face that asked for `check` what came of it (and nobody else).
    case answer(CheckID, CheckVerdict)
}

/// Outcomes for logs and `gridlock replay`. None of them holds a pattern.
public enum LockReport: Hashable, Sendable {
    case accepted(patternName: String, nodes: Int)
    case rejected(nodes: Int, failures: Int)
    case tooShort(nodes: Int)
    case lockout(seconds: Int, failures: Int)
    case lockoutEnded
    case strokeCancelled(CancelReason)
    case enrollmentFirstDrawn(nodes: Int)
    case enrollmentMismatch
    case enrollmentTooShort(nodes: Int)
    case enrollmentConfirmed(nodes: Int)
    /// The attempt was not checked: its failure could not be recorded.
    case notRecorded(nodes: Int)
}
