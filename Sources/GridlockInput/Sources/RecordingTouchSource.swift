import GridlockCore
import LinuxSys

/// A recording's events played as a touch device: `[touch] backend=replay` in gridlockd
/// (from the moment the daemon starts, in real time) and `gridlock replay` (in the
/// recording's own time, which the loop plays). The same decoder and mapper as a real
/// device; the loop's deadline, not a sleep, paces it. A touch carries the time its
/// event was due, as a kernel's would carry the time it was read.
///
/// Events are read one ahead of the one played, so a recording streamed from its file
/// is played in constant memory. A line that cannot be read ends the playing: the
/// source is then exhausted and `failure` says which line.
public final class RecordingTouchSource: TouchSource {
    private let events: RecordedEvents
    private var pipeline: TouchPipeline
    private var upcoming: InputEvent?
    /// Added to a recorded time to get the time it is played at.
    private let offset: Duration
    /// When the first event plays.
    public let startTime: Instant
    private var nextEvent: EventLoop.Deadline?
    private var emit: (TouchEvent, Instant) -> Void = { _, _ in }
    /// Why the playing stopped before the recording's end.
    public private(set) var failure: RecordingError?

    /// `start` is when the first event plays: now for gridlockd; nil, the first event's
    /// own time, for a replay in the recording's time.
    public init(events: RecordedEvents, pipeline: TouchPipeline, start: Instant?) {
        self.events = events
        self.pipeline = pipeline
        do {
            upcoming = try events.next()
        } catch {
            failure = error
        }
        let first = upcoming?.time ?? .zero
        startTime = start ?? first
        offset = startTime.duration(since: first)
    }

    public convenience init(recording: EvemuRecording, pipeline: TouchPipeline, start: Instant) {
        self.init(events: RecordedEventList(recording), pipeline: pipeline, start: start)
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

    public func setCalibrated(_ calibrated: Bool) {
        pipeline.setCalibrated(calibrated)
    }

    public var isExhausted: Bool { upcoming == nil }

    private var nextDue: Instant? { upcoming.map { $0.time + offset } }

    private func play(until now: Instant) {
        while let event = upcoming, event.time + offset <= now {
            pipeline.feed(event) { touch, time in emit(touch, time + offset) }
            do {
                upcoming = try events.next()
            } catch {
                upcoming = nil
                failure = error
            }
        }
        nextEvent?.due = nextDue
    }
}
