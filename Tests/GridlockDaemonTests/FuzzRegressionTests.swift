import Foundation
import Glibc
import GridlockFuzzing
import LinuxSys
import Testing

/// Every input with which a fuzzer ever broke a target (`make fuzz` saves them as
/// Tests/Fixtures/fuzz-regressions/TARGET/FILE), replayed through the same target code the
/// fuzzer runs (Fuzz/Targets), so a bug it found stays fixed. Each input runs in a child
/// process (`gridlock-test-fuzz-replay`): one that still traps fails its own test, not the
/// whole run.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The replayer is built beside the test bundle by `swift build --build-tests`.
    static var replayer: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("gridlock-test-fuzz-replay").path
    }

    struct Input: Sendable, CustomTestStringConvertible {
        var target: String
        var file: String
        var path: String
        var testDescription: String { "\(target)/\(file)" }
    }

    static func inputs() throws -> [Input] {
        let root = folder.appendingPathComponent("fuzz-regressions")
        var inputs: [Input] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() where !target.hasPrefix(".") {
            let directory = root.appendingPathComponent(target)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where !file.hasPrefix(".") {
                inputs.append(Input(target: target, file: file, path: directory.appendingPathComponent(file).path))
            }
        }
        return inputs
    }

    @Test("every folder is a target and holds inputs") func everyFolderIsATargetAndHoldsInputs() throws {
        let root = Self.folder.appendingPathComponent("fuzz-regressions").path
        let folders = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") }
        for name in folders {
            #expect(FuzzTargets.named(name) != nil, "fuzz-regressions/\(name) is not a fuzz target")
        }
        #expect(try Self.inputs().count >= folders.count, "a fuzz-regressions folder without inputs")
    }

    /// The child writes a finding to its output and exits 0; a trap kills it, and a crash
    /// report, if any, is its output too.
    @Test("input stays fixed", arguments: try inputs())
    func inputStaysFixed(_ input: Input) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.replayer), "build the replayer: swift build --build-tests")
        let process = try SpawnedProcess.spawn(argv: [Self.replayer, input.target, input.path], environment: [])
        // Read while it runs: a crash report could be more than the pipe holds.
        var output: [UInt8] = []
        while !process.outputEnded {
            _ = process.outputFD.waitUntilReadable(milliseconds: 1_000)
            output += try process.readOutput(maximumBytes: SpawnedProcess.pipeCapacity)
        }
        let status = try process.waitForExit().status
        #expect(status == .exited(0), "\(input.testDescription): the replay ended with \(status)")
        if !output.isEmpty {
            Issue.record("\(input.testDescription): \(String(decoding: output, as: UTF8.self))")
        }
    }

    /// The seeds `make fuzz` starts from pass every target: a harness whose own seeds fail
    /// would only ever report itself.
    @Test("seeds pass", arguments: FuzzTargets.all.map(\.name))
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
