import GridlockCore
import GridlockInput
import LinuxSys
@testable import GridlockEvdev
import Testing
@testable import GridlockBench
@testable import GridlockDaemon

/// `gridlockd --bench-stroke`'s touch source: a recording's events as binary input events
/// on a pipe must reach the lock as the same touches as the recording played from its text.
@Suite struct EventStreamTouchSourceTests {
    static let frame = Size(width: 800, height: 480)

    /// The recording's touches as the replay backend gets them: its events fed in order.
    static func evemuTouches(_ recording: EvemuRecording) throws -> [(TouchEvent, Instant)] {
        var pipeline = try TouchPipeline(device: recording.device, calibration: .identity, rotation: .none, frame: frame)
        var touches: [(TouchEvent, Instant)] = []
        for event in recording.events { pipeline.feed(event) { touches.append(($0, $1)) } }
        return touches
    }

    /// The same events written into a pipe as `struct input_event`s, then closed, and read
    /// by the source on a loop until it says it is exhausted.
    static func streamTouches(_ recording: EvemuRecording) throws -> [(TouchEvent, Instant)] {
        let bytes = InputEventBytes.encode(recording.events)
        try #require(bytes.count <= SpawnedProcess.pipeCapacity, "the fixture must fit the pipe, which nothing reads while it is written")
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close() }
        try pipe.write.writeAll(bytes)
        pipe.write.close()
        let pipeline = try TouchPipeline(device: recording.device, calibration: .identity, rotation: .none, frame: frame)
        let source = try EventStreamTouchSource(fileDescriptor: pipe.read, pipeline: pipeline, log: { _, message in
            Issue.record("unexpected log: \(message)")
        })
        let loop = try EventLoop()
        var touches: [(TouchEvent, Instant)] = []
        source.attach(to: loop) { touches.append(($0, $1)) }
        try loop.run(until: { source.isExhausted })
        #expect(!loop.isWatching(pipe.read), "a pipe at end of file stays readable: the source must stop watching it")
        return touches
    }

    /// The nodes each stroke selected, as the lock's tracker follows the touches.
    static func strokes(_ touches: [(TouchEvent, Instant)]) throws -> [[Int]] {
        var tracker = PatternTracker(layout: try GridLayout(frame: Rect(origin: .zero, size: frame)))
        var strokes: [[Int]] = []
        for (touch, _) in touches {
            switch touch {
            case .down(let point): tracker.down(at: point)
            case .move(let point): tracker.move(to: point)
            case .up: strokes.append(tracker.up())
            case .cancel: tracker.cancel()
            }
        }
        return strokes
    }

    @Test(
        "binary input events on a pipe give the same touches, times and strokes as the evemu recording",
        arguments: ["protocol-b-1-2-3-6-9", "protocol-a-1-2-3-6-9", "single-touch-1-2-3-6-9", "demo-wrong-then-right"])
    func binaryEventsMatchTheRecording(name: String) throws {
        let recording = try ReplayTests.recording(name)
        let expected = try Self.evemuTouches(recording)
        let streamed = try Self.streamTouches(recording)
        try #require(!expected.isEmpty)
        #expect(streamed.map(\.0) == expected.map(\.0))
        #expect(streamed.map(\.1) == expected.map(\.1))
        #expect(try Self.strokes(streamed) == Self.strokes(expected))
        if name.hasSuffix("1-2-3-6-9") {
            #expect(try Self.strokes(streamed).last == [0, 1, 2, 5, 8])
        }
    }

    @Test("the bench's drag, encoded as the bench feeds it, draws the scene's route 1-2-3-6-9")
    func benchDragSelectsTheRoute() throws {
        let size = Size(width: 1920, height: 1080)
        let recording = BenchRecording.drag(size: size)
        let feed = BenchStrokeFeed(events: recording.events)
        #expect(feed.frames.count == BenchScene.moves + 1)
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close() }
        for frame in feed.frames { try pipe.write.writeAll(frame) }
        pipe.write.close()
        let source = try EventStreamTouchSource(
            fileDescriptor: pipe.read,
            pipeline: try TouchPipeline(device: recording.device, calibration: .identity, rotation: .none, frame: size))
        let loop = try EventLoop()
        var tracker = PatternTracker(layout: BenchScene.layout(size: size))
        var touches = 0
        source.attach(to: loop) { touch, _ in
            touches += 1
            switch touch {
            case .down(let point): tracker.down(at: point)
            case .move(let point): tracker.move(to: point)
            default: Issue.record("the drag holds the finger down: \(touch)")
            }
        }
        try loop.run(until: { source.isExhausted })
        #expect(touches == BenchScene.moves + 1)
        #expect(tracker.selected == [0, 1, 2, 5, 8])
    }
}
