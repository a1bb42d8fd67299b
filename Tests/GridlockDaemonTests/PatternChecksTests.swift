import Foundation
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// `PatternChecks` under reloads, by order alone: the verifier holds each check until the
/// test lets it go, so every reload lands inside the check it is meant to.
@Suite struct PatternChecksTests {
    static let hasher = ReplayTests.hasher
    static let drawn = try! Pattern(text: "1-2-3-6-9", shape: try! GridShape(rows: 3, columns: 3))

    static func config(door drawing: String, minNodes: Int = 4, note: String = "") throws -> GridlockConfig {
        var config = GridlockConfig()
        config.grid.minNodes = minNodes
        let hash = try hasher.hash(message: "3x3:\(drawing)", cost: ReplayTests.cheap)
        config.patterns = [PatternEntry(name: "door", hash: hash, source: SourceLocation(file: "test\(note)", line: 1))]
        return config
    }

    final class Verdicts {
        var received: [PatternMatch?] = []
    }

    func checks(_ config: GridlockConfig, _ verifier: HeldVerifier, _ verdicts: Verdicts) -> PatternChecks {
        PatternChecks(
            matcher: PatternMatcher(config: config, hasher: Self.hasher), minimumNodes: config.grid.minNodes, verifier: verifier
        ) { verdicts.received.append($0) }
    }

    @Test("a storm of reloads that change nothing a check depends on: one verification, and the verdict comes")
    func unchangedReloadsDoNotRestartTheCheck() throws {
        let verifier = HeldVerifier(), verdicts = Verdicts()
        let first = try Self.config(door: "1-2-3-6-9")
        let checks = checks(first, verifier, verdicts)
        let recorder = JournalRecorder()
        Journal.$recorder.withValue(recorder) {
            checks.begin(Self.drawn)
            for storm in 0..<200 {
                // Another file, another line, a colour: the same grid, names and hashes.
                var same = first
                same.patterns[0].source = SourceLocation(file: "storm-\(storm)", line: storm)
                same.theme.node = Color(hex: String(format: "#0000%02X", storm % 256))!
                checks.configurationChanged(to: same)
            }
            verifier.releaseAll()
        }
        #expect(verifier.requests == 1)
        #expect(verdicts.received == [PatternMatch(name: "door", hash: first.patterns[0].hash)])
        #expect(!recorder.messages.contains { $0.contains("checking it again") })
    }

    @Test("reloads that change the patterns during every check: at most three checks again, then the stroke is refused and said so")
    func aStormOfChangesEndsInARefusal() throws {
        let verifier = HeldVerifier(), verdicts = Verdicts()
        let drawings = ["1-2-3-6-9", "7-8-9-6-3", "1-2-3-6-9", "7-8-9-6-3", "1-2-3-6-9", "7-8-9-6-3"]
        let checks = checks(try Self.config(door: drawings[0]), verifier, verdicts)
        let recorder = JournalRecorder()
        try Journal.$recorder.withValue(recorder) {
            checks.begin(Self.drawn)
            for drawing in drawings.dropFirst() {
                // Each reload lands while the check is held, then the check comes back.
                checks.configurationChanged(to: try Self.config(door: drawing))
                verifier.releaseAll()
            }
        }
        #expect(verifier.requests == 1 + PatternChecks.maximumRechecks)
        #expect(verdicts.received.count == 1)
        #expect(verdicts.received.first == .some(nil), "refused, counted as a wrong pattern")
        let refusal = recorder.entries.last
        #expect(refusal?.message.contains("changed 4 times while the drawn pattern was checked; refusing it") == true, "\(recorder.messages)")
        #expect(refusal?.fields.fields["GRIDLOCK_REASON"] == "configuration-changing")
    }

    @Test("a reload that raised min-nodes past the drawing during its check refuses it, whatever its hash says")
    func aRaisedMinimumRefusesTheDrawing() throws {
        let verifier = HeldVerifier(), verdicts = Verdicts()
        let before = try Self.config(door: "1-2-3-6-9", minNodes: 4)
        var raised = before
        raised.grid.minNodes = 6
        let checks = checks(before, verifier, verdicts)
        let recorder = JournalRecorder()
        Journal.$recorder.withValue(recorder) {
            checks.begin(Self.drawn)
            checks.configurationChanged(to: raised)
            verifier.releaseAll()
        }
        #expect(verifier.requests == 1, "the hashes did not change: no second check")
        #expect(verdicts.received == [nil])
        #expect(recorder.messages.last?.contains("needs at least 6 nodes, the drawing has 5") == true, "\(recorder.messages)")
    }
}
