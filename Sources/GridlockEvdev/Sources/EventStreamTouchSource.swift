import GridlockCore
import GridlockInput
import LinuxSys

/// A touch device whose events arrive as binary `struct input_event`s on a descriptor
/// (`gridlockd --bench-stroke` reads them from its standard input), described by a
/// recording's header (axes, slots). Read as the evdev backend reads a panel: watched on
/// the loop, drained to EAGAIN on every wake-up by `EvdevTouchReader` into the same
/// pipeline, each touch carrying its frame's kernel timestamp. The writer's end of file
/// exhausts it.
public final class EventStreamTouchSource: TouchSource {
    private let stream: InputEventStream
    private var reader: EvdevTouchReader
    private var watching: EventLoop.Watching?
    private weak var loop: EventLoop?
    private let log: (LogPriority, String) -> Void

    public init(
        fileDescriptor: FileDescriptor, pipeline: TouchPipeline,
        log: @escaping (LogPriority, String) -> Void = { Journal.log($0, $1) }
    ) throws(SystemCallError) {
        try fileDescriptor.setNonBlocking()
        stream = InputEventStream(fileDescriptor: fileDescriptor)
        reader = EvdevTouchReader(pipeline: pipeline)
        self.log = log
    }

    public func attach(to loop: EventLoop, emit: @escaping (TouchEvent, Instant) -> Void) {
        self.loop = loop
        do {
            watching = try loop.watch(stream.fileDescriptor, as: "touch") { [unowned self, unowned loop] in
                read(now: loop.now(), emit)
            }
        } catch {
            log(.error, "cannot watch the input events on fd \(stream.fileDescriptor.rawValue): \(error)")
        }
    }

    public func detach() {
        if let watching { loop?.unwatch(watching) }
        watching = nil
    }

    public func setGrabbed(_ grabbed: Bool) {}

    public func setFrame(_ frame: Size, rotation: Rotation) {
        reader.setFrame(frame, rotation: rotation)
    }

    public func setCalibrated(_ calibrated: Bool) {
        reader.setCalibrated(calibrated)
    }

    public var isExhausted: Bool { stream.ended || stream.failure != nil }

    private func read(now: Instant, _ emit: (TouchEvent, Instant) -> Void) {
        if case .lost(let error) = reader.drain(stream, now: now, emit) {
            log(.warning, "input events on fd \(stream.fileDescriptor.rawValue): read failed: \(error); any stroke in progress was cancelled")
        }
        // At end of file a pipe stays readable: stop watching it.
        if isExhausted { detach() }
    }
}
