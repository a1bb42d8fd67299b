import GridlockCore
import GridlockInput
import LinuxSys

/// Binary `struct input_event`s read from a non-blocking descriptor (a pipe) as an
/// `EvdevEventSource`: what an evdev node's read(2) returns, without libevdev, which
/// needs a real node. `EvdevTouchReader` drains it exactly as it drains a device, so a
/// stroke written into the pipe takes the panel's path through decoder, mapper and loop
/// (`gridlockd --bench-stroke`).
///
/// The writer never drops events, so there is no SYN_DROPPED and nothing to sync: the
/// snapshot is "nothing touching", the state of a device before its first event.
public final class InputEventStream: EvdevEventSource {
    public let fileDescriptor: FileDescriptor
    /// End of file: the writer closed its end; nothing more will come.
    public private(set) var ended = false
    /// A failed read, kept for the log.
    public private(set) var failure: SystemCallError?
    /// Up to `capacity` events per read(2), as libevdev reads a node; a partial event at
    /// the end of a read waits at the start of the buffer for the rest.
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0

    public init(fileDescriptor: FileDescriptor, capacity: Int = 64) {
        self.fileDescriptor = fileDescriptor
        buffer = .allocate(byteCount: capacity * InputEventBytes.size, alignment: 8)
    }

    deinit { buffer.deallocate() }

    public func nextEvent(sync: Bool) -> EvdevReadResult {
        if sync { return .exhausted }
        if end - start < InputEventBytes.size {
            if ended { return .exhausted }
            if let failure { return .failed(failure.errno) }
            refill()
            if end - start < InputEventBytes.size {
                if let failure { return .failed(failure.errno) }
                return .exhausted
            }
        }
        let event = InputEventBytes.decode(UnsafeRawBufferPointer(buffer), at: start)
        start += InputEventBytes.size
        return .event(event)
    }

    public func touchSnapshot() -> TouchSnapshot { TouchSnapshot(touching: false) }

    /// One read(2) into the free part of the buffer.
    private func refill() {
        let left = end - start
        if left > 0, start > 0 {
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: left)
        }
        start = 0
        end = left
        do {
            switch try fileDescriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...])) {
            case nil: break
            case 0?: ended = true
            case let count?: end += count
            }
        } catch {
            failure = error
        }
    }
}
