import GridlockCore
import LinuxSys

/// `[touch] backend=none`: no device is opened, so none is grabbed from the compositor;
/// strokes come from the session socket only.
public final class NoTouchSource: TouchSource {
    public init() {}
    public func attach(to loop: EventLoop, emit: @escaping (TouchEvent, Instant) -> Void) {}
    public func detach() {}
    public func setGrabbed(_ grabbed: Bool) {}
    public func setFrame(_ frame: Size, rotation: Rotation) {}
    public func setCalibrated(_ calibrated: Bool) {}
}
