import GridlockCore

/// What a `LockService` needs from the loop that runs it. The daemon's event loop and
/// `gridlock replay`'s virtual-time loop both implement it, so both run the same service.
public protocol LockShell: AnyObject {
    /// Starts checking `pattern`; the result comes back later through `LockService.handle(.verified)`.
    func beginVerification(of pattern: Pattern)
    /// Starts the pattern's unlock action; its end comes back through `.actionFinished`.
    func beginAction(for patternName: String)
    /// Replaces the single deadline (nil: none) at which the loop sends `.timerFired`.
    func setDeadline(_ deadline: Instant?)
    /// Something happened that is worth a log line (and, in a replay, a JSON line).
    func report(_ report: LockReport, at time: Instant)
    /// Replaces the deadline (nil: none) at which the loop calls `LockService.settleTip()`:
    /// a tip drawn ahead of the finger goes back on it when no sample came by then.
    func setTipDeadline(_ deadline: Instant?)
    /// Tells the face that asked for `check` (a `LockEvent.stroke`) what came of it.
    func answer(_ check: CheckID, _ verdict: CheckVerdict)
}

extension LockShell {
    public func setTipDeadline(_ deadline: Instant?) {}
    public func answer(_ check: CheckID, _ verdict: CheckVerdict) {}
}
