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

    @Test("udev's re-broadcasts and malformed datagrams are not kernel uevents")
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
    @Test("the socket binds to the kernel's group and reads nothing when nothing happened")
    func opensAndIsIdle() throws {
        let socket = try NetlinkUevents()
        let batch = try socket.readEvents()
        #expect(!batch.overflowed)
        // Any event here would be the machine's own hotplug; none is from DRM in a test run.
        #expect(!batch.events.contains { $0.subsystem == "drm" })
    }
}
