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

    @Test("killed writers never lose or corrupt the count") func killedWritersNeverLoseOrCorruptTheCount() throws {
        try killWriters(mode: [], reportPrefix: "persisted ", target: 1_000) { $0.attempts.failures }
    }

    /// The use of a limited pattern is on disk before its action may run: a kill at any
    /// moment never leaves the file with fewer uses than the writer was told were saved.
    @Test("killed use writers never give a free use") func killedUseWritersNeverGiveAFreeUse() throws {
        let hash = "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"
        try killWriters(mode: ["uses"], reportPrefix: "used ", target: 300) { $0.uses(of: "visitor", hash: hash) ?? -1 }
    }

    /// Kills writers at random points until `target` counts were reported saved; after each
    /// kill the file must parse and its `count` be the highest reported, or one more.
    private func killWriters(
        mode: [String], reportPrefix: String, target: Int, count: (SavedState) -> Int
    ) throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let path = "\(folder)/attempts"
        try #require(FileManager.default.isExecutableFile(atPath: Self.writer), "build the writer: swift build --build-tests")

        var generator = SystemRandomNumberGenerator()
        var persisted = 0   // the highest count a writer reported after its save returned
        var kills = 0
        var rounds = 0
        // A save with its fsyncs takes milliseconds, more on a busy disk: the kill comes at a
        // random point within a window that follows how far writers get here, so that it
        // lands within their first few saves (before the first, mid-write, mid-rename,
        // mid-fsync, between the file and its witness...) however fast the machine is.
        var window: UInt32 = 30_000
        while persisted < target, rounds < 5_000 {
            rounds += 1
            let process = try SpawnedProcess.spawn(argv: [Self.writer, path, "200"] + mode, environment: [])
            usleep(UInt32.random(in: 0...window, using: &generator))
            try process.signalGroup(.kill)
            var status: LinuxSys.ExitStatus?
            while status == nil { status = try process.tryWait(); if status == nil { usleep(1_000) } }
            let output = String(decoding: try process.readOutput(maximumBytes: SpawnedProcess.pipeCapacity), as: UTF8.self)
            #expect(!output.contains("corrupt") && !output.contains("error"), "writer saw: \(output)")
            let reported = output.split(separator: "\n").compactMap { line in
                line.hasPrefix(reportPrefix) ? Int(line.dropFirst(reportPrefix.count)) : nil
            }
            if status == .signaled(SIGKILL) { kills += 1 }
            if reported.isEmpty { window = min(window + window / 4, 2_000_000) }
            if reported.count > 3 { window = max(window - window / 5, 2_000) }

            // What gridlockd would make of it at its start, witness and all: never damage.
            let restored = StateFile.inspect(path, schedule: .android, patterns: nil)
            #expect(restored.damage == nil, "after a kill the state file \(restored.damage ?? "")")
            switch AttemptStore.load(from: path) {
            case .loaded(let saved):
                let onDisk = count(saved)
                persisted = max(persisted, reported.max() ?? 0)
                // Never fewer than reported; at most one save ahead of the report (killed between save and print).
                #expect(onDisk >= persisted, "file shows \(onDisk), \(persisted) were saved")
                #expect(onDisk <= persisted + 1)
                persisted = onDisk
            case .missing:
                #expect(persisted == 0, "the file vanished after \(persisted) saves")
            case .corrupt(let reason):
                Issue.record("corrupt after a kill: \(reason)")
                return
            case .unreadable(let error):
                Issue.record("unreadable after a kill: \(error)")
                return
            }
        }
        #expect(kills > 0, "no writer was ever killed mid-burst")
        #expect(persisted >= target)
    }
}
