import LinuxSys
import Testing

@Suite("Kernel uevents")
struct UeventTests {
    static func datagram(_ fields: [String]) -> [UInt8] {
        fields.flatMap { Array($0.utf8) + [0] }
    }

    @Test("a DRM hotplug uevent parses into action, devpath and properties")
    func hotplug() throws {
        let bytes = Self.datagram([
            "change@/devices/pci0000:00/0000:00:02.0/drm/card0", "ACTION=change",
            "DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0", "SUBSYSTEM=drm", "HOTPLUG=1", "DEVNAME=dri/card0",
            "DEVTYPE=drm_minor", "SEQNUM=2961", "MAJOR=226", "MINOR=0",
        ])
        let event = try #require(Uevent(datagram: bytes))
        #expect(event.action == "change")
        #expect(event.devpath == "/devices/pci0000:00/0000:00:02.0/drm/card0")
        #expect(event.subsystem == "drm")
        #expect(event.properties["HOTPLUG"] == "1")
        #expect(event.properties["DEVNAME"] == "dri/card0")
    }

    @Test("a value may itself contain '='")
    func valueWithEquals() throws {
        let event = try #require(Uevent(datagram: Self.datagram(["add@/x", "SUBSYSTEM=input", "MODALIAS=input:b0003v=1"])))
        #expect(event.properties["MODALIAS"] == "input:b0003v=1")
    }

    /// udev's monitor datagram: its header (prefix, big-endian magic, then the header's size
    /// and the properties' offset and length in the sender's order), filter words, properties.
    static func udevDatagram(_ fields: [String], magic: [UInt8] = [0xFE, 0xED, 0xCA, 0xFE]) -> [UInt8] {
        let properties = datagram(fields)
        func word(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        return Array("libudev".utf8) + [0] + magic + word(40) + word(40) + word(properties.count)
            + [UInt8](repeating: 0, count: 16) + properties
    }

    @Test("udev's re-broadcast (after its rules ran) parses from the offset its header gives")
    func udevRebroadcast() throws {
        let event = try #require(Uevent(datagram: Self.udevDatagram([
            "ACTION=add", "DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0", "SUBSYSTEM=drm", "DEVNAME=/dev/dri/card0",
        ])))
        #expect(event.fromUdev)
        #expect(event.action == "add")
        #expect(event.devpath == "/devices/pci0000:00/0000:00:02.0/drm/card0")
        #expect(event.subsystem == "drm")
        let kernel = try #require(Uevent(datagram: Self.datagram(["add@/x", "SUBSYSTEM=drm"])))
        #expect(!kernel.fromUdev)
    }

    @Test("udev's datagrams with a wrong magic, an offset or length past the end, or no action are refused")
    func udevMalformed() {
        #expect(Uevent(datagram: Self.udevDatagram(["ACTION=add", "DEVPATH=/x"], magic: [0, 0, 0, 0])) == nil)
        var truncated = Self.udevDatagram(["ACTION=add", "DEVPATH=/x"])
        truncated.removeLast(4)
        #expect(Uevent(datagram: truncated) == nil)
        #expect(Uevent(datagram: Self.udevDatagram(["DEVPATH=/x", "SUBSYSTEM=drm"])) == nil)
        #expect(Uevent(datagram: Array("libudev".utf8) + [0, 0xFE, 0xED]) == nil)
    }

    @Test("malformed datagrams are not uevents")
    func rejects() {
        var udev = Array("libudev".utf8) + [0, 0xFE, 0xED, 0xCA, 0xFE]
        udev += Self.datagram(["ACTION=change"])
        #expect(Uevent(datagram: udev) == nil)
        #expect(Uevent(datagram: Self.datagram(["@/devices/x"])) == nil)
        #expect(Uevent(datagram: Self.datagram(["change@"])) == nil)
        #expect(Uevent(datagram: [UInt8]()) == nil)
    }
}

@Suite("Kernel uevent socket")
struct UeventSocketTests {
    @Test("the socket binds to the kernel's and udev's groups and reads nothing when nothing happened")
    func opensAndIsIdle() throws {
        let socket = try NetlinkUevents()
        let batch = try socket.readEvents()
        #expect(!batch.overflowed)
        // Any event here would be the machine's own hotplug; none is from DRM in a test run.
        #expect(!batch.events.contains { $0.subsystem == "drm" })
    }
}
