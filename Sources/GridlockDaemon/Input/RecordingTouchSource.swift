import GridlockCore
import GridlockInput
import LinuxSys

/// `[touch] backend=replay` in the daemon: a recording's events, played with their own
/// timing from the moment the daemon starts, through the same decoder and mapper as a
/// real device. The loop's deadline, not a sleep, paces it, so the loop stays responsive.
/// A touch carries the time its event was due, as a kernel's would carry the time it
/// was read.
public final class RecordingTouchSource: TouchSource {
    private let events: [InputEvent]
    private var pipeline: TouchPipeline
    private var index = 0
    /// Added to a recorded time to get the CLOCK_MONOTONIC time it is played at.
    private let offset: Duration
    private var nextEvent: EventLoop.Deadline?
    private var emit: (TouchEvent, Instant) -> Void = { _, _ in }

    public init(recording: EvemuRecording, pipeline: TouchPipeline, start: Instant) {
        events = recording.events
        self.pipeline = pipeline
        offset = start.duration(since: recording.events.first?.time ?? .zero)
    }

    public func attach(to loop: EventLoop, emit: @escaping (TouchEvent, Instant) -> Void) {
        self.emit = emit
        nextEvent = loop.deadline("touch") { [weak self] now in self?.play(until: now) }
        nextEvent?.due = nextDue
    }

    public func detach() { nextEvent?.due = nil }

    public func setGrabbed(_ grabbed: Bool) {}

    public func setFrame(_ frame: Size, rotation: Rotation) {
        pipeline.setFrame(frame, rotation: rotation)
    }

    public var isExhausted: Bool { index >= events.count }

    private var nextDue: Instant? { index < events.count ? events[index].time + offset : nil }

    private func play(until now: Instant) {
        while index < events.count, events[index].time + offset <= now {
            pipeline.feed(events[index]) { touch, time in emit(touch, time + offset) }
            index += 1
        }
        nextEvent?.due = nextDue
    }
}
