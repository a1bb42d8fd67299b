import GridlockConfiguration
import GridlockCore

/// Everything the state file keeps: the failure count, and for each pattern how often it
/// was accepted and when last. One file, replaced atomically, so a power cut never leaves
/// the count and the uses out of step.
public struct SavedState: Hashable, Sendable {
    public var attempts: AttemptState
    /// By pattern name: only patterns of the configuration (`keeping(only:)`), so the file
    /// stays as small as the configuration allows.
    public var patterns: [String: PatternUse]
    /// Nobody knows how often a pattern without a line here was used: the file was damaged,
    /// lost or of version 1. `keeping(only:)` turns it into an unknown count for each pattern
    /// configured at that moment (`PatternRefusal.usesUnknown` for the limited ones); a
    /// pattern enrolled later has a new hash and nothing to be unknown about.
    public var usesLost: Bool
    /// How many times the file was written, ever: a copy of an older file put back in place
    /// has a smaller one than the state witness remembers (`StateWitness`).
    public var generation: Int64

    public init(attempts: AttemptState = .clean, patterns: [String: PatternUse] = [:], usesLost: Bool = false, generation: Int64 = 0) {
        self.attempts = attempts
        self.patterns = patterns
        self.usesLost = usesLost
        self.generation = generation
    }

    public static let clean = SavedState()

    /// What the file's digits can hold; a counter written once a second would take 30
    /// billion years to get there, and at the top it stays (never wraps to look older).
    public static let maximumGeneration: Int64 = 999_999_999_999_999_999

    /// How often the pattern with this name and hash was accepted; nil when unknown. A
    /// record of another hash (the name was enrolled again) does not count.
    public func uses(of name: String, hash: String) -> Int? {
        guard let use = patterns[name], use.hashTag == PatternUse.tag(of: hash) else { return usesLost ? nil : 0 }
        return use.count
    }

    /// When the pattern with this name and hash last opened (seconds since the epoch).
    public func lastAccepted(of name: String, hash: String) -> Int64? {
        guard let use = patterns[name], use.hashTag == PatternUse.tag(of: hash) else { return nil }
        return use.lastAccepted
    }

    /// One more accepted unlock of the pattern, at `epochSeconds`. An unknown count stays
    /// unknown: one more than "unknown" is still unknown.
    public mutating func noteAccepted(_ name: String, hash: String, at epochSeconds: Int64) {
        let tag = PatternUse.tag(of: hash)
        let earlier = uses(of: name, hash: hash)
        patterns[name] = PatternUse(count: earlier.map { min($0 + 1, AttemptState.maximumFailures) }, hashTag: tag, lastAccepted: epochSeconds)
    }

    /// The uses of `name` (as it is configured now) start afresh: an administrator's
    /// `gridlock reset-lockout --uses NAME`.
    public mutating func startUsesAfresh(of name: String, hash: String) {
        patterns[name] = PatternUse(count: 0, hashTag: PatternUse.tag(of: hash), lastAccepted: lastAccepted(of: name, hash: hash))
    }

    /// Only the lines of `configured` patterns (same name, same hash) are kept: a pattern
    /// removed or enrolled again leaves nothing behind, so the file is bounded by the
    /// configuration (`GridlockConfig.maximumPatterns`). Lost uses become unknown counts of
    /// the patterns configured now.
    public func keeping(only configured: [PatternEntry]) -> SavedState {
        var kept = self
        kept.patterns = [:]
        kept.usesLost = false
        for pattern in configured {
            let tag = PatternUse.tag(of: pattern.hash)
            if let use = patterns[pattern.name], use.hashTag == tag {
                kept.patterns[pattern.name] = use
            } else if usesLost {
                kept.patterns[pattern.name] = PatternUse(count: nil, hashTag: tag, lastAccepted: nil)
            }
        }
        return kept
    }

    /// Every count unknown, as after damage: what was there is kept for the times only.
    public func losingUses() -> SavedState {
        var lost = self
        lost.usesLost = true
        for name in lost.patterns.keys { lost.patterns[name]?.count = nil }
        return lost
    }
}

public struct PatternUse: Hashable, Sendable {
    /// Accepted unlocks since it was enrolled with this hash; nil: unknown (the file was
    /// damaged or lost since), so a limited pattern does not open.
    public var count: Int?
    /// CRC-32 of the hash: which enrolment the count belongs to, without storing the hash.
    public var hashTag: UInt32
    /// Seconds since the epoch (wall clock, for people; never for lockouts).
    public var lastAccepted: Int64?

    public init(count: Int?, hashTag: UInt32, lastAccepted: Int64?) {
        self.count = count
        self.hashTag = hashTag
        self.lastAccepted = lastAccepted
    }

    static func tag(of hash: String) -> UInt32 { CRC32.checksum(Array(hash.utf8)) }
}
