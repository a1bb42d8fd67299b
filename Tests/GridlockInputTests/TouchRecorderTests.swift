import Foundation
import Glibc
import GridlockCore
import GridlockInput
import GridlockEvdev
import LinuxSys
import Testing

@Suite("gridlock record's stream")
struct TouchRecorderTests {
    @Test("recorded lines parse back to the same events, relative to the first, and decode to the same strokes")
    func roundTrip() throws {
        let original = try Fixtures.recording("protocol-b-1-2-3-6-9.evemu")
        let offset = Int64(7_000_000_000)  // a monotonic clock's value some seconds after boot
        let live = original.events.map { event in
            var e = event
            e.time = Instant(nanoseconds: e.time.nanoseconds + offset)
            return e
        }
        let source = FakeEventSource(normal: live.asReads)
        var stream = EvemuEventStream()
        var summary = TouchRecorder.Summary()
        let (lines, lost) = TouchRecorder.drain(source, into: &stream, &summary)
        #expect(lost == nil)
        #expect(summary.events == live.count)
        #expect(summary.frames == live.filter { $0.type == 0 && $0.code == 0 }.count)

        let text = try EvemuWriter.description(original.device) + lines
        let parsed = try EvemuRecording(parsing: text)
        let first = original.events[0].time.nanoseconds
        #expect(parsed.events.first?.time == .zero)
        #expect(parsed.events.map { $0.time.nanoseconds + first } == original.events.map(\.time.nanoseconds))
        #expect(parsed.device == original.device)
        #expect(try decode(parsed).map(\.touch) == decode(original).map(\.touch))
    }

    @Test("a drop is recorded with the sync events, so a replay cancels the stroke too; a loss ends the stream")
    func dropAndLoss() throws {
        let device = try Fixtures.device("ft5406-multitouch")
        var script = EventScript()
        script.key(InputCodes.BTN_TOUCH, 1)
        script.contact(slot: 0, id: 1, x: 100, y: 100)
        script.report()
        let dropped = InputEvent(time: script.time, type: InputCodes.EV_SYN, code: InputCodes.SYN_DROPPED, value: 0)
        let syncReport = InputEvent(time: script.time, type: InputCodes.EV_SYN, code: InputCodes.SYN_REPORT, value: 0)
        let source = FakeEventSource(
            normal: script.events.asReads + [.syncNeeded(dropped), .failed(.noSuchDevice)], sync: [.event(syncReport)])
        var stream = EvemuEventStream()
        var summary = TouchRecorder.Summary()
        let (lines, lost) = TouchRecorder.drain(source, into: &stream, &summary)
        #expect(lost == .noSuchDevice)
        #expect(summary.drops == 1)
        let parsed = try EvemuRecording(parsing: try EvemuWriter.description(device) + lines)
        #expect(parsed.events.suffix(2).map { $0.code } == [InputCodes.SYN_DROPPED, InputCodes.SYN_REPORT])
        #expect(try decode(parsed).map(\.touch) == [.down(x: 100, y: 100), .cancel(.eventsDropped)])
    }

    @Test("recording a node that is no input device fails with its path")
    func notADevice() {
        #expect(throws: RecorderError.self) { try TouchRecorder(path: "/dev/zero", stopSignals: []) }
    }
}

func makeScratchDirectory() throws -> String {
    var template = Array("/tmp/gridlock-input-test-XXXXXX".utf8CString)
    guard let result = mkdtemp(&template) else { throw Errno.current }
    return String(cString: result)
}

func removeScratch(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

func touchFile(_ path: String) throws {
    try FileDescriptor.open(path, [.create, .writeOnly]).close()
}
