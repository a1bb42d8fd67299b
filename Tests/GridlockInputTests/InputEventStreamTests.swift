import GridlockCore
import GridlockInput
import GridlockEvdev
import LinuxSys
import Testing

/// `struct input_event`s read from a pipe, as `EvdevTouchReader` drains them.
@Suite struct InputEventStreamTests {
    @Test("an event split across two reads comes out whole, in order, once the rest arrives")
    func partialEventWaitsForTheRest() throws {
        let events = (0..<5).map { InputEvent(time: .milliseconds(Int64($0)), type: InputCodes.EV_ABS, code: InputCodes.ABS_X, value: Int32($0) * 100 - 150) }
        let bytes = InputEventBytes.encode(events)
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close() }
        // Capacity 2 events: reads stop short of the input, mid-event too.
        let stream = InputEventStream(fileDescriptor: pipe.read, capacity: 2)
        var read: [InputEvent] = []
        func drain() {
            while case .event(let event) = stream.nextEvent(sync: false) { read.append(event) }
        }
        try pipe.write.writeAll(Array(bytes[..<(InputEventBytes.size + 7)]))
        drain()
        #expect(read == Array(events.prefix(1)))
        try pipe.write.writeAll(Array(bytes[(InputEventBytes.size + 7)...]))
        drain()
        #expect(read == events)
        #expect(!stream.ended)
        pipe.write.close()
        #expect(stream.nextEvent(sync: false) == .exhausted)
        #expect(stream.ended)
    }

    @Test("times before and after the epoch of the clock survive the timeval encoding")
    func timesRoundTrip() {
        let times: [Int64] = [0, 1_000, 4_000_000, 12_345_678_901_000, -1_000, -1_500_000_000]
        let events = times.map { InputEvent(time: Instant(nanoseconds: $0), type: 0, code: 0, value: 0) }
        let bytes = InputEventBytes.encode(events)
        let decoded = bytes.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count, by: InputEventBytes.size).map { InputEventBytes.decode(raw, at: $0) }
        }
        #expect(decoded == events)
    }
}
