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
    /// The pattern has a schedule and the clock's reading cannot be converted (a clock far
    /// out of range, a zone that fails): it fails closed.
    case timeUnknown(TimeConversionError)

    public var description: String {
        switch self {
        case .schedule(let refusal): "\(refusal)"
        case .clockUntrusted:
            "it has a schedule and the system clock is not synchronised (set [security] trust-unsynchronised-clock=true to accept that)"
        case .usedUp(let uses): "it is used up (all \(uses) uses taken)"
        case .usesUnknown:
            "its uses left are unknown (the state file was damaged, lost or put back older); if it was not used meanwhile, gridlock reset-lockout --uses with its name starts them afresh"
        case .timeUnknown(let error): "it has a schedule and the time cannot be told: \(error)"
        }
    }
}

/// The wall clock as the shell reads it, for schedules: the instant, and the zone that
/// turns it and the schedule's local times into one another.
public struct WallTime: Sendable {
    /// Seconds since the Unix epoch, UTC (also what the state file records as a last use).
    public var epochSeconds: Int64
    public var zone: any TimeZoneRules
    /// The kernel says an NTP source disciplines the clock.
    public var synchronised: Bool

    public init(epochSeconds: Int64, zone: any TimeZoneRules, synchronised: Bool) {
        self.epochSeconds = epochSeconds
        self.zone = zone
        self.synchronised = synchronised
    }
}

extension PatternLimits {
    /// Nil when a pattern with these limits may unlock now, having been accepted `used`
    /// times before (nil: not known). A schedule needs a clock known to be right unless
    /// `trustUnsynchronisedClock`: a panel without one fails closed, and so does one whose
    /// reading cannot be converted.
    public func refusal(at time: WallTime, used: Int?, trustUnsynchronisedClock: Bool) -> PatternRefusal? {
        if !schedule.isUnrestricted {
            if !time.synchronised, !trustUnsynchronisedClock { return .clockUntrusted }
            do {
                if let refusal = try schedule.refusal(at: time.epochSeconds, in: time.zone) { return .schedule(refusal) }
            } catch {
                return .timeUnknown(error)
            }
        }
        if let uses {
            guard let used else { return .usesUnknown }
            if used >= uses { return .usedUp(uses: uses) }
        }
        return nil
    }
}
