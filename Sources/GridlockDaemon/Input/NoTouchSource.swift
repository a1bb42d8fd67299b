import GridlockCore
import LinuxSys

/// `[touch] backend=none`: no device is opened, so none is grabbed from the compositor;
/// strokes come from the session socket only.
final class NoTouchSource: TouchSource {
    func attach(to loop: EventLoop, emit: @escaping (TouchEvent, Instant) -> Void) {}
    func detach() {}
    func setGrabbed(_ grabbed: Bool) {}
    func setFrame(_ frame: Size, rotation: Rotation) {}
}
