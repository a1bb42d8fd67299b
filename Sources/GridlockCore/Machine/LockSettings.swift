/// The parts of the config the lock machine's behaviour depends on.
public struct LockSettings: Hashable, Sendable {
    /// Fewer selected nodes than this on release is a too-short attempt, never a failure.
    public var minimumNodes: Int = 4
    /// false: no highlight and no path while drawing or on failure (nothing reveals the pattern).
    public var showPath: Bool = true
    public var errorDuration: Duration = .milliseconds(1000)
    public var successDuration: Duration = .milliseconds(1500)
    public var schedule: LockoutSchedule = .android
    /// A finger that stays down this long with no event is treated as a stuck controller; nil: never.
    public var stuckTouchTimeout: Duration? = .milliseconds(5000)

    public init() {}
}
