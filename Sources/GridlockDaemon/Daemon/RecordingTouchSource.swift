import GridlockCore
import GridlockInput
import LinuxSys

/// `[touch] backend=replay` in the daemon: a recording's events, played with their own
/// timing from the moment the daemon starts, through the same decoder and mapper as a
/// real device. The loop's timer, not a sleep, paces it, so the loop stays responsive.
/// A touch carries the time its event was due, as a kernel's would carry the time it
/// was read.
public final class RecordingTouchSource: TouchSource {
    private let events: [InputEvent]
    private var pipeline: TouchPipeline
    private var index = 0
    /// Added to a recorded time to get the CLOCK_MONOTONIC time it is played at.
    private let offset: Duration

    public init(recording: EvemuRecording, pipeline: TouchPipeline, start: Instant) {
        events = recording.events
        self.pipeline = pipeline
        offset = start.duration(since: recording.events.first?.time ?? .zero)
    }

    public var descriptors: [FileDescriptor] { [] }

    public var nextDeadline: Instant? { index < events.count ? events[index].time + offset : nil }

    public func handleReadable(_ descriptor: FileDescriptor, now: Instant, emit: (TouchEvent, Instant) -> Void) {}

    public func handleDeadline(now: Instant, emit: (TouchEvent, Instant) -> Void) {
        while index < events.count, events[index].time + offset <= now {
            pipeline.feed(events[index]) { touch, time in emit(touch, time + offset) }
            index += 1
        }
    }

    public func setGrabbed(_ grabbed: Bool) {}

    public func setFrame(_ frame: Size, rotation: Rotation) {
        pipeline.setFrame(frame, rotation: rotation)
    }

    public var finished: Bool { index >= events.count }
}
