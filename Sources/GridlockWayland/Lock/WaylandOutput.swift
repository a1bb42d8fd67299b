import CWaylandClient

/// One wl_output: its integer scale and name, applied as a whole at `done`.
final class WaylandOutput {
    let global: RegistryGlobal
    let proxy: WaylandProxy
    private(set) var scale = 1
    private(set) var name: String?
    /// The first `done` came: the scale is known.
    private(set) var isReady = false
    private var pendingScale = 1
    private var pendingName: String?

    init(global: RegistryGlobal, proxy: OpaquePointer, connection: WaylandConnection, changed: @escaping (WaylandOutput) -> Void) {
        self.global = global
        self.proxy = WaylandProxy(proxy, connection: connection)
        self.proxy.onEvent = { [unowned self] opcode, arguments in
            switch OutputEvent(rawValue: opcode) {
            case .scale: pendingScale = max(1, Int(arguments.int(0)))
            case .name: pendingName = arguments.string(0)
            case .done:
                scale = pendingScale
                name = pendingName ?? name
                isReady = true
                changed(self)
            default: break
            }
        }
    }

    deinit {
        if proxy.version >= 3 { proxy.destroy { wl_output_release($0) } } else { proxy.destroy { wl_output_destroy($0) } }
    }
}
