import Foundation
import GridlockInput
import GridlockEvdev
import Testing

@testable import GridlockConfiguration
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// The configuration's check of a replay recording keeps what it parsed for the touch
/// source built right after; only the very bytes it parsed are taken from it.
@Suite("a recording checked, then loaded")
struct RecordingShelfTests {
    static let header = """
        # EVEMU 1.3
        N: Shelf Panel
        I: 0018 0416 038f 1060
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 799 0 0 0
        A: 01 0 479 0 0 0
        A: 2f 0 9 0 0 0
        A: 35 0 799 0 0 0
        A: 36 0 479 0 0 0
        A: 39 0 65535 0 0 0

        """

    static func write(_ x: Int, to path: String) throws {
        try (header + "E: 0.000001 0003 0035 \(x)\nE: 0.000001 0000 0000 0\n").write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// One test, since the shelf is one for the process: its steps run in order.
    @Test("an unchanged file gives what the check parsed; a rewritten one, the same size, is parsed anew")
    func takenOnlyForTheSameBytes() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/stroke.evemu"
        try Self.write(111, to: path)
        try RecordingFile.check(path)
        let unchanged = try DaemonParts.loadRecording(path)
        #expect(unchanged.events.first?.value == 111)
        #expect(unchanged.device.name == "Shelf Panel")

        try RecordingFile.check(path)
        try Self.write(222, to: path)  // the same length, other bytes
        #expect(try DaemonParts.loadRecording(path).events.first?.value == 222)

        // Another file than the one checked is read for itself.
        let other = folder + "/other.evemu"
        try Self.write(333, to: other)
        try RecordingFile.check(path)
        #expect(try DaemonParts.loadRecording(other).events.first?.value == 333)
        // The shelf was let go by that load: the checked file, now changed, is read anew.
        try Self.write(444, to: path)
        #expect(try DaemonParts.loadRecording(path).events.first?.value == 444)
    }
}
