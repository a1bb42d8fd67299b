import CWaylandClient
import GridlockCore
import LinuxSys

/// The connection to the compositor: its registry, and its socket on the program's one
/// EventLoop.
///
/// Reading follows libwayland's protocol for a poll loop (prepare_read, read_events,
/// dispatch_pending), so nothing blocks; requests are flushed once at the end of the round
/// that made them, and a full socket (EAGAIN) waits for writability instead of spinning.
/// `connect(on:within:until:)` (gridlock-lock's) blocks nowhere: its connect and its first
/// roundtrip run on the loop, within a limit, while the loop serves signals. The plain
/// `connect` blocks for the roundtrip, for tools and tests that have no loop yet.
public final class WaylandConnection {
    /// How long a compositor may take to accept and finish the first roundtrip.
    public static let handshakeLimit: Duration = .seconds(5)

    let display: OpaquePointer
    /// Where wl_display_connect looked, for messages.
    public let socket: String
    public private(set) var globals = RegistryGlobals()
    /// The first error that ended the connection; nothing is sent or read after it.
    public private(set) var failure: WaylandError?

    private var registry: WaylandProxy?
    private var globalObservers: [(GlobalChange) -> Void] = []
    private var loop: EventLoop?
    private var watching: EventLoop.Watching?
    private var flushDeadline: EventLoop.Deadline?
    private var waitingToWrite = false
    private var failed: (WaylandError) -> Void = { _ in }

    public enum GlobalChange {
        case added(RegistryGlobal)
        case removed(RegistryGlobal)
    }

    private init(display: OpaquePointer, socket: String) {
        self.display = display
        self.socket = socket
    }

    deinit {
        if let watching { loop?.unwatch(watching) }
        registry?.destroyBeforeDisconnect()
        registry = nil
        wl_display_disconnect(display)
    }

    /// Connects as libwayland does (WAYLAND_DISPLAY, XDG_RUNTIME_DIR) and collects the
    /// registry's globals with one roundtrip.
    public static func connect(
        environment: (String) -> String? = ProcessEnvironment.value
    ) throws(WaylandError) -> WaylandConnection {
        let socket = WaylandSocket.path(environment: environment)
        guard let display = wl_display_connect(nil) else {
            throw .noCompositor(socket: socket, errno: .current)
        }
        let connection = WaylandConnection(display: display, socket: socket)
        try connection.collectGlobals()
        return connection
    }

    /// Speaks over a connection already made (a socket a compositor handed over, a test's
    /// peer), which it owns from here on; `name` stands for it in messages.
    public static func connect(adopting descriptor: FileDescriptor, name: String) throws(WaylandError) -> WaylandConnection {
        guard let display = wl_display_connect_to_fd(descriptor.rawValue) else {
            throw .noCompositor(socket: name, errno: .current)
        }
        let connection = WaylandConnection(display: display, socket: name)
        try connection.collectGlobals()
        return connection
    }

    /// Connects as libwayland does (WAYLAND_SOCKET, else WAYLAND_DISPLAY and XDG_RUNTIME_DIR)
    /// and collects the registry's globals, all on `loop`: nil when `stop` became true first
    /// (a signal the loop served), `noAnswer` when `limit` passed first, whatever the socket
    /// does (accepts and says nothing, sends garbage or half a message). The connection is
    /// attached to `loop` (see `attach`).
    public static func connect(
        on loop: EventLoop, within limit: Duration = handshakeLimit, until stop: () -> Bool,
        environment: (String) -> String? = ProcessEnvironment.value
    ) throws(WaylandError) -> WaylandConnection? {
        let socket = WaylandSocket.path(environment: environment)
        var expired = false
        let deadline = loop.deadline("wayland handshake", clock: .real) { _ in expired = true }
        deadline.due = loop.now() + limit
        defer { deadline.due = nil }
        let display: OpaquePointer
        if environment("WAYLAND_SOCKET") != nil {
            // A socket handed over by whoever started us: libwayland adopts it, no connect.
            guard let adopted = wl_display_connect(nil) else { throw .noCompositor(socket: socket, errno: .current) }
            display = adopted
        } else {
            var retryDue = false
            let retry = loop.deadline("wayland connect again", clock: .real) { _ in retryDue = true }
            defer { retry.due = nil }
            var descriptor: FileDescriptor?
            while descriptor == nil {
                do throws(SystemCallError) {
                    switch try UnixStreamSocket.connect(to: socket) {
                    case .connected(let connected): descriptor = connected
                    case .queueFull:
                        retryDue = false
                        retry.due = loop.now() + .milliseconds(50)
                        try loop.run(until: { retryDue || expired || stop() })
                    }
                } catch {
                    throw .noCompositor(socket: socket, errno: error.errno)
                }
                if stop() { return nil }
                if expired { throw .noAnswer(socket: socket, seconds: Int(limit.secondsRoundedUp)) }
            }
            guard let connected = descriptor, let adopted = wl_display_connect_to_fd(connected.rawValue) else {
                throw .noCompositor(socket: socket, errno: .current)
            }
            display = adopted
        }
        let connection = WaylandConnection(display: display, socket: socket)
        return try connection.handshake(on: loop, expired: { expired }, limit: limit, until: stop) ? connection : nil
    }

