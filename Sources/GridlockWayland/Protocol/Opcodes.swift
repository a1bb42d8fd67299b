/// Request and event opcodes: each is its position among the interface's requests or events
/// in the protocol's XML, which is what libwayland sends and dispatches by.

// The core protocol (/usr/share/wayland/wayland.xml). Its requests are sent with the
// header's inline functions; these are only the events GridlockWayland reads.
enum RegistryEvent: UInt32 { case global = 0, globalRemove = 1 }
enum CallbackEvent: UInt32 { case done = 0 }
enum BufferEvent: UInt32 { case release = 0 }
enum OutputEvent: UInt32 { case geometry = 0, mode = 1, done = 2, scale = 3, name = 4, description = 5 }
enum SeatEvent: UInt32 { case capabilities = 0, name = 1 }
enum SeatCapability {
    static let pointer: UInt32 = 1
    static let keyboard: UInt32 = 2
    static let touch: UInt32 = 4
}
enum PointerEvent: UInt32 {
    case enter = 0, leave = 1, motion = 2, button = 3, axis = 4, frame = 5
}
enum TouchEventCode: UInt32 { case down = 0, up = 1, motion = 2, frame = 3, cancel = 4 }

// staging/ext-session-lock/ext-session-lock-v1.xml
enum SessionLockManagerRequest: UInt32 { case destroy = 0, lock = 1 }
enum SessionLockRequest: UInt32 { case destroy = 0, getLockSurface = 1, unlockAndDestroy = 2 }
enum SessionLockEventCode: UInt32 { case locked = 0, finished = 1 }
enum LockSurfaceRequest: UInt32 { case destroy = 0, ackConfigure = 1 }
enum LockSurfaceEventCode: UInt32 { case configure = 0 }

// staging/ext-idle-notify/ext-idle-notify-v1.xml
enum IdleNotifierRequest: UInt32 { case destroy = 0, getIdleNotification = 1 }
enum IdleNotificationRequest: UInt32 { case destroy = 0 }
enum IdleNotificationEventCode: UInt32 { case idled = 0, resumed = 1 }

/// linux/input-event-codes.h: the one button that draws.
enum PointerButton {
    static let left: UInt32 = 0x110
}
