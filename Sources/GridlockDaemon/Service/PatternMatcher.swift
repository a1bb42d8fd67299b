import GridlockConfiguration
import GridlockCore

/// Checks a drawn pattern against every enrolled hash.
///
/// Every hash is checked even after a match, so the time taken does not tell an observer
/// which pattern (a duress one, say) matched or how many are enrolled before it.
public struct PatternMatcher: Sendable {
    public struct Entry: Sendable {
        public var name: String
        public var hash: String
    }

    public let shape: GridShape
    public let entries: [Entry]
    private let hasher: PatternHasher

    public init(shape: GridShape, entries: [Entry], hasher: PatternHasher) {
        self.shape = shape
        self.entries = entries
        self.hasher = hasher
    }

    public init(config: GridlockConfig, hasher: PatternHasher) {
        self.init(
            shape: config.grid.shape,
            entries: config.patterns.map { Entry(name: $0.name, hash: $0.hash) },
            hasher: hasher
        )
    }

    /// The same hasher over a reloaded configuration's patterns.
    public func updated(for config: GridlockConfig) -> PatternMatcher {
        PatternMatcher(config: config, hasher: hasher)
    }

    /// Whether `other` gives every drawing the verdict this one gives: the same grid and
    /// the same names and hashes in the same order (the hasher is the same one).
    public func checksAlike(_ other: PatternMatcher) -> Bool {
        shape == other.shape && entries.map(\.name) == other.entries.map(\.name) && entries.map(\.hash) == other.entries.map(\.hash)
    }

    /// The first enrolled pattern that matches, or nil. The match carries the hash it was
    /// made with, so whoever acts on it can tell whether that hash is still enrolled.
    public func match(_ pattern: Pattern) -> PatternMatch? {
        let message = pattern.hashMessage(shape: shape)
        var matched: PatternMatch?
        for entry in entries where hasher.verify(hash: entry.hash, message: message) {
            if matched == nil { matched = PatternMatch(name: entry.name, hash: entry.hash) }
        }
        return matched
    }
}

/// A drawn pattern matched this enrolled one: its name and the hash that matched.
public struct PatternMatch: Hashable, Sendable {
    public var name: String
    public var hash: String

    public init(name: String, hash: String) {
        self.name = name
        self.hash = hash
    }
}
