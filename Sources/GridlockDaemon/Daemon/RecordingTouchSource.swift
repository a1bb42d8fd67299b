import GridlockCore
import GridlockInput
import LinuxSys

/// `[touch] backend=replay` in the daemon: a recording's events, played with their own
/// timing from the moment the daemon starts, through the same decoder and mapper as a
/// real device. The timer, not a sleep, paces it, so the loop stays responsive.
public final class RecordingTouchSource: TouchSource {
    private let events: [InputEvent]
    private var pipeline: TouchPipeline
    private var index = 0
    private let offset: Int64

    public init(recording: EvemuRecording, pipeline: TouchPipeline, start: Int64) {
        events = recording.events
        self.pipeline = pipeline
        offset = start - (recording.events.first?.time.nanoseconds ?? 0)
    }

    public var descriptors: [FileDescriptor] { [] }

    public var nextDeadline: Int64? { index < events.count ? events[index].time.nanoseconds + offset : nil }

    public func handleReadable(_ descriptor: FileDescriptor, now: Int64, emit: (TouchEvent) -> Void) {}

    public func handleDeadline(now: Int64, emit: (TouchEvent) -> Void) {
        while index < events.count, events[index].time.nanoseconds + offset <= now {
            pipeline.feed(events[index]) { touch, _ in emit(touch) }
            index += 1
        }
    }

    public func setGrabbed(_ grabbed: Bool) {}

    public func setFrame(_ frame: Size, rotation: Rotation) {
        pipeline.setFrame(frame, rotation: rotation)
    }

    public var finished: Bool { index >= events.count }
}
