import Foundation
import GridlockFuzzing
import Testing

/// Every input with which a fuzzer ever broke a target (`make fuzz` saves them as
/// Tests/Fixtures/fuzz-regressions/TARGET/FILE), replayed through the same target code the
/// fuzzer runs (Fuzz/Targets), so a bug it found stays fixed. Each input runs in a child
/// process (an exit test): one that still traps fails its own test, not the whole run.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    struct Input: Sendable, CustomTestStringConvertible {
        var target: String
        var file: String
        var bytes: [UInt8]
        var testDescription: String { "\(target)/\(file)" }
    }

    static func inputs() throws -> [Input] {
        let root = folder.appendingPathComponent("fuzz-regressions")
        var inputs: [Input] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() where !target.hasPrefix(".") {
            let directory = root.appendingPathComponent(target)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where !file.hasPrefix(".") {
                let data = try Data(contentsOf: directory.appendingPathComponent(file))
                inputs.append(Input(target: target, file: file, bytes: Array(data)))
            }
        }
        return inputs
    }

    @Test func everyFolderIsATargetAndHoldsInputs() throws {
        let root = Self.folder.appendingPathComponent("fuzz-regressions").path
        let folders = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") }
        for name in folders {
            #expect(FuzzTargets.named(name) != nil, "fuzz-regressions/\(name) is not a fuzz target")
        }
        #expect(try Self.inputs().count >= folders.count, "a fuzz-regressions folder without inputs")
    }

    /// A finding is written to stderr and the child exits normally, so that its text is
    /// shown (a failed exit condition returns no result to read it from); a trap fails the
    /// exit condition.
    @Test(arguments: try inputs())
    func inputStaysFixed(_ input: Input) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [target = input.target as String, bytes = input.bytes as [UInt8]] in
            defer { FuzzScratch.removeAll() }
            do {
                try FuzzTargets.named(target)?.run(bytes)
            } catch {
                FileHandle.standardError.write(Data("\(error)".utf8))
            }
        }
        if let result, !result.standardErrorContent.isEmpty {
            Issue.record("\(input.testDescription): \(String(decoding: result.standardErrorContent, as: UTF8.self))")
        }
    }

    /// The seeds `make fuzz` starts from pass every target: a harness whose own seeds fail
    /// would only ever report itself.
    @Test(arguments: FuzzTargets.all.map(\.name))
    func seedsPass(_ name: String) throws {
        defer { FuzzScratch.removeAll() }
        let target = try #require(FuzzTargets.named(name))
        let seeds = target.seeds(Self.folder.path)
        #expect(!seeds.isEmpty)
        for seed in seeds {
            #expect(throws: Never.self, "\(name)/\(seed.name)") { try target.run(seed.bytes) }
        }
    }
}
