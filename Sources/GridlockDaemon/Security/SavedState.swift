import GridlockCore

/// Everything the state file keeps: the failure count, and for each pattern how often it
/// was accepted and when last. One file, replaced atomically, so a power cut never leaves
/// the count and the uses out of step.
public struct SavedState: Hashable, Sendable {
    public var attempts: AttemptState
    /// By pattern name.
    public var patterns: [String: PatternUse]
    /// The file was unreadable or corrupt once and has not been reset since: nobody knows how
    /// often a limited pattern was used, so none of them opens (`PatternRefusal.usesUnknown`).
    public var usesLost: Bool

    public init(attempts: AttemptState = .clean, patterns: [String: PatternUse] = [:], usesLost: Bool = false) {
        self.attempts = attempts
        self.patterns = patterns
        self.usesLost = usesLost
    }

    public static let clean = SavedState()

    /// How often the pattern with this name and hash was accepted; nil when unknown. A
    /// record of another hash (the name was enrolled again) does not count.
    public func uses(of name: String, hash: String) -> Int? {
        if usesLost { return nil }
        guard let use = patterns[name], use.hashTag == PatternUse.tag(of: hash) else { return 0 }
        return use.count
    }

    /// When the pattern with this name and hash last opened (seconds since the epoch).
    public func lastAccepted(of name: String, hash: String) -> Int64? {
        guard let use = patterns[name], use.hashTag == PatternUse.tag(of: hash) else { return nil }
        return use.lastAccepted
    }

    /// One more accepted unlock of the pattern, at `epochSeconds`.
    public mutating func noteAccepted(_ name: String, hash: String, at epochSeconds: Int64) {
        let tag = PatternUse.tag(of: hash)
        let earlier = patterns[name].flatMap { $0.hashTag == tag ? $0.count : nil } ?? 0
        patterns[name] = PatternUse(count: min(earlier + 1, AttemptState.maximumFailures), hashTag: tag, lastAccepted: epochSeconds)
    }
}

public struct PatternUse: Hashable, Sendable {
    /// Accepted unlocks since it was enrolled with this hash.
    public var count: Int
    /// CRC-32 of the hash: which enrolment the count belongs to, without storing the hash.
    public var hashTag: UInt32
    /// Seconds since the epoch (wall clock, for people; never for lockouts).
    public var lastAccepted: Int64?

    public init(count: Int, hashTag: UInt32, lastAccepted: Int64?) {
        self.count = count
        self.hashTag = hashTag
        self.lastAccepted = lastAccepted
    }

    static func tag(of hash: String) -> UInt32 { CRC32.checksum(Array(hash.utf8)) }
}
