import GridlockCore
import LinuxSys

/// `gridlock record`: a device's description and events written as an evemu recording
/// that `evemu-play`/`evemu-device` accept and `gridlock replay` plays with the outcome
/// the daemon would have had. Events are written as they arrive, so a recording cut short
/// by a crash or a power cut is still readable up to its last line.
public final class TouchRecorder {
    public struct Summary: Hashable, Sendable {
        public var events = 0
        public var frames = 0
        public var drops = 0
        /// Set when recording ended because the device failed (unplugged: ENODEV).
        public var lostWith: Errno?

        public init() {}
    }

    public let device: EvdevDevice
    /// Another process (gridlockd, usually) holds EVIOCGRAB: nothing would reach us.
    public let grabbedElsewhere: Bool

    /// Opens `path` with CLOCK_MONOTONIC timestamps and checks for a grab held elsewhere
    /// by taking and at once releasing one ourselves (EBUSY says someone else has it).
    public init(path: String) throws(EvdevError) {
        device = try EvdevDevice(path: path)
        do {
            try device.setGrabbed(true)
            try device.setGrabbed(false)
            grabbedElsewhere = false
        } catch where error.errno == .busy {
            grabbedElsewhere = true
        }
    }

    /// The description block, with comments saying where and how it was recorded.
    public func descriptionText() throws(RecordingError) -> String {
        var header = [
            "Recorded by gridlock record from \(device.path); play with evemu-play or gridlock replay.",
            "Input device name: \"\(device.description.name)\"",
        ]
        switch TouchscreenClassifier.classify(device.description) {
        case .touchscreen(let kind): header.append("Touchscreen (\(kind == .multitouch ? "multitouch" : "single touch")).")
        case .notTouchscreen(let reason): header.append("Not a touchscreen by udev's rule: \(reason).")
        }
        return try EvemuWriter.description(device.description, header: header)
    }

    /// Writes the description, then events until `stop` has a signal, `duration` has
    /// passed since the start, or the device fails. The caller blocks the signals
    /// (creating `stop`) before calling, so Ctrl-C ends the recording cleanly.
    public func record(
        to output: FileDescriptor, duration: Duration?, stop: SignalFD
    ) throws(RecorderError) -> Summary {
        let description: String
        do {
            description = try descriptionText()
        } catch {
            throw .format(error)
        }
        do {
            try output.writeAll(Array(description.utf8))
        } catch {
            throw .output(error)
        }
        let poller: EventPoller
        do {
            poller = try EventPoller(capacity: 4)
            try poller.add(device.fileDescriptor, token: 1)
            try poller.add(stop.fileDescriptor, token: 2)
        } catch {
            throw .output(error)
        }
        var stream = EvemuEventStream()
        var summary = Summary()
        let end = duration.map { MonotonicClock.now() + $0.nanoseconds }
        while true {
            let timeout: Int32?
            if let end {
                let left = end - MonotonicClock.now()
                if left <= 0 { return summary }
                timeout = Int32(clamping: (left + 999_999) / 1_000_000)
            } else {
                timeout = nil
            }
            let ready: [EventPoller.Ready]
            do {
                ready = try poller.wait(timeoutMilliseconds: timeout)
            } catch {
                throw .output(error)
            }
            if ready.contains(where: { $0.token == 2 }) {
                _ = try? stop.readSignals()
            }
            // Read what is queued even when stopping: those events happened before the signal.
            let (text, lost) = Self.drain(device, into: &stream, &summary)
            do {
                if !text.isEmpty { try output.writeAll(Array(text.utf8)) }
            } catch {
                throw .output(error)
            }
            if let lost {
                summary.lostWith = lost
                return summary
            }
            if ready.contains(where: { $0.token == 2 }) { return summary }
        }
    }

    /// Reads `source` to EAGAIN and returns the lines to write. After SYN_DROPPED the
    /// drop and libevdev's sync events are written as they came: a replay then sees the
    /// drop too, and cancels the stroke as the daemon did.
    public static func drain(
        _ source: EvdevEventSource, into stream: inout EvemuEventStream, _ summary: inout Summary
    ) -> (text: String, lost: Errno?) {
        var text = ""
        var syncing = false
        while true {
            let event: InputEvent
            switch source.nextEvent(sync: syncing) {
            case .event(let e):
                event = e
            case .syncNeeded(let e):
                event = e
                syncing = true
                summary.drops += 1
            case .exhausted:
                if syncing {
                    syncing = false
                    continue
                }
                return (text, nil)
            case .failed(let error):
                return (text, error)
            }
            // Times are never before the first event's, and the writer cannot fail on those.
            text += (try? stream.line(for: event)) ?? ""
            summary.events += 1
            if event.type == InputCodes.EV_SYN && event.code == InputCodes.SYN_REPORT { summary.frames += 1 }
        }
    }
}

/// Event lines with times relative to the first event, as evemu-record writes them
/// (evemu-play only uses the differences; the replay starts at the first event).
public struct EvemuEventStream: Sendable {
    private var start: Instant?

    public init() {}

    public mutating func line(for event: InputEvent) throws(RecordingError) -> String {
        let start = self.start ?? event.time
        self.start = start
        var relative = event
        // A sync event libevdev made up can carry a time a hair before the first one.
        relative.time = Instant(nanoseconds: max(0, event.time.nanoseconds - start.nanoseconds))
        return try EvemuWriter.line(for: relative)
    }
}

public enum RecorderError: Error, CustomStringConvertible {
    case output(SystemCallError)
    case format(RecordingError)

    public var description: String {
        switch self {
        case .output(let error): "\(error)"
        case .format(let error): "\(error)"
        }
    }
}