    /// `connect(on:within:until:)` over a connection already made (a test's peer).
    public static func connect(
        adopting descriptor: FileDescriptor, name: String, on loop: EventLoop, within limit: Duration = handshakeLimit,
        until stop: () -> Bool
    ) throws(WaylandError) -> WaylandConnection? {
        guard let display = wl_display_connect_to_fd(descriptor.rawValue) else {
            throw .noCompositor(socket: name, errno: .current)
        }
        var expired = false
        let deadline = loop.deadline("wayland handshake", clock: .real) { _ in expired = true }
        deadline.due = loop.now() + limit
        defer { deadline.due = nil }
        let connection = WaylandConnection(display: display, socket: name)
        return try connection.handshake(on: loop, expired: { expired }, limit: limit, until: stop) ? connection : nil
    }

    /// The registry and one sync, read on the loop: true once the sync is done, false when
    /// `stop` came first.
    private func handshake(
        on loop: EventLoop, expired: () -> Bool, limit: Duration, until stop: () -> Bool
    ) throws(WaylandError) -> Bool {
        try startRegistry()
        var done = false
        guard let pointer = wl_display_sync(display) else { throw currentError() }
        let sync = WaylandProxy(pointer, connection: self)
        sync.onEvent = { opcode, _ in if opcode == 0 { done = true } }
        defer { sync.destroy { wl_callback_destroy($0) } }
        var failure: WaylandError?
        try attach(to: loop) { failure = $0 }
        do throws(SystemCallError) {
            try loop.run(until: { done || failure != nil || expired() || stop() })
        } catch {
            throw .system(error)
        }
        if let failure { throw failure }
        if done { return true }
        if stop() { return false }
        throw .noAnswer(socket: socket, seconds: Int(limit.secondsRoundedUp))
    }

    private func collectGlobals() throws(WaylandError) {
        try startRegistry()
        guard wl_display_roundtrip(display) >= 0 else { throw currentError() }
    }

    private func startRegistry() throws(WaylandError) {
        guard let pointer = wl_display_get_registry(display) else { throw currentError() }
        let registry = WaylandProxy(pointer, connection: self)
        registry.onEvent = { [unowned self] opcode, arguments in
            switch RegistryEvent(rawValue: opcode) {
            case .global:
                let global = RegistryGlobal(name: arguments.uint(0), interface: arguments.string(1) ?? "", version: arguments.uint(2))
                globals.add(global)
                for observer in globalObservers { observer(.added(global)) }
            case .globalRemove:
                guard let global = globals.remove(name: arguments.uint(0)) else { return }
                for observer in globalObservers { observer(.removed(global)) }
            case nil:
                break
            }
        }
        self.registry = registry
    }

    /// Fails with `missingProtocols` naming each unmet requirement.
    public func require(_ requirements: [RequiredGlobals.Requirement]) throws(WaylandError) {
        let unmet = globals.unmet(requirements)
        if !unmet.isEmpty { throw .missingProtocols(unmet) }
    }

