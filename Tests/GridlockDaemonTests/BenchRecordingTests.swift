import GridlockCore
import GridlockInput
import Testing
@testable import GridlockBench
@testable import GridlockDaemon

/// The drag `gridlock bench --bench-stroke` replays must be the benchmark scene's drag.
@Suite struct BenchRecordingTests {
    @Test("replayed drag follows the scene within a third of a pixel") func replayedDragFollowsTheSceneWithinAThirdOfAPixel() throws {
        let size = Size(width: 1920, height: 1080)
        let recording = BenchRecording.drag(size: size)
        var pipeline = try TouchPipeline(device: recording.device, calibration: .identity, rotation: .none, frame: size)
        var touches: [TouchEvent] = []
        var times: [Instant] = []
        for event in recording.events {
            pipeline.feed(event) { touch, time in
                touches.append(touch)
                times.append(time)
            }
        }
        let (initial, frames) = BenchScene.scenes(size: size)
        #expect(touches.count == frames.count + 1)
        guard case .down(let down) = touches.first, let start = initial.finger else {
            Issue.record("the recording does not start with a touch-down: \(touches.first.map { "\($0)" } ?? "nothing")")
            return
        }
        #expect(down.distance(to: start) <= 0.3)
        for (touch, frame) in zip(touches.dropFirst(), frames) {
            guard case .move(let point) = touch, let finger = frame.finger else {
                Issue.record("expected a move, got \(touch)")
                return
            }
            #expect(point.distance(to: finger) <= 0.3)
        }
        #expect(times.last == Instant(nanoseconds: Int64(frames.count) * BenchRecording.moveInterval))
    }
}
