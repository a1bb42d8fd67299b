import CWaylandClient
import CWaylandProtocols

/// ext_idle_notifier_v1's notification for one seat: `idled` after `timeout` without input,
/// `resumed` at the next input. Optional: a compositor without ext-idle-notify-v1 offers
/// no relocking after idleness, which is reported, not fatal.
public final class IdleWatch {
    public enum Change: Hashable, Sendable {
        case idled
        case resumed
    }

    private let connection: WaylandConnection
    private let notifier: WaylandProxy
    private let notification: WaylandProxy

    init?(
        notifier global: RegistryGlobal, seat: WaylandProxy, timeoutMilliseconds: UInt32, connection: WaylandConnection,
        changed: @escaping (Change) -> Void
    ) {
        guard let seatPointer = seat.pointer,
              let bound = connection.bind(global, gridlock_ext_idle_notifier_v1_interface(), RequiredGlobals.idle)
        else { return nil }
        self.connection = connection
        notifier = WaylandProxy(bound, connection: connection)
        guard let made = notifier.send(
            IdleNotifierRequest.getIdleNotification.rawValue,
            [wl_argument(o: nil), wl_argument(u: timeoutMilliseconds), wl_argument(o: seatPointer)],
            creating: gridlock_ext_idle_notification_v1_interface()
        ) else { return nil }
        notification = WaylandProxy(made, connection: connection)
        notification.onEvent = { opcode, _ in
            switch IdleNotificationEventCode(rawValue: opcode) {
            case .idled: changed(.idled)
            case .resumed: changed(.resumed)
            case nil: break
            }
        }
    }

    deinit {
        notification.send(IdleNotificationRequest.destroy.rawValue, destroying: true)
        notifier.send(IdleNotifierRequest.destroy.rawValue, destroying: true)
    }
}
