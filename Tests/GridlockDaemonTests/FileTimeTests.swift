import Foundation
import Glibc
import GridlockCore
import GridlockDisplay
import GridlockRendering
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// File times at the ends of what a file system can stamp: `touch -d 2300-01-01` (past
/// 2262-04-11, where nanoseconds since 1970 leave `Int64`) and `touch -d 1900-01-01` (before
/// 1970), on every file the verdict looks at. Each is judged like any other stamp: never a
/// trap, never a refusal for the time alone.
@Suite struct FileTimeTests {
    /// 2300-01-01T00:00:00Z and 1900-01-01T00:00:00Z.
    static let stamps: [(name: String, seconds: Int64)] = [("2300", 10_413_792_000), ("1900", -2_208_988_800)]

    struct Stamp: Sendable, CustomTestStringConvertible {
        let name: String
        let seconds: Int64
        var testDescription: String { "a file time in \(name)" }
    }

    static let stampCases = stamps.map { Stamp(name: $0.name, seconds: $0.seconds) }

    static func stamp(_ path: String, _ seconds: Int64) throws {
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: 123_456_789), timespec(tv_sec: Int(seconds), tv_nsec: 987_654_321)]
        try #require(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0, "utimensat \(path): \(errno)")
    }

    /// glibc's `makedev`, a macro Swift does not import.
    static func device(_ major: UInt32, _ minor: UInt32) -> dev_t {
        let major = UInt64(major), minor = UInt64(minor)
        let high: UInt64 = (major & 0xFFFF_F000) << 32 | (major & 0xFFF) << 8
        let low: UInt64 = (minor & 0xFFFF_FF00) << 12 | (minor & 0xFF)
        return dev_t(high | low)
    }

    /// What each kind of key is happy to name, made in `folder`.
    static func acceptable(_ key: NamedFileTests.PathKey, in folder: String) throws -> String {
        let path = "\(folder)/named"
        switch key.kind {
        case .themeImage:
            try PNGFile.write(try ShadowBuffer(width: 8, height: 8), to: path)
        case .font:
            try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: path)
        case .touchDevice where key.isRecording:
            try FileManager.default.copyItem(atPath: ConfigFixtures.root.appendingPathComponent("Tests/Fixtures/protocol-b-1-2-3-6-9.evemu").path, toPath: path)
        case .touchDevice, .beeper:
            try #require(mknod(path, S_IFCHR | 0o600, Self.device(NamedFileCheck.inputMajor, 64)) == 0)
        case .displayCard:
            try #require(mknod(path, S_IFCHR | 0o600, Self.device(NamedFileCheck.drmMajor, 0)) == 0)
        case .folder:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            chmod(path, 0o700)
        case .stateFile:
            try AttemptStore.save(SavedState(), to: path)
        case .socket:
            let socket = try #require(Optional(Glibc.socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0)))
            defer { close(socket) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(bound == 0, "bind \(path): \(errno)")
        }
        return path
    }

    @Test("every key naming a file takes one stamped in 2300 or 1900, with the config and its drop-in stamped so too",
          arguments: NamedFileTests.pathKeys, stampCases)
    func farFileTimesAreJudgedNotTrapped(_ pathKey: NamedFileTests.PathKey, _ stamp: Stamp) throws {
        let folder = try ConfigFixtures.scratch([:])
        defer { ConfigFixtures.remove(folder) }
        chmod(folder, 0o700)
        let named = try Self.acceptable(pathKey, in: folder)
        let config = "\(folder)/gridlock.conf"
        let lines = ["[\(pathKey.section)]"] + pathKey.before + ["\(pathKey.key)=\(named)"]
        try (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        let dropIns = "\(folder)/gridlock.conf.d"
        try FileManager.default.createDirectory(atPath: dropIns, withIntermediateDirectories: false)
        chmod(dropIns, 0o700)
        try "[grid]\nmin-nodes=4\n".write(toFile: "\(dropIns)/10-grid.conf", atomically: true, encoding: .utf8)
        chmod("\(dropIns)/10-grid.conf", 0o600)
        for path in [named, config, "\(dropIns)/10-grid.conf", dropIns, folder] { try Self.stamp(path, stamp.seconds) }

        let check = ConfigVerdict.check(path: config).check
        #expect(check.diagnostics.isEmpty, "\(pathKey.testDescription) stamped \(stamp.name): \(check.diagnostics)")
        #expect(check.files == [config, "\(dropIns)/10-grid.conf"])
    }

    @Test("a stamp or a clock at either end of Int64 is no change in progress, and the settling wait still ends")
    func theSettlingWindowSaturates() {
        let window = ConfigVerdict.settlingWindow
        // A clock set past 2262 (faketime '2300-01-01' stamps the files so too): no wait
        // could pass the end of Int64, so no change counts as in progress.
        #expect(ConfigVerdict.recentChange([.max], readBegan: .max, now: .max) == nil)
        #expect(ConfigVerdict.recentChange([Int64.max - 1], readBegan: .max, now: .max) == nil)
        #expect(ConfigVerdict.recentChange([.max], readBegan: 1_000, now: 2_000) == nil)
        #expect(ConfigVerdict.recentChange([.min], readBegan: .min, now: .min) == nil)
        #expect(ConfigVerdict.recentChange([.min], readBegan: 1_000, now: 2_000) == nil)
        // Near the ends but not at them, the window still works.
        let late = Int64.max - 10 * window
        #expect(ConfigVerdict.recentChange([late - window / 2], readBegan: late, now: late) == late - window / 2)
        // The wait is bounded by its limit from now, whatever the stamp: it returns, and
        // at once for a stamp at the end of time.
        FileTimestampClock.wait(past: .max, limit: 0)
        FileTimestampClock.wait(past: .max, limit: .max)
        FileTimestampClock.wait(past: .min)
    }

    @Test("file identities hold stamps past 2262 exactly: two such times a nanosecond apart differ")
    func identitiesKeepFarStampsApart() throws {
        let folder = try ConfigFixtures.scratch(["a": "x"])
        defer { ConfigFixtures.remove(folder) }
        let path = "\(folder)/a"
        var times = [timespec(tv_sec: 10_413_792_000, tv_nsec: 1), timespec(tv_sec: 10_413_792_000, tv_nsec: 1)]
        try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let first = try FileStatus(path: path).identity
        times[1].tv_nsec = 2
        try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let second = try FileStatus(path: path).identity
        #expect(first.modified == FileTime(seconds: 10_413_792_000, nanoseconds: 1))
        #expect(first != second)
        #expect(first.modified.nanosecondsSinceEpoch == .max)
        let past = FileTime(seconds: -10_413_792_000, nanoseconds: 0)
        #expect(past.nanosecondsSinceEpoch == .min)
        #expect(past < first.modified)
    }
}
