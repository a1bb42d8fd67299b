import CLinux
import Glibc

/// One uevent: the kernel's (`ACTION@DEVPATH` followed by `KEY=VALUE` lines), or udev's
/// re-broadcast of it once its rules ran (the node's group and mode set).
public struct Uevent: Hashable, Sendable {
    public var action: String
    public var devpath: String
    public var properties: [String: String]
    /// Sent by udev after its rules ran, not by the kernel.
    public var fromUdev = false

    public var subsystem: String? { properties["SUBSYSTEM"] }

    /// Parses one datagram: the kernel's NUL-separated strings, the first `action@devpath`;
    /// or udev's, a "libudev" header whose properties (ACTION=, DEVPATH=, ...) lie at the
    /// offset it gives. Anything malformed gives nil. Either only ever says that something
    /// may have changed: a reader looks at the hardware again, and trusts nothing else in it.
    public init?(datagram: some Collection<UInt8>) {
        let bytes = Array(datagram)
        if bytes.starts(with: Self.udevPrefix) {
            guard let properties = Self.udevProperties(bytes), let action = properties["ACTION"],
                  let devpath = properties["DEVPATH"], !action.isEmpty, !devpath.isEmpty else { return nil }
            self.action = action
            self.devpath = devpath
            self.properties = properties
            fromUdev = true
            return
        }
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        guard let header = fields.first, let at = header.firstIndex(of: "@") else { return nil }
        action = String(header[..<at])
        devpath = String(header[header.index(after: at)...])
        guard !action.isEmpty, !devpath.isEmpty else { return nil }
        properties = Self.properties(fields.dropFirst())
    }

    /// "libudev" and its NUL: the start of udev's monitor header.
    static let udevPrefix: [UInt8] = Array("libudev".utf8) + [0]

    /// udev's header (its monitor's, systemd `struct monitor_netlink_header`): the prefix,
    /// a big-endian magic 0xfeedcafe, then in the sender's byte order the header's size and
    /// the properties' offset and length.
    private static func udevProperties(_ bytes: [UInt8]) -> [String: String]? {
        guard bytes.count >= 24, Array(bytes[8..<12]) == [0xFE, 0xED, 0xCA, 0xFE] else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) } }
        let offset = word(16), length = word(20)
        guard offset >= 24, length > 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        let fields = bytes[offset..<offset + length].split(separator: 0, omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        return properties(fields[...])
    }

    private static func properties(_ fields: ArraySlice<String>) -> [String: String] {
        var properties: [String: String] = [:]
        for field in fields {
            guard let equals = field.firstIndex(of: "=") else { continue }
            properties[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        return properties
    }
}

/// The kernel's uevent broadcast (netlink NETLINK_KOBJECT_UEVENT, multicast group 1) and
/// udev's re-broadcast once its rules ran (group 2), read directly rather than through
/// libudev: a kiosk image may have no udev, and display hotplug only needs to know *that*
/// something changed, then look again. udev's is what an unprivileged reader needs: the
/// kernel's event for a new card comes before udev gave its node the `video` group, so a
/// look then is refused; udev's comes after.
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
        address.nl_groups = 1 | 2  // the kernel's own broadcast, and udev's after its rules
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
