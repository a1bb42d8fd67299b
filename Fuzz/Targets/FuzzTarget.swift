/// One fuzz target: what `gridlock-fuzz NAME` runs for each input libFuzzer makes, and what
/// the regression test replays for each file in `Tests/Fixtures/fuzz-regressions/NAME/`.
///
/// `run` returns normally for every input the code under test handles correctly (refusing
/// it is correct too); it throws a `FuzzFinding` when a property that must hold for every
/// input does not (a round trip, two parsers that must agree, an invariant of the lock
/// machine). A trap in the code under test is a finding as well: libFuzzer catches it.
public struct FuzzTarget: Sendable {
    public let name: String
    /// One line for `gridlock-fuzz --list` and docs/reliability.md.
    public let summary: String
    /// The longest input worth trying (libFuzzer's `-max_len`).
    public let maximumLength: Int
    public let run: @Sendable ([UInt8]) throws(FuzzFinding) -> Void
    /// Starting inputs: made from the files in `Tests/Fixtures` (its path is passed in)
    /// and by hand. Written to a build folder by `gridlock-fuzz --write-seeds`, never committed.
    public let seeds: @Sendable (_ fixtures: String) -> [FuzzSeed]

    public init(
        name: String, summary: String, maximumLength: Int,
        run: @escaping @Sendable ([UInt8]) throws(FuzzFinding) -> Void,
        seeds: @escaping @Sendable (_ fixtures: String) -> [FuzzSeed]
    ) {
        self.name = name
        self.summary = summary
        self.maximumLength = maximumLength
        self.run = run
        self.seeds = seeds
    }
}

public struct FuzzSeed: Hashable, Sendable {
    public var name: String
    public var bytes: [UInt8]

    public init(_ name: String, _ bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    public init(_ name: String, text: String) {
        self.init(name, Array(text.utf8))
    }
}

/// A property that must hold for every input did not.
public struct FuzzFinding: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// Throws `FuzzFinding(message)` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFinding) {
    if !condition { throw FuzzFinding(message()) }
}

public enum FuzzTargets {
    /// In the order `make fuzz` runs them.
    public static let all: [FuzzTarget] = [
        evemu, touchPipeline, config, attemptFile, argon2Hash, patternText, messageTemplate, sessionMessage, timeConversion,
    ]

    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
