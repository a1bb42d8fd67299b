import CWaylandClient

/// One client-side Wayland object and the Swift code its events go to.
///
/// Events arrive through `wl_proxy_add_dispatcher` (one C-convention function decoding the
/// opcode and the argument array), for the core protocol as for the extensions: Swift cannot
/// fill in the generated listener structs of function pointers without a C shim per
/// interface. The owner keeps its proxies alive until it destroys them, and the connection
/// alive while it has them; a proxy does not keep its connection (the connection's registry
/// is one of them).
final class WaylandProxy {
    private(set) var pointer: OpaquePointer?
    private weak var connection: WaylandConnection?
    /// The event's opcode and its arguments, valid only during the call.
    var onEvent: (UInt32, WaylandEventArguments) -> Void = { _, _ in }

    init(_ pointer: OpaquePointer, connection: WaylandConnection) {
        self.pointer = pointer
        self.connection = connection
        let implementation = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        _ = wl_proxy_add_dispatcher(pointer, { implementation, _, opcode, _, arguments in
            guard let implementation else { return 0 }
            let proxy = Unmanaged<WaylandProxy>.fromOpaque(implementation).takeUnretainedValue()
            proxy.onEvent(opcode, WaylandEventArguments(base: arguments))
            return 0
        }, implementation, nil)
    }

    /// The object's protocol version, as bound (requests and events newer than it are not used).
    var version: UInt32 { pointer.map { wl_proxy_get_version($0) } ?? 0 }

    /// Sends request `opcode` with `arguments` (a `new_id` as a nil object placeholder);
    /// `creating` names the new object's interface, whose proxy is returned. A destructor
    /// request destroys the proxy with it.
    @discardableResult
    func send(
        _ opcode: UInt32, _ arguments: [wl_argument] = [], creating interface: UnsafePointer<wl_interface>? = nil,
        destroying: Bool = false
    ) -> OpaquePointer? {
        guard let pointer, connection != nil else { return nil }
        var arguments = arguments
        let flags = destroying ? GRIDLOCK_WL_MARSHAL_FLAG_DESTROY : 0
        let created = arguments.withUnsafeMutableBufferPointer { buffer in
            wl_proxy_marshal_array_flags(pointer, opcode, interface, wl_proxy_get_version(pointer), flags, buffer.baseAddress)
        }
        if destroying { self.pointer = nil }
        connection?.requestsQueued()
        return created
    }

    /// For core objects, whose destructor requests are the header's inline functions: runs
    /// `request` on the pointer, which destroys the proxy, and forgets it.
    func destroy(with request: (OpaquePointer) -> Void) {
        guard let pointer, connection != nil else { return }
        self.pointer = nil
        request(pointer)
        connection?.requestsQueued()
    }

    /// For a core request that is not a destructor (the header's inline functions).
    func request<Result>(_ body: (OpaquePointer) -> Result) -> Result? {
        guard let pointer, connection != nil else { return nil }
        defer { connection?.requestsQueued() }
        return body(pointer)
    }

    /// A proxy whose owner went away without destroying it: client-side only, the compositor
    /// forgets it with the connection. Once the display is disconnected there is nothing left
    /// to destroy it in.
    deinit {
        if let pointer, connection != nil { wl_proxy_destroy(pointer) }
    }

    /// Frees the client-side object now, while the display still exists: for the
    /// connection's own proxies in its deinit, where the weak `connection` already reads
    /// nil and `deinit` would leave the proxy to leak (LeakSanitizer found the registry's).
    func destroyBeforeDisconnect() {
        guard let pointer else { return }
        self.pointer = nil
        wl_proxy_destroy(pointer)
    }

    /// Whether an event's object argument is this object.
    func isSame(as object: OpaquePointer?) -> Bool { object != nil && object == pointer }
}

/// An event's arguments as the dispatcher receives them, read by position as the
/// protocol's XML lists them.
struct WaylandEventArguments {
    let base: UnsafeMutablePointer<wl_argument>?

    func uint(_ index: Int) -> UInt32 { base?[index].u ?? 0 }
    func int(_ index: Int) -> Int32 { base?[index].i ?? 0 }
    /// A `fixed`: 24.8 fixed point.
    func fixed(_ index: Int) -> Double { Double(base?[index].f ?? 0) / 256 }
    func string(_ index: Int) -> String? { base?[index].s.map { String(cString: $0) } }
    func object(_ index: Int) -> OpaquePointer? { base?[index].o }
}
