import GridlockCore
import LinuxSys

/// Where the daemon's touches come from: a libevdev device, or a recording played in
/// real time. A source registers on the loop itself (its descriptors, its named
/// deadline) and hands each touch to `emit` with the kernel's CLOCK_MONOTONIC time of
/// the input frame that made it. Its watches are named "touch" and its deadline "touch"
/// in the loop's wake-up counts.
public protocol TouchSource: AnyObject {
    func attach(to loop: EventLoop, emit: @escaping (TouchEvent, Instant) -> Void)
    /// Leaves the loop (the program stops).
    func detach()
    /// Give up or take back exclusive access (the handover action mode).
    func setGrabbed(_ grabbed: Bool)
    /// The logical frame and rotation changed (a display appeared or changed mode).
    func setFrame(_ frame: Size, rotation: Rotation)
    /// Map touches through the device's calibration matrix (true, as always but while
    /// calibrating), or through the identity (false): where the device itself puts the finger,
    /// which a new calibration is fitted on. A device opened meanwhile follows the setting.
    func setCalibrated(_ calibrated: Bool)
    /// The device node read now, nil while there is none (a recording says nil always).
    var devicePath: String? { get }
    /// Nothing more will ever come: a recording played to its end (a device never is).
    var isExhausted: Bool { get }
}

extension TouchSource {
    public var devicePath: String? { nil }
    public var isExhausted: Bool { false }
}
