import CLinux
import Glibc

/// One kernel uevent: `ACTION@DEVPATH` followed by `KEY=VALUE` lines.
public struct Uevent: Hashable, Sendable {
    public var action: String
    public var devpath: String
    public var properties: [String: String]

    public var subsystem: String? { properties["SUBSYSTEM"] }

    /// Parses one datagram as the kernel sends it: NUL-separated strings, the first
    /// `action@devpath`. udev's re-broadcasts (which start with "libudev") are not
    /// kernel messages and give nil, as does anything malformed.
    public init?(datagram: some Collection<UInt8>) {
        let fields = datagram.split(separator: 0, omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        guard let header = fields.first, let at = header.firstIndex(of: "@") else { return nil }
        action = String(header[..<at])
        devpath = String(header[header.index(after: at)...])
        guard !action.isEmpty, !devpath.isEmpty else { return nil }
        var properties: [String: String] = [:]
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "=") else { continue }
            properties[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        self.properties = properties
    }
}

/// The kernel's uevent broadcast (netlink NETLINK_KOBJECT_UEVENT, multicast group 1),
/// read directly rather than through udev: a kiosk image may have no udev, and display
/// hotplug only needs to know *that* something changed, then look again.
public final class NetlinkUevents {
    public let fileDescriptor: FileDescriptor
    /// Uevents are small (at most a few KiB of environment); 16 KiB holds any one datagram.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 8)

    public init() throws(SystemCallError) {
        let fd = try systemCall("socket(AF_NETLINK, NETLINK_KOBJECT_UEVENT)") {
            socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                   NETLINK_KOBJECT_UEVENT)
        }
        fileDescriptor = FileDescriptor(rawValue: fd)
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_pid = 0  // let the kernel assign a unique port id
        address.nl_groups = 1  // the kernel's own broadcast group
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_nl>.size))
            }
        }
        if bound != 0 {
            let error = Errno.current
            fileDescriptor.close()
            buffer.deallocate()
            throw SystemCallError(operation: "bind(netlink uevent group)", errno: error)
        }
    }

    deinit {
        fileDescriptor.close()
        buffer.deallocate()
    }

    /// Every queued uevent. ENOBUFS (the socket overflowed during a burst) is reported as
    /// `overflowed`: events were lost, so the caller must rescan rather than trust the list.
    public func readEvents() throws(SystemCallError) -> (events: [Uevent], overflowed: Bool) {
        var events: [Uevent] = []
        var overflowed = false
        while true {
            let count = retryingOnInterrupt { recv(fileDescriptor.rawValue, buffer.baseAddress, buffer.count, 0) }
            if count > 0 {
                if let event = Uevent(datagram: UnsafeRawBufferPointer(rebasing: buffer[0..<count])) {
                    events.append(event)
                }
                continue
            }
            if count == 0 { break }
            let error = Errno.current
            if error == .wouldBlock { break }
            if error.rawValue == ENOBUFS {
                overflowed = true
                continue
            }
            throw SystemCallError(operation: "recv(netlink uevent)", errno: error)
        }
        return (events, overflowed)
    }
}
