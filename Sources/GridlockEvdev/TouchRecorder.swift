import GridlockCore
import GridlockInput
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

    private let loop: EventLoop
    private var stopRequested = false

    /// Blocks `stopSignals` first (they end the recording cleanly from then on), then
    /// opens `path` with CLOCK_MONOTONIC timestamps and checks for a grab held elsewhere
    /// by taking and at once releasing one ourselves (EBUSY says someone else has it).
    public init(path: String, stopSignals: [Signal]) throws(RecorderError) {
        do {
            loop = try EventLoop(signals: stopSignals)
        } catch {
            throw .output(error)
        }
        do {
            device = try EvdevDevice(path: path)
        } catch {
            throw .device(error)
        }
        do {
            try device.setGrabbed(true)
            try device.setGrabbed(false)
            grabbedElsewhere = false
        } catch where error.errno == .busy {
            grabbedElsewhere = true
        } catch {
            grabbedElsewhere = false
        }
        loop.signalHandler = { [unowned self] _ in stopRequested = true }
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

    /// Writes the description, then events until one of the stop signals arrives,
    /// `duration` has passed since the start, or the device fails.
    public func record(to output: FileDescriptor, duration: Duration?) throws(RecorderError) -> Summary {
        let description: String
        do {
            description = try descriptionText()
        } catch {
            throw .format(error)
        }
        var stream = EvemuEventStream()
        var summary = Summary()
        var finished = false
        var failure: SystemCallError?
        // Read what is queued even when stopping: those events happened before the signal.
        let drainToOutput = {
            let (text, lost) = Self.drain(self.device, into: &stream, &summary)
            do throws(SystemCallError) {
                if !text.isEmpty { try output.writeAll(Array(text.utf8)) }
            } catch {
                failure = error
            }
            if let lost { summary.lostWith = lost }
            if failure != nil || lost != nil { finished = true }
        }
        do {
            try output.writeAll(Array(description.utf8))
            try loop.watch(device.fileDescriptor, as: "touch device", drainToOutput)
            defer { loop.unwatch(device.fileDescriptor) }
            loop.deadline("end of recording") { _ in finished = true }.due = duration.map { loop.now() + $0 }
            try loop.run(until: { finished }) {
                if stopRequested {
                    drainToOutput()
                    finished = true
                }
            }
        } catch {
            throw .output(error)
        }
        if let failure { throw .output(failure) }
        return summary
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
    case device(EvdevError)
    case output(SystemCallError)
    case format(RecordingError)

    public var description: String {
        switch self {
        case .device(let error): "\(error)"
        case .output(let error): "\(error)"
        case .format(let error): "\(error)"
        }
    }
}
