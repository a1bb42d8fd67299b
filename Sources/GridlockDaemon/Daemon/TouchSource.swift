import GridlockCore
import LinuxSys

/// Where the daemon's touches come from: a libevdev device, or a recording played in
/// real time. The loop polls `descriptors` and wakes for `nextDeadline`.
public protocol TouchSource: AnyObject {
    var descriptors: [FileDescriptor] { get }
    /// CLOCK_MONOTONIC nanoseconds at which `handleDeadline` must run, if any.
    var nextDeadline: Int64? { get }
    func handleReadable(_ descriptor: FileDescriptor, now: Int64, emit: (TouchEvent) -> Void)
    func handleDeadline(now: Int64, emit: (TouchEvent) -> Void)
    /// Give up or take back exclusive access (the handover action mode).
    func setGrabbed(_ grabbed: Bool)
    /// The logical frame and rotation changed (a display appeared or changed mode).
    func setFrame(_ frame: Size, rotation: Rotation)
    /// Changes whenever a descriptor was closed or opened: a new device's descriptor can
    /// reuse a closed one's number, so equal `descriptors` do not mean the same files.
    var descriptorGeneration: Int { get }
    /// CLOCK_MONOTONIC kernel time of the last input frame read, for input-to-frame latency.
    var lastFrameKernelTime: Int64? { get }
}

extension TouchSource {
    public var descriptorGeneration: Int { 0 }
    public var lastFrameKernelTime: Int64? { nil }
}
