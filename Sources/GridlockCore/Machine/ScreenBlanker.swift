/// `blank-after=`: the panel goes dark after a while without touch, and the touch that
/// wakes it only wakes it: that whole stroke is swallowed, so it never starts a pattern
/// (a person tapping a dark screen cannot see the grid).
public struct ScreenBlanker: Sendable {
    public private(set) var timeout: Duration?
    public private(set) var isBlanked = false
    private var lastActivity: Instant
    /// The finger that woke the screen is still down.
    private var swallowingWakeStroke = false

    public init(timeout: Duration?, now: Instant) {
        self.timeout = timeout.flatMap { $0 > .zero ? $0 : nil }
        lastActivity = now
    }

    public enum Decision: Equatable, Sendable {
        /// Hand the touch to the lock machine.
        case forward
        /// Drop the touch.
        case swallow
        /// Turn the panel on and drop the touch.
        case wake
    }

    public mutating func filter(_ touch: TouchEvent, at now: Instant) -> Decision {
        lastActivity = now
        if isBlanked {
            guard case .down = touch else { return .swallow }
            isBlanked = false
            swallowingWakeStroke = true
            return .wake
        }
        if swallowingWakeStroke {
            switch touch {
            case .up, .cancel: swallowingWakeStroke = false
            case .down: swallowingWakeStroke = false
                return .forward
            case .move: break
            }
            return .swallow
        }
        return .forward
    }

    /// A reload's `blank-after=`: the wait starts again from `now`; a dark panel stays dark
    /// until touched.
    public mutating func retime(_ timeout: Duration?, now: Instant) {
        self.timeout = timeout.flatMap { $0 > .zero ? $0 : nil }
        lastActivity = now
    }

    /// Something on screen needs to be seen (an unlock, an error): counts as activity.
    public mutating func noteActivity(at now: Instant) {
        lastActivity = now
    }

    /// When the panel should go dark, if it is on.
    public var deadline: Instant? {
        guard let timeout, !isBlanked else { return nil }
        return lastActivity + timeout
    }

    /// True when the panel must be turned off now.
    public mutating func timerFired(at now: Instant) -> Bool {
        guard let deadline, now >= deadline else { return false }
        isBlanked = true
        return true
    }
}
