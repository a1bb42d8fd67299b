import Foundation
import Glibc
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockDaemon

/// kill -9 at random points of a thousand writes: the state file always parses and never
/// shows fewer failures than a writer reported persisted.
@Suite struct AttemptStoreCrashTests {
    /// The writer is built beside the test bundle by `swift build --build-tests`.
    static var writer: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("gridlock-test-attempt-writer").path
    }

    @Test func killedWritersNeverLoseOrCorruptTheCount() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let path = "\(folder)/attempts"
        try #require(FileManager.default.isExecutableFile(atPath: Self.writer), "build the writer: swift build --build-tests")

        var generator = SystemRandomNumberGenerator()
        var persisted = 0   // the highest count a writer reported after its save returned
        var kills = 0
        var writes = 0
        var rounds = 0
        while writes < 1_000, rounds < 5_000 {
            rounds += 1
            let process = try SpawnedProcess.spawn(argv: [Self.writer, path, "200"], environment: [])
            // A save with its two fsyncs takes milliseconds: kill within the first few of them,
            // at a random point (before the first save, mid-write, mid-rename, mid-fsync...).
            usleep(UInt32.random(in: 0...30_000, using: &generator))
            try process.signalGroup(.kill)
            var status: LinuxSys.ExitStatus?
            while status == nil { status = try process.tryWait(); if status == nil { usleep(1_000) } }
            let output = String(decoding: try process.readAvailableOutput(), as: UTF8.self)
            #expect(!output.contains("corrupt") && !output.contains("error"), "writer saw: \(output)")
            let reported = output.split(separator: "\n").compactMap { line in
                line.hasPrefix("persisted ") ? Int(line.dropFirst(10)) : nil
            }
            if status == .signaled(SIGKILL) { kills += 1 }

            switch AttemptStore.load(from: path) {
            case .loaded(let state):
                let before = persisted
                persisted = max(persisted, reported.max() ?? 0)
                // Never fewer than reported; at most one save ahead of the report (killed between save and print).
                #expect(state.failures >= persisted, "file shows \(state.failures), \(persisted) were persisted")
                #expect(state.failures <= persisted + 1)
                writes += state.failures - before
                persisted = state.failures
            case .missing:
                #expect(persisted == 0, "the file vanished after \(persisted) persisted failures")
            case .corrupt(let reason):
                Issue.record("corrupt after a kill: \(reason)")
                return
            case .unreadable(let error):
                Issue.record("unreadable after a kill: \(error)")
                return
            }
        }
        #expect(kills > 0, "no writer was ever killed mid-burst")
        #expect(persisted >= 1_000)
    }
}
