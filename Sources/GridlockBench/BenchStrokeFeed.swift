import GridlockCore
import GridlockInput
import LinuxSys

/// How `gridlock bench` hands `gridlockd --bench-stroke` its stroke: as a panel does, binary
/// `struct input_event` frames on a descriptor (the daemon's standard input, a pipe), written
/// by the bench itself, so that what the writing costs is the bench's CPU time, not the
/// daemon's. The drag's events are encoded before the daemon starts; writing only stamps each
/// frame with the time it is written, as the kernel stamps a panel's.
///
/// Paced like a digitizer, one frame `BenchRecording.moveInterval` after the previous one was
/// read: a daemon slowed down (by a busy machine, by valgrind) still gets every move in a
/// frame of its own, so the figure is always per move and instruction counts repeat from
/// run to run.
public struct BenchStrokeFeed {
    /// Each input frame's bytes, SYN_REPORT last.
    public private(set) var frames: [[UInt8]] = []

    public init(events: [InputEvent]) {
        var frame: [UInt8] = []
        for event in events {
            InputEventBytes.append(event, to: &frame)
            if event.type == InputCodes.EV_SYN && event.code == InputCodes.SYN_REPORT {
                frames.append(frame)
                frame = []
            }
        }
        if !frame.isEmpty { frames.append(frame) }
    }

    /// Only the first `count` frames (instruction counts of part of the stroke).
    public mutating func keepFirst(_ count: Int) {
        frames = Array(frames.prefix(count))
    }

    /// Writes every frame into `pipe` (its write end, blocking) and returns when the last
    /// one is written; the caller closes the pipe, which ends the stroke.
    ///
    /// Each frame after the first goes `interval` after the previous one was seen read, not
    /// after it was written: the daemon drains its descriptor to EAGAIN, and a frame written
    /// between its read and that last read would join the previous one's round.
    public func write(
        into pipe: FileDescriptor, interval: Duration = .nanoseconds(BenchRecording.moveInterval)
    ) throws(SystemCallError) {
        // Far shorter than the interval: seeing the read late adds little to the pacing.
        let recheck = Duration.nanoseconds(100_000)
        for (index, var frame) in frames.enumerated() {
            if index > 0 {
                while try pipe.bytesWaiting() > 0 { MonotonicClock.sleep(for: recheck) }
                MonotonicClock.sleep(for: interval)
            }
            Self.stamp(&frame, MonotonicClock.inputStamp())
            try pipe.writeAll(frame)
        }
    }

    static func stamp(_ frame: inout [UInt8], _ time: Instant) {
        var stamped: [UInt8] = []
        stamped.reserveCapacity(InputEventBytes.size)
        InputEventBytes.append(InputEvent(time: time, type: 0, code: 0, value: 0), to: &stamped)
        for offset in stride(from: 0, to: frame.count, by: InputEventBytes.size) {
            frame.replaceSubrange(offset..<offset + 16, with: stamped[0..<16])
        }
    }
}
