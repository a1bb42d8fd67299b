import GridlockCore
import LinuxSys

/// Where the daemon's touches come from: a libevdev device, or a recording played in
/// real time. The loop watches `descriptors` and wakes for `nextDeadline`; every touch
/// leaves with the kernel's CLOCK_MONOTONIC time of the input frame that made it.
public protocol TouchSource: AnyObject {
    var descriptors: [FileDescriptor] { get }
    /// When `handleDeadline` must run, if ever.
    var nextDeadline: Instant? { get }
    func handleReadable(_ descriptor: FileDescriptor, now: Instant, emit: (TouchEvent, Instant) -> Void)
    func handleDeadline(now: Instant, emit: (TouchEvent, Instant) -> Void)
    /// Give up or take back exclusive access (the handover action mode).
    func setGrabbed(_ grabbed: Bool)
    /// The logical frame and rotation changed (a display appeared or changed mode).
    func setFrame(_ frame: Size, rotation: Rotation)
    /// Changes whenever a descriptor was closed or opened: a new device's descriptor can
    /// reuse a closed one's number, so equal `descriptors` do not mean the same files.
    var descriptorGeneration: Int { get }
    /// The device node read now, nil while there is none (a recording says nil always).
    var devicePath: String? { get }
}

extension TouchSource {
    public var descriptorGeneration: Int { 0 }
    public var devicePath: String? { nil }
}
