import Foundation
import Glibc
import GridlockCore
import GridlockWayland
import LinuxSys
import Testing

/// The compositor's first roundtrip, on the loop and within a limit: whatever the socket
/// does, the face gets an answer, a refusal or the deadline, and never waits with its
/// signals blocked.
@Suite struct WaylandHandshakeTests {
    /// A loop on a scripted clock, long past on CLOCK_MONOTONIC, that moves one second at
    /// each reading: the handshake's deadline comes within a few rounds, and what the socket
    /// already holds is handled in the first (order, not speed).
    func scriptedLoop() throws -> EventLoop {
        let loop = try EventLoop()
        var time = Instant(nanoseconds: 1_000_000)
        loop.now = {
            time = time + .seconds(1)
            return time
        }
        return loop
    }

    @Test("on the loop, a compositor's globals are collected as by the blocking connect")
    func collectsGlobalsOnTheLoop() throws {
        var compositor = try FakeCompositor()
        defer { compositor.server.close() }
        compositor.global(1, "wl_compositor", version: 6)
        compositor.global(2, "wl_shm", version: 1)
        compositor.roundtripDone()
        try compositor.send()
        let loop = try EventLoop()
        let connection = try #require(try WaylandConnection.connect(adopting: compositor.client, name: "fake", on: loop, until: { false }))
        #expect(connection.globals.first("wl_compositor")?.version == 6)
        #expect(connection.globals.byName.count == 2)
    }

    @Test("a socket that accepts and says nothing is given up on at the handshake's deadline")
    func silenceEndsAtTheDeadline() throws {
        let compositor = try FakeCompositor()
        defer { compositor.server.close() }
        let loop = try scriptedLoop()
        let error = expectError(WaylandError.self) {
            _ = try WaylandConnection.connect(adopting: compositor.client, name: "fake", on: loop, until: { false })
        }
        #expect(error == .noAnswer(socket: "fake", seconds: 5))
    }

    @Test("a header claiming 65 KiB, or garbage, ends in an error or the deadline, never a wait")
    func garbageAndHugeHeadersEnd() throws {
        let huge = FakeCompositor.word(2) + FakeCompositor.word(0xFFFC << 16 | 0) + [UInt8](repeating: 0x41, count: 64)
        let garbage = FakeCompositor.word(1) + FakeCompositor.word(8 << 16 | 77) + [UInt8](repeating: 0xFF, count: 40)
        for bytes in [huge, garbage] {
            let compositor = try FakeCompositor()
            defer { compositor.server.close() }
            try compositor.server.writeAll(bytes)
            let loop = try scriptedLoop()
            let error = expectError(WaylandError.self) {
                _ = try WaylandConnection.connect(adopting: compositor.client, name: "fake", on: loop, until: { false })
            }
            #expect(error != nil, "\(bytes.prefix(8))")
        }
    }

    @Test("a stop asked for while the compositor says nothing ends the handshake at once, with no error")
    func aStopEndsTheHandshake() throws {
        let compositor = try FakeCompositor()
        defer { compositor.server.close() }
        let loop = try EventLoop()
        var stopped = false
        // Stands for the signal the loop serves (SIGTERM's handler sets the same flag).
        loop.deadline("a signal") { _ in stopped = true }.due = loop.now()
        let connection = try WaylandConnection.connect(adopting: compositor.client, name: "fake", on: loop, within: .seconds(3600), until: { stopped })
        #expect(connection == nil)
    }
}

/// `gridlock-lock` itself against a socket that is no compositor: SIGTERM is answered with
/// exit 0 while it connects, and silence with exit 69 after the handshake's limit.
@Suite("gridlock-lock against a socket that is no compositor", .serialized)
struct GridlockLockHandshakeTests {
    static var binary: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("gridlock-lock").path
    }

    /// A listening stream socket at `path`, as a compositor's would be.
    func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && Glibc.listen(fd, 4) == 0)
        return fd
    }

    /// Waits for the face's connection: its loop (and signalfd) exists by then. 20 s is a
    /// failure, never an expectation.
    func accept(_ listener: Int32) throws -> Int32 {
        var poll = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        try #require(Glibc.poll(&poll, 1, 20_000) == 1, "gridlock-lock never connected")
        let fd = Glibc.accept(listener, nil, nil)
        try #require(fd >= 0)
        return fd
    }

    func start(_ folder: String) throws -> SpawnedProcess {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build it: swift build --build-tests")
        return try SpawnedProcess.spawn(
            argv: [Self.binary, "--socket", "\(folder)/no-gridlockd.sock"],
            environment: ["WAYLAND_DISPLAY=wayland-test", "XDG_RUNTIME_DIR=\(folder)", "PATH=/usr/bin:/bin"])
    }

    @Test("SIGTERM while the socket accepts and says nothing, or sends a header claiming 65 KiB, exits 0")
    func sigtermWhileConnecting() throws {
        for talk in [[UInt8](), FakeCompositor.word(2) + FakeCompositor.word(0xFFFC << 16 | 0)] {
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let listener = try listen(at: "\(folder)/wayland-test")
            defer { close(listener) }
            let face = try start(folder)
            let peer = try accept(listener)
            defer { close(peer) }
            if !talk.isEmpty { _ = talk.withUnsafeBytes { write(peer, $0.baseAddress, talk.count) } }
            kill(face.pid, SIGTERM)
            let ended = try face.waitForExit()
            #expect(ended.status == .exited(0), "\(String(decoding: ended.output, as: UTF8.self))")
        }
    }

    @Test("a socket that accepts and never answers is given up on after the handshake's limit, exit 69, saying why")
    func silenceExits69() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listener = try listen(at: "\(folder)/wayland-test")
        defer { close(listener) }
        let face = try start(folder)
        let peer = try accept(listener)
        defer { close(peer) }
        let ended = try face.waitForExit()
        let output = String(decoding: ended.output, as: UTF8.self)
        #expect(ended.status == .exited(69), "\(output)")
        #expect(output.contains("no Wayland compositor answered at \(folder)/wayland-test within 5 s"), "\(output)")
    }

    func makeTemporaryFolder() throws -> String {
        var template = Array("/tmp/gridlock-lock-test-XXXXXX".utf8CString)
        guard let result = mkdtemp(&template) else { throw Errno.current }
        return String(cString: result)
    }
}
