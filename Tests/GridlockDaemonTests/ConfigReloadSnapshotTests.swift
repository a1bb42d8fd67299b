import Foundation
import Glibc
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockDaemon

/// A configuration caught while someone writes it in place is read again, never taken
/// half-written (`ConfigVerdict.check`'s snapshot).
@Suite struct ConfigReloadSnapshotTests {
    static let hash = ConfigSafetyTests.hash

    /// What an editor saving in place does: truncate, then write.
    func writeInPlace(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_TRUNC)
        precondition(fd >= 0, "open \(path)")
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }

    func setup(_ text: String) throws -> (folder: String, path: String) {
        let folder = try ConfigFixtures.scratch(["gridlock.conf": text])
        chmod("\(folder)/gridlock.conf", 0o600)
        chmod(folder, 0o755)
        return (folder, "\(folder)/gridlock.conf")
    }

    @Test("a file rewritten in place between the read and the check, same size and same clock tick, is read again")
    func aRewriteBetweenReadAndCheckIsReadAgain() throws {
        let old = "[theme]\nnode=#111111\n[pattern a]\nhash=\(Self.hash)\n"
        let new = "[theme]\nnode=#222222\n[pattern b]\nhash=\(Self.hash)\n"
        let (folder, path) = try setup(old)
        defer { ConfigFixtures.remove(folder) }
        var reads = 0
        let (check, config) = ConfigVerdict.check(path: path, runningAs: getuid()) {
            reads += 1
            if reads == 1 { writeInPlace(new, to: path) }
        }
        #expect(check.isValid, "\(check.diagnostics)")
        #expect(config.patterns.map(\.name) == ["b"] && config.theme.node == Color(hex: "#222222"))
        #expect(reads >= 2)
    }

    @Test("a file read while half-written (truncated, the rest not yet there) is not taken for a config without patterns")
    func aTruncatedFileIsReadAgainOnceWritten() throws {
        let whole = "[display]\nbackend=png\noutput-dir=/tmp\n[pattern a]\nhash=\(Self.hash)\n"
        let (folder, path) = try setup(whole)
        defer { ConfigFixtures.remove(folder) }
        // The editor has truncated the file; it writes the text while the first read is checked.
        writeInPlace("", to: path)
        var reads = 0
        let (check, config) = ConfigVerdict.check(path: path, runningAs: getuid()) {
            reads += 1
            if reads == 1 { writeInPlace(whole, to: path) }
        }
        #expect(check.isValid, "\(check.diagnostics)")
        #expect(config.patterns.map(\.name) == ["a"], "the empty file was taken")
    }

    @Test("a file nobody touched lately is read once, with no wait")
    func aSettledFileIsReadOnce() {
        var reads = 0
        let (check, _) = ConfigVerdict.check(path: ConfigFixtures.example, runningAs: getuid()) { reads += 1 }
        #expect(check.files == [ConfigFixtures.example])
        #expect(reads == 1)
    }

    @Test("which change stamps mean a writer may still be at work")
    func recentChangeWindow() {
        let tick = FileTimestampClock.tick, window = ConfigVerdict.settlingWindow
        let began: Int64 = 1_800_000_000_000_000_000
        let now = began + 1_000_000
        #expect(ConfigVerdict.recentChange([began - window - 1, began - 10 * window], readBegan: began, now: now) == nil)
        #expect(ConfigVerdict.recentChange([began - window + 1], readBegan: began, now: now) == began - window + 1)
        #expect(ConfigVerdict.recentChange([began - tick, began + 500], readBegan: began, now: now) == began + 500)
        // The clock set back by an hour since the files were written: no change in progress.
        #expect(ConfigVerdict.recentChange([began + 3_600_000_000_000], readBegan: began, now: now) == nil)
    }
}
