/// What limits a pattern beyond its hash: when it may be used and how often.
public struct PatternLimits: Hashable, Sendable {
    public var schedule: PatternSchedule
    /// `uses=N`: accepted unlocks in all; nil without limit.
    public var uses: Int?

    public init(schedule: PatternSchedule = PatternSchedule(), uses: Int? = nil) {
        self.schedule = schedule
        self.uses = uses
    }

    public static let none = PatternLimits()
}

/// Why a pattern whose hash matched is still refused (it counts as a wrong pattern).
public enum PatternRefusal: Hashable, Sendable, CustomStringConvertible {
    case schedule(ScheduleRefusal)
    /// The pattern has a schedule and the clock is not known to be right.
    case clockUntrusted
    case usedUp(uses: Int)
    /// The state file was damaged, lost or put back older, so the uses left are unknown.
    case usesUnknown

    public var description: String {
        switch self {
        case .schedule(let refusal): "\(refusal)"
        case .clockUntrusted:
            "it has a schedule and the system clock is not synchronised (set [security] trust-unsynchronised-clock=true to accept that)"
        case .usedUp(let uses): "it is used up (all \(uses) uses taken)"
        case .usesUnknown:
            "its uses left are unknown (the state file was damaged, lost or put back older); if it was not used meanwhile, gridlock reset-lockout --uses with its name starts them afresh"
        }
    }
}

/// The wall clock as the shell reads it, for schedules.
public struct WallTime: Hashable, Sendable {
    public var local: LocalDateTime
    /// Seconds since the Unix epoch (what the state file records as a last use).
    public var epochSeconds: Int64
    /// The kernel says an NTP source disciplines the clock.
    public var synchronised: Bool

    public init(local: LocalDateTime, epochSeconds: Int64, synchronised: Bool) {
        self.local = local
        self.epochSeconds = epochSeconds
        self.synchronised = synchronised
    }
}

extension PatternLimits {
    /// Nil when a pattern with these limits may unlock now, having been accepted `used`
    /// times before (nil: not known). A schedule needs a clock known to be right unless
    /// `trustUnsynchronisedClock`: a panel without one fails closed.
    public func refusal(at time: WallTime, used: Int?, trustUnsynchronisedClock: Bool) -> PatternRefusal? {
        if !schedule.isUnrestricted {
            if !time.synchronised, !trustUnsynchronisedClock { return .clockUntrusted }
            if let refusal = schedule.refusal(at: time.local) { return .schedule(refusal) }
        }
        if let uses {
            guard let used else { return .usesUnknown }
            if used >= uses { return .usedUp(uses: uses) }
        }
        return nil
    }
}
