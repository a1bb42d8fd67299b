import CWaylandClient

/// One wl_seat and the wl_touch and wl_pointer it offers, its events turned into
/// `SurfaceInput` by an `InputTranslator`. The keyboard is not taken: a pattern lock reads
/// no keys.
final class Seat {
    let global: RegistryGlobal
    let seat: WaylandProxy
    private var touch: WaylandProxy?
    private var pointer: WaylandProxy?
    private var translator: InputTranslator
    private let deliver: (SurfaceInput) -> Void

    init(
        global: RegistryGlobal, proxy: OpaquePointer, connection: WaylandConnection,
        surface: @escaping (OpaquePointer) -> (id: SurfaceID, scale: Int)?, deliver: @escaping (SurfaceInput) -> Void
    ) {
        self.global = global
        seat = WaylandProxy(proxy, connection: connection)
        translator = InputTranslator(surface: surface)
        self.deliver = deliver
        seat.onEvent = { [unowned self] opcode, arguments in
            if SeatEvent(rawValue: opcode) == .capabilities { capabilities(arguments.uint(0), connection: connection) }
        }
    }

    deinit {
        release(&touch) { wl_touch_release($0) }
        release(&pointer) { wl_pointer_release($0) }
        if seat.version >= 5 { seat.destroy { wl_seat_release($0) } } else { seat.destroy { wl_seat_destroy($0) } }
    }

    func forget(_ id: SurfaceID) { translator.forget(id) }

    /// Devices come and go with the capabilities (a touchscreen unplugged).
    private func capabilities(_ capabilities: UInt32, connection: WaylandConnection) {
        if capabilities & SeatCapability.touch != 0, touch == nil {
            if let made = seat.request({ wl_seat_get_touch($0) }) ?? nil {
                let proxy = WaylandProxy(made, connection: connection)
                proxy.onEvent = { [unowned self] opcode, arguments in touchEvent(opcode, arguments) }
                touch = proxy
            }
        } else if capabilities & SeatCapability.touch == 0, touch != nil {
            release(&touch) { wl_touch_release($0) }
        }
        if capabilities & SeatCapability.pointer != 0, pointer == nil {
            if let made = seat.request({ wl_seat_get_pointer($0) }) ?? nil {
                let proxy = WaylandProxy(made, connection: connection)
                proxy.onEvent = { [unowned self] opcode, arguments in pointerEvent(opcode, arguments) }
                pointer = proxy
            }
        } else if capabilities & SeatCapability.pointer == 0, pointer != nil {
            release(&pointer) { wl_pointer_release($0) }
        }
    }

    /// wl_touch and wl_pointer have a release request from version 3; before it, only
    /// the client-side proxy can go.
    private func release(_ device: inout WaylandProxy?, _ request: (OpaquePointer) -> Void) {
        guard let proxy = device else { return }
        device = nil
        if proxy.version >= 3 { proxy.destroy(with: request) } else { proxy.destroy { wl_proxy_destroy($0) } }
    }

    // wl_touch events (wayland.xml): down(serial, time, surface, id, x, y), up(serial, time, id),
    // motion(time, id, x, y), frame, cancel.
    private func touchEvent(_ opcode: UInt32, _ arguments: WaylandEventArguments) {
        let input: SurfaceInput?
        switch TouchEventCode(rawValue: opcode) {
        case .down:
            input = translator.touchDown(
                on: arguments.object(2), touch: arguments.int(3), x: arguments.fixed(4), y: arguments.fixed(5), time: arguments.uint(1))
        case .up: input = translator.touchUp(touch: arguments.int(2), time: arguments.uint(1))
        case .motion:
            input = translator.touchMotion(touch: arguments.int(1), x: arguments.fixed(2), y: arguments.fixed(3), time: arguments.uint(0))
        case .frame: input = .touchFrame
        case .cancel: input = translator.touchCancel()
        case nil: input = nil
        }
        if let input { deliver(input) }
    }

    // wl_pointer events (wayland.xml): enter(serial, surface, x, y), leave(serial, surface),
    // motion(time, x, y), button(serial, time, button, state), axis, frame.
    private func pointerEvent(_ opcode: UInt32, _ arguments: WaylandEventArguments) {
        let input: SurfaceInput?
        switch PointerEvent(rawValue: opcode) {
        case .enter: input = translator.pointerEnter(arguments.object(1), x: arguments.fixed(2), y: arguments.fixed(3))
        case .leave: input = translator.pointerLeave()
        case .motion: input = translator.pointerMotion(x: arguments.fixed(1), y: arguments.fixed(2), time: arguments.uint(0))
        case .button:
            // wl_pointer.button_state: 1 is pressed.
            input = translator.pointerButton(arguments.uint(2), pressed: arguments.uint(3) == 1, time: arguments.uint(1))
        case .frame: input = .pointerFrame
        case .axis, nil: input = nil
        }
        if let input { deliver(input) }
    }
}
