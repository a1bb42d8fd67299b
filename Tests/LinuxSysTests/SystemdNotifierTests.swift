import Glibc
import LinuxSys
import Testing

/// A datagram socket standing in for systemd's notify socket.
final class NotifySocket {
    let fd: Int32

    init(boundTo name: String, abstract: Bool) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Errno.current }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if abstract { bytes.insert(0, at: 0) } else { bytes.append(0) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard result == 0 else { throw Errno.current }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count < 0 ? nil : String(decoding: buffer[0..<count], as: UTF8.self)
    }
}

@Suite struct SystemdNotifierTests {
    @Test("sends to a path socket") func sendsToAPathSocket() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/notify"
        let receiver = try NotifySocket(boundTo: path, abstract: false)
        try SystemdNotifier(socketPath: path).notify("READY=1")
        #expect(receiver.receive() == "READY=1")
    }

    @Test("sends to an abstract socket") func sendsToAnAbstractSocket() throws {
        let name = "gridlock-test-\(getpid())-\(MonotonicClock.now().nanoseconds)"
        let receiver = try NotifySocket(boundTo: name, abstract: true)
        try SystemdNotifier(socketPath: "@\(name)").notify("STATUS=locked\nWATCHDOG=1")
        #expect(receiver.receive() == "STATUS=locked\nWATCHDOG=1")
    }

    @Test("without a socket nothing is sent") func withoutASocketNothingIsSent() throws {
        #expect(SystemdNotifier(socketPath: nil).socketPath == nil)
        #expect(SystemdNotifier(socketPath: "").socketPath == nil)
        try SystemdNotifier(socketPath: nil).notify("READY=1")
    }

    @Test("unreachable socket is an error naming it") func unreachableSocketIsAnErrorNamingIt() throws {
        let error = expectError(SystemCallError.self) {
            try SystemdNotifier(socketPath: "/nonexistent/notify").notify("READY=1")
        }
        #expect(error?.path == "/nonexistent/notify")
    }

    @Test("watchdog interval parsing") func watchdogIntervalParsing() {
        #expect(SystemdNotifier.watchdogInterval(usec: "5000000", pid: nil, ownPID: 10) == .seconds(5))
        #expect(SystemdNotifier.watchdogInterval(usec: "5000000", pid: "10", ownPID: 10) == .seconds(5))
        #expect(SystemdNotifier.watchdogInterval(usec: "5000000", pid: "11", ownPID: 10) == nil)
        #expect(SystemdNotifier.watchdogInterval(usec: "0", pid: nil, ownPID: 10) == nil)
        #expect(SystemdNotifier.watchdogInterval(usec: "-5", pid: nil, ownPID: 10) == nil)
        #expect(SystemdNotifier.watchdogInterval(usec: "5s", pid: nil, ownPID: 10) == nil)
        #expect(SystemdNotifier.watchdogInterval(usec: nil, pid: nil, ownPID: 10) == nil)
    }
}
