import GridlockCore
import GridlockInput
import LinuxSys

/// What one read from an evdev device gave (libevdev_next_event's outcomes).
public enum EvdevReadResult: Hashable, Sendable {
    /// An event, in normal mode or one of the sync events in sync mode.
    case event(InputEvent)
    /// Normal mode met SYN_DROPPED (LIBEVDEV_READ_STATUS_SYNC): events were lost, and the
    /// events that bring the device's state up to date must now be read in sync mode.
    case syncNeeded(InputEvent)
    /// Nothing more right now (-EAGAIN); in sync mode: the sync is complete.
    case exhausted
    /// The read failed; ENODEV or EIO mean the device is gone.
    case failed(Errno)
}

/// One open evdev device as the read loop sees it: libevdev in the daemon
/// (`EvdevDevice`), a scripted fake in tests. Kept this small so that the loop's
/// handling of drops and losses is testable without a kernel.
public protocol EvdevEventSource: AnyObject {
    /// `sync`: read the events libevdev queued after a SYN_DROPPED (LIBEVDEV_READ_FLAG_SYNC).
    func nextEvent(sync: Bool) -> EvdevReadResult
    /// The device's touch state as libevdev now holds it (after a sync, the kernel's).
    func touchSnapshot() -> TouchSnapshot
}

/// An open device as the daemon's touch source holds it: the event source plus what it
/// polls, grabs and closes. `EvdevDevice` in the daemon; fakes over a pipe in tests.
public protocol EvdevDeviceHandle: EvdevEventSource {
    var path: String { get }
    var fileDescriptor: FileDescriptor { get }
    var description: DeviceDescription { get }
    func setGrabbed(_ grabbed: Bool) throws(EvdevError)
    func close()
}

extension EvdevDevice: EvdevDeviceHandle {}