    /// Calls `observer` with every global there is now, as added, and then with every change.
    func observeGlobals(_ observer: @escaping (GlobalChange) -> Void) {
        globalObservers.append(observer)
        for global in globals.byName.values.sorted(by: { $0.name < $1.name }) { observer(.added(global)) }
    }

    /// Binds `global` at the newest version both sides know.
    func bind(
        _ global: RegistryGlobal, _ interface: UnsafePointer<wl_interface>, _ requirement: RequiredGlobals.Requirement
    ) -> OpaquePointer? {
        let version = RequiredGlobals.bindVersion(global, requirement)
        let bound = registry?.request { wl_registry_bind($0, global.name, interface, version) }
        return bound.flatMap { $0.map(OpaquePointer.init) }
    }

    /// Puts the socket on `loop`. `failed` runs once, on the loop, when the connection ends
    /// (the compositor exited, hung up or rejected a request): the caller exits non-zero.
    /// Attached already (by `connect(on:within:until:)`): only `failed` is replaced.
    public func attach(to loop: EventLoop, failed: @escaping (WaylandError) -> Void) throws(WaylandError) {
        if self.loop != nil {
            self.failed = failed
            if let failure { failed(failure) }
            return
        }
        self.loop = loop
        self.failed = failed
        let descriptor = FileDescriptor(rawValue: wl_display_get_fd(display))
        do {
            watching = try loop.watchReadiness(descriptor, as: "wayland") { [unowned self] ready in
                service(ready)
            }
        } catch {
            throw .system(error)
        }
        flushDeadline = loop.deadline("wayland flush", clock: .real) { [unowned self] _ in flush() }
        // What connect and the owners' set-up queued, and events already read by the roundtrip.
        dispatchPending()
        flush()
    }

    /// A request was queued: flush at the end of this round of the loop, once for all of them.
    func requestsQueued() {
        guard let loop, let flushDeadline, flushDeadline.due == nil else { return }
        flushDeadline.due = loop.now()
    }

    private func service(_ ready: EventPoller.Ready) {
        if ready.writable { flush() }
        if ready.readable || ready.hangUp || ready.error { readEvents() }
        flush()
    }

    /// libwayland's poll-loop protocol: events already queued are dispatched before reading,
    /// then one non-blocking read of the socket (the loop said it is readable), then dispatch.
    private func readEvents() {
        guard failure == nil else { return }
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { return fail() }
        }
        guard wl_display_read_events(display) >= 0 else { return fail() }
        dispatchPending()
    }

    private func dispatchPending() {
        guard failure == nil else { return }
        if wl_display_dispatch_pending(display) < 0 { fail() }
    }

    /// Writes what is queued; a full socket waits for writability (EAGAIN is no error).
    public func flush() {
        guard failure == nil else { return }
        if wl_display_flush(display) >= 0 {
            setWaitingToWrite(false)
            return
        }
        if Errno.current == .wouldBlock {
            setWaitingToWrite(true)
            return
        }
        fail()
    }

    private func setWaitingToWrite(_ waiting: Bool) {
        guard waiting != waitingToWrite, let loop, let watching else { return }
        do {
            try loop.setWritableInterest(watching, waiting)
            waitingToWrite = waiting
        } catch {
            fail(with: .system(error))
        }
    }

    private func fail() { fail(with: currentError()) }

    private func fail(with error: WaylandError) {
        guard failure == nil else { return }
        failure = error
        if let watching { loop?.unwatch(watching) }
        watching = nil
        flushDeadline?.due = nil
        failed(error)
    }

    /// The display's fatal error (a protocol error names the object), else the errno left behind.
    private func currentError() -> WaylandError {
        let code = wl_display_get_error(display)
        if code == Errno.protocolError.rawValue {
            var interface: UnsafePointer<wl_interface>?
            var objectID: UInt32 = 0
            let error = wl_display_get_protocol_error(display, &interface, &objectID)
            let name = interface.flatMap { $0.pointee.name.map { String(cString: $0) } } ?? "unknown interface"
            return .protocolError(interface: name, objectID: objectID, code: error)
        }
        return .disconnected(errno: code != 0 ? Errno(rawValue: code) : .current)
    }
}
