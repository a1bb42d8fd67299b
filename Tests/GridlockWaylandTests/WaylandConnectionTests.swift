import GridlockCore
import GridlockWayland
import LinuxSys
import Testing

@Suite struct WaylandConnectionTests {
    /// Runs `loop` until the connection fails or a generous real-time limit passes.
    func runUntilFailed(_ connection: WaylandConnection, _ loop: EventLoop) throws -> [WaylandError] {
        var failures: [WaylandError] = []
        try connection.attach(to: loop) { failures.append($0) }
        var timedOut = false
        loop.deadline("limit", clock: .real) { _ in timedOut = true }.due = MonotonicClock.now() + .seconds(10)
        try loop.run(until: { !failures.isEmpty || timedOut })
        return failures
    }

    @Test("connecting collects the registry's globals in one roundtrip")
    func collectsGlobals() throws {
        var compositor = try FakeCompositor()
        defer { compositor.server.close() }
        compositor.global(1, "wl_compositor", version: 6)
        compositor.global(2, "wl_shm", version: 1)
        compositor.global(3, "wl_output", version: 4)
        compositor.roundtripDone()
        try compositor.send()
        let connection = try WaylandConnection.connect(adopting: compositor.client, name: "fake")
        #expect(connection.globals.first("wl_compositor")?.version == 6)
        #expect(connection.globals.all("wl_output").map(\.name) == [3])
        #expect(connection.globals.byName.count == 3)
    }

    @Test("a compositor without ext-session-lock-v1 is refused, naming it")
    func missingSessionLock() throws {
        var compositor = try FakeCompositor()
        defer { compositor.server.close() }
        compositor.global(1, "wl_compositor", version: 4)
        compositor.global(2, "wl_shm", version: 1)
        compositor.roundtripDone()
        try compositor.send()
        let connection = try WaylandConnection.connect(adopting: compositor.client, name: "fake")
        let error = expectError(WaylandError.self) { try SessionLock(connection: connection) { _ in } }
        #expect(error == .missingProtocols(["ext_session_lock_manager_v1"]))
    }

    @Test("the compositor closing the socket reaches the caller through the loop, once")
    func hangUpIsReported() throws {
        var compositor = try FakeCompositor()
        compositor.global(1, "wl_compositor", version: 4)
        compositor.roundtripDone()
        try compositor.send()
        let connection = try WaylandConnection.connect(adopting: compositor.client, name: "fake")
        try compositor.drain()
        compositor.server.close()
        let loop = try EventLoop()
        #expect(try runUntilFailed(connection, loop) == [.disconnected(errno: .brokenPipe)])
        #expect(connection.failure == .disconnected(errno: .brokenPipe))
        #expect(!loop.isWatching(compositor.client), "a dead socket must not wake the loop again")
    }

    @Test("a protocol error names the interface, the object and the code")
    func protocolErrorIsReported() throws {
        var compositor = try FakeCompositor()
        defer { compositor.server.close() }
        compositor.roundtripDone()
        try compositor.send()
        let connection = try WaylandConnection.connect(adopting: compositor.client, name: "fake")
        compositor.error(object: 2, code: 7, "bad request")
        try compositor.send()
        let loop = try EventLoop()
        let failures = try runUntilFailed(connection, loop)
        #expect(failures == [.protocolError(interface: "wl_registry", objectID: 2, code: 7)])
        #expect(failures.first?.description.contains("wl_registry@2") == true)
    }
}
