import GridlockCore
import GridlockInput
import LinuxSys

/// The read loop of one device: drains an `EvdevEventSource` into a `TouchPipeline` on
/// every wake-up, recovers from SYN_DROPPED and reports a device that went away. It holds
/// no descriptor and calls nothing but the source, so tests drive it with a fake.
public struct EvdevTouchReader: Sendable {
    public enum Outcome: Hashable, Sendable {
        /// Everything available was read (the source said EAGAIN).
        case drained
        /// The device failed (ENODEV when unplugged, EIO when its driver gave up); any
        /// stroke in progress was cancelled. Close it; it cannot be read again.
        case lost(Errno)
    }

    public private(set) var pipeline: TouchPipeline
    /// Kernel timestamp (CLOCK_MONOTONIC once `EvdevDevice` has set the clock) of the last
    /// SYN_REPORT read: the start of the input-to-frame latency the daemon can log.
    public private(set) var lastFrameTime: Instant?
    /// SYN_DROPPED seen since this reader was made: the kernel's buffer overflowed.
    public private(set) var dropCount = 0

    public init(pipeline: TouchPipeline) {
        self.pipeline = pipeline
    }

    /// Reads until the source has nothing more. `now` stamps the cancel of a lost device,
    /// whose events carry no time of their own.
    ///
    /// Bounded only by the kernel's buffer: a finger produces events far more slowly than
    /// this loop consumes them, so draining to EAGAIN always ends.
    public mutating func drain(
        _ source: EvdevEventSource, now: Instant, _ emit: (TouchEvent, Instant) -> Void
    ) -> Outcome {
        while true {
            switch source.nextEvent(sync: false) {
            case .event(let event):
                if event.type == InputCodes.EV_SYN && event.code == InputCodes.SYN_REPORT {
                    lastFrameTime = event.time
                }
                pipeline.feed(event, emit)
            case .syncNeeded(let dropped):
                dropCount += 1
                if case .lost(let error) = resync(source, droppedAt: dropped.time, now: now, emit) {
                    return .lost(error)
                }
            case .exhausted:
                return .drained
            case .failed(let error):
                pipeline.deviceLost(at: now, emit)
                return .lost(error)
            }
        }
    }

    /// Feeds the state the device is in right after opening, so that a finger already
    /// resting on the panel does not start a stroke halfway through its movement.
    public mutating func start(_ source: EvdevEventSource, at time: Instant, _ emit: (TouchEvent, Instant) -> Void) {
        pipeline.resync(source.touchSnapshot(), at: time, emit)
    }

    public mutating func setFrame(_ frame: Size, rotation: Rotation) {
        pipeline.setFrame(frame, rotation: rotation)
    }

    public mutating func setCalibrated(_ calibrated: Bool) {
        pipeline.setCalibrated(calibrated)
    }

    /// After SYN_DROPPED: the sync events only say how libevdev brought its copy of the
    /// device's state up to date; the decoder takes that state whole instead (`resync`),
    /// which also cancels the stroke, so no attempt is counted for a half-seen pattern.
    /// libevdev requires the sync events to be read to EAGAIN before normal reads go on.
    private mutating func resync(
        _ source: EvdevEventSource, droppedAt time: Instant, now: Instant, _ emit: (TouchEvent, Instant) -> Void
    ) -> Outcome {
        var syncTime = time
        while true {
            switch source.nextEvent(sync: true) {
            case .event(let event), .syncNeeded(let event):
                syncTime = max(syncTime, event.time)
            case .exhausted:
                pipeline.resync(source.touchSnapshot(), at: syncTime, emit)
                return .drained
            case .failed(let error):
                pipeline.deviceLost(at: now, emit)
                return .lost(error)
            }
        }
    }
}
