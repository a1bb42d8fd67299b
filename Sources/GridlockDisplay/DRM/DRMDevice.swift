import CDRM
import GridlockCore
import LinuxSys

/// Why the DRM display could not do something, with the device and the errno.
public enum DRMError: Error, Hashable, CustomStringConvertible {
    case system(path: String, operation: String, errno: Errno)
    /// No /dev/dri/card* exposes KMS resources with dumb buffers.
    case noCard(tried: [String])
    case choice(KMSChoiceError)

    public var description: String {
        switch self {
        case .system(let path, let operation, let errno): "\(path): \(operation): \(errno)"
        case .noCard(let tried):
            tried.isEmpty
                ? "no DRM card: /dev/dri has no card* node"
                : "no DRM card with modesetting and dumb buffers among \(tried.joined(separator: ", "))"
        case .choice(let error): "\(error)"
        }
    }

    public var errno: Errno? {
        if case .system(_, _, let errno) = self { return errno }
        return nil
    }

    var asDisplayError: DisplayError {
        switch self {
        case .system(let path, let operation, let errno): .device(path: path, operation: operation, reason: "\(errno)")
        default: .device(path: "drm", operation: "display", reason: description)
        }
    }
}

/// A dumb buffer: kernel memory the display scans out, mapped into this process and
/// registered as a framebuffer. Written only, never read (it may be uncached).
struct DumbBuffer {
    var handle: UInt32
    var framebufferID: UInt32
    var width: Int
    var height: Int
    var stride: Int
    var size: Int
    var pixels: UnsafeMutableRawPointer
}

/// What `DRMOutput` needs of a card: `DRMDevice` on a kernel, a fake in the tests (which
/// check flip pacing, master hand-over and restore without /dev/dri).
protocol KMSDevice: AnyObject {
    var path: String { get }
    var fileDescriptor: FileDescriptor { get }
    func readCard() throws(DRMError) -> KMSCard
    func readCrtc(_ id: UInt32) -> KMSCrtc?
    func setMaster() throws(DRMError)
    func dropMaster() throws(DRMError)
    func createDumbBuffer(width: Int, height: Int) throws(DRMError) -> DumbBuffer
    func destroy(_ buffer: DumbBuffer)
    func setCrtc(_ crtcID: UInt32, framebufferID: UInt32, x: UInt32, y: UInt32, connectorID: UInt32, mode: KMSMode) throws(DRMError)
    func disableCrtc(_ crtcID: UInt32) throws(DRMError)
    func pageFlip(_ crtcID: UInt32, framebufferID: UInt32) throws(DRMError)
    var completedFlips: UInt32 { get }
    /// The vblank sequence and CLOCK_MONOTONIC time the newest flip event reported.
    var lastFlipEvent: (sequence: UInt32, time: Instant) { get }
    func handleEvents() throws(DRMError)
    func dirtyFramebuffer(_ framebufferID: UInt32, physicalRects: [Rect]) -> Errno?
    func setConnectorProperty(_ connectorID: UInt32, property: UInt32, value: UInt64, name: String) throws(DRMError)
}

/// How cards are opened: the kernel's /dev/dri, or the tests' fakes.
struct KMSDeviceOpener {
    var open: (String) throws(DRMError) -> any KMSDevice
    var openAll: () -> (opened: [(device: any KMSDevice, card: KMSCard)], tried: [String])

    static var system: KMSDeviceOpener {
        KMSDeviceOpener(
        open: { (path) throws(DRMError) in try DRMDevice(path: path) },
        openAll: {
            let all = DRMDevice.openAll()
            return (all.opened.map { ($0.device as any KMSDevice, $0.card) }, all.tried)
        })
    }
}

/// The thin adapter over libdrm: one open card. It decides nothing; it reads the card into
/// `KMSCard` values and carries out what `DRMOutput` asks, turning every failure into a
/// `DRMError` with the path and errno. Not thread-safe: it belongs to the loop thread.
final class DRMDevice: KMSDevice {
    let path: String
    let fileDescriptor: FileDescriptor
    /// Filled in by the C page-flip handler through the flip's user data (see shim.h).
    private let flipRecord: UnsafeMutablePointer<gridlock_flip_record>

    /// Opens the card non-blocking (reading flip events must never stall the loop).
    init(path: String) throws(DRMError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, [.readWrite, .nonBlocking])
        } catch {
            throw .system(path: path, operation: "open", errno: error.errno)
        }
        self.path = path
        fileDescriptor = fd
        flipRecord = .allocate(capacity: 1)
        flipRecord.initialize(to: gridlock_flip_record())
    }

    deinit {
        fileDescriptor.close()
        flipRecord.deallocate()
    }

    private var fd: Int32 { fileDescriptor.rawValue }

    /// libdrm's mode-setting calls return `-errno`.
    private func check(_ result: Int32, _ operation: String) throws(DRMError) {
        if result < 0 { throw .system(path: path, operation: operation, errno: Errno(rawValue: -result)) }
    }

    /// libdrm's core calls (drmIoctl, drmSetMaster, drmGetCap) return -1 and set errno.
    private func checkErrno(_ result: Int32, _ operation: String) throws(DRMError) {
        if result != 0 { throw .system(path: path, operation: operation, errno: .current) }
    }

    // MARK: Reading the card

    var supportsDumbBuffers: Bool {
        var value: UInt64 = 0
        return drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &value) == 0 && value != 0
    }

    var driverName: String {
        guard let version = drmGetVersion(fd) else { return "" }
        defer { drmFreeVersion(version) }
        guard let name = version.pointee.name else { return "" }
        return String(cString: name)
    }

    /// Everything the choice needs. Reading connectors makes the kernel probe them
    /// (EDID, hotplug state), which is what start-up and a hotplug event want.
    func readCard() throws(DRMError) -> KMSCard {
        guard let resources = drmModeGetResources(fd) else {
            throw .system(path: path, operation: "drmModeGetResources (no KMS?)", errno: .current)
        }
        defer { drmModeFreeResources(resources) }
        let r = resources.pointee
        var connectors: [KMSConnector] = []
        for i in 0..<Int(r.count_connectors) {
            if let connector = readConnector(r.connectors[i]) { connectors.append(connector) }
        }
        var encoders: [KMSEncoder] = []
        for i in 0..<Int(r.count_encoders) {
            guard let encoder = drmModeGetEncoder(fd, r.encoders[i]) else { continue }
            encoders.append(KMSEncoder(
                id: encoder.pointee.encoder_id, crtcID: encoder.pointee.crtc_id,
                possibleCrtcs: encoder.pointee.possible_crtcs))
            drmModeFreeEncoder(encoder)
        }
        var crtcs: [KMSCrtc] = []
        for i in 0..<Int(r.count_crtcs) {
            // Keep the position even when unreadable: possible_crtcs bits index this list.
            crtcs.append(readCrtc(r.crtcs[i]) ?? KMSCrtc(id: r.crtcs[i]))
        }
        return KMSCard(
            path: path, driver: driverName, supportsDumbBuffers: supportsDumbBuffers, connectors: connectors,
            encoders: encoders, crtcs: crtcs)
    }

    func readCrtc(_ id: UInt32) -> KMSCrtc? {
        guard let crtc = drmModeGetCrtc(fd, id) else { return nil }
        defer { drmModeFreeCrtc(crtc) }
        let c = crtc.pointee
        return KMSCrtc(
            id: c.crtc_id, bufferID: c.buffer_id, x: c.x, y: c.y,
            mode: c.mode_valid != 0 ? Self.mode(c.mode) : nil)
    }

    private func readConnector(_ id: UInt32) -> KMSConnector? {
        guard let connector = drmModeGetConnector(fd, id) else { return nil }
        defer { drmModeFreeConnector(connector) }
        let c = connector.pointee
        let connection: KMSConnection =
            switch c.connection {
            case DRM_MODE_CONNECTED: .connected
            case DRM_MODE_DISCONNECTED: .disconnected
            default: .unknown
            }
        var result = KMSConnector(
            id: c.connector_id, type: c.connector_type, typeID: c.connector_type_id, connection: connection,
            modes: (0..<Int(c.count_modes)).map { Self.mode(c.modes[$0]) }, encoderID: c.encoder_id,
            encoderIDs: (0..<Int(c.count_encoders)).map { c.encoders[$0] })
        result.widthMillimetres = c.mmWidth
        result.heightMillimetres = c.mmHeight
        for i in 0..<Int(c.count_props) {
            guard let property = drmModeGetProperty(fd, c.props[i]) else { continue }
            defer { drmModeFreeProperty(property) }
            let name = Self.string(property.pointee.name)
            if name == "DPMS" {
                result.dpmsPropertyID = property.pointee.prop_id
            } else if name == "panel orientation", property.pointee.flags & UInt32(DRM_MODE_PROP_ENUM) != 0 {
                let value = c.prop_values[i]
                let enums = property.pointee.enums
                for e in 0..<Int(property.pointee.count_enums) where enums![e].value == value {
                    result.panelOrientation = Self.string(enums![e].name)
                }
            }
        }
        return result
    }

    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    static func mode(_ m: drmModeModeInfo) -> KMSMode {
        KMSMode(
            clock: m.clock, hdisplay: m.hdisplay, hsyncStart: m.hsync_start, hsyncEnd: m.hsync_end, htotal: m.htotal,
            hskew: m.hskew, vdisplay: m.vdisplay, vsyncStart: m.vsync_start, vsyncEnd: m.vsync_end, vtotal: m.vtotal,
            vscan: m.vscan, vrefresh: m.vrefresh, flags: m.flags, type: m.type, name: string(m.name))
    }

    static func modeInfo(_ m: KMSMode) -> drmModeModeInfo {
        var info = drmModeModeInfo()
        info.clock = m.clock
        (info.hdisplay, info.hsync_start, info.hsync_end, info.htotal, info.hskew) = (m.hdisplay, m.hsyncStart, m.hsyncEnd, m.htotal, m.hskew)
        (info.vdisplay, info.vsync_start, info.vsync_end, info.vtotal, info.vscan) = (m.vdisplay, m.vsyncStart, m.vsyncEnd, m.vtotal, m.vscan)
        info.vrefresh = m.vrefresh
        info.flags = m.flags
        info.type = m.type
        withUnsafeMutableBytes(of: &info.name) { raw in
            for (i, byte) in m.name.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        return info
    }

    // MARK: Master

    func setMaster() throws(DRMError) { try checkErrno(drmSetMaster(fd), "drmSetMaster") }
    func dropMaster() throws(DRMError) { try checkErrno(drmDropMaster(fd), "drmDropMaster") }

    // MARK: Buffers

    /// A width x height XRGB8888 dumb buffer, registered as a framebuffer and mapped.
    func createDumbBuffer(width: Int, height: Int) throws(DRMError) -> DumbBuffer {
        var create = drm_mode_create_dumb()
        create.width = UInt32(width)
        create.height = UInt32(height)
        create.bpp = 32
        try checkErrno(drmIoctl(fd, GRIDLOCK_DRM_IOCTL_MODE_CREATE_DUMB, &create), "create a \(width)x\(height) dumb buffer")
        let handle = create.handle
        var framebuffer: UInt32 = 0
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (create.pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        let added = withUnsafeMutablePointer(to: &handles) { h in
            withUnsafeMutablePointer(to: &pitches) { p in
                withUnsafeMutablePointer(to: &offsets) { o in
                    h.withMemoryRebound(to: UInt32.self, capacity: 4) { h in
                        p.withMemoryRebound(to: UInt32.self, capacity: 4) { p in
                            o.withMemoryRebound(to: UInt32.self, capacity: 4) { o in
                                drmModeAddFB2(fd, UInt32(width), UInt32(height), GRIDLOCK_DRM_FORMAT_XRGB8888, h, p, o, &framebuffer, 0)
                            }
                        }
                    }
                }
            }
        }
        do {
            try check(added, "drmModeAddFB2 XRGB8888 \(width)x\(height)")
        } catch {
            destroyDumb(handle)
            throw error
        }
        var map = drm_mode_map_dumb()
        map.handle = handle
        do {
            try checkErrno(drmIoctl(fd, GRIDLOCK_DRM_IOCTL_MODE_MAP_DUMB, &map), "map a dumb buffer")
        } catch {
            drmModeRmFB(fd, framebuffer)
            destroyDumb(handle)
            throw error
        }
        let size = Int(create.size)
        let memory: MappedMemory
        do {
            memory = try MappedMemory.mapShared(fileDescriptor, offset: map.offset, count: size)
        } catch {
            drmModeRmFB(fd, framebuffer)
            destroyDumb(handle)
            throw .system(path: path, operation: "mmap a \(size)-byte dumb buffer", errno: error.errno)
        }
        return DumbBuffer(
            handle: handle, framebufferID: framebuffer, width: width, height: height, stride: Int(create.pitch),
            size: size, pixels: memory.base)
    }

    func destroy(_ buffer: DumbBuffer) {
        MappedMemory(base: buffer.pixels, count: buffer.size).unmap()
        drmModeRmFB(fd, buffer.framebufferID)
        destroyDumb(buffer.handle)
    }

    private func destroyDumb(_ handle: UInt32) {
        var destroy = drm_mode_destroy_dumb()
        destroy.handle = handle
        _ = drmIoctl(fd, GRIDLOCK_DRM_IOCTL_MODE_DESTROY_DUMB, &destroy)
    }

    // MARK: Scan-out

    /// A modeset: `framebufferID` on `crtcID` driving `connectorID` in `mode`; takes effect at once.
    func setCrtc(_ crtcID: UInt32, framebufferID: UInt32, x: UInt32, y: UInt32, connectorID: UInt32, mode: KMSMode) throws(DRMError) {
        var info = Self.modeInfo(mode)
        var connector = connectorID
        try check(drmModeSetCrtc(fd, crtcID, framebufferID, x, y, &connector, 1, &info), "drmModeSetCrtc \(mode) on CRTC \(crtcID)")
    }

    /// Turns the CRTC off (restoring a CRTC that showed nothing before).
    func disableCrtc(_ crtcID: UInt32) throws(DRMError) {
        try check(drmModeSetCrtc(fd, crtcID, 0, 0, 0, nil, 0, nil), "drmModeSetCrtc off on CRTC \(crtcID)")
    }

    /// Queues `framebufferID` for the next vblank with a completion event.
    func pageFlip(_ crtcID: UInt32, framebufferID: UInt32) throws(DRMError) {
        try check(
            drmModePageFlip(fd, crtcID, framebufferID, UInt32(DRM_MODE_PAGE_FLIP_EVENT), UnsafeMutableRawPointer(flipRecord)),
            "drmModePageFlip on CRTC \(crtcID)")
    }

    /// Flip completions delivered so far (the count only grows).
    var completedFlips: UInt32 { flipRecord.pointee.completed }

    /// The event's timestamp is CLOCK_MONOTONIC, as evdev's (DRM_CAP_TIMESTAMP_MONOTONIC,
    /// the kernel's only choice since 3.x).
    var lastFlipEvent: (sequence: UInt32, time: Instant) {
        (flipRecord.pointee.sequence, Instant(seconds: 0, fraction: Int64(clamping: flipRecord.pointee.microseconds), perSecond: 1_000_000))
    }

    /// Reads queued DRM events (flip completions). Nothing queued is not an error.
    func handleEvents() throws(DRMError) {
        if gridlock_drm_handle_events(fd) != 0 {
            let error = Errno.current
            if error == .wouldBlock || error == .interrupted { return }
            throw .system(path: path, operation: "drmHandleEvent", errno: error)
        }
    }

    /// Tells drivers that need it (virtual and USB displays) which rectangles of the
    /// framebuffer changed; returns the errno on failure (ENOSYS: the driver needs no such call).
    func dirtyFramebuffer(_ framebufferID: UInt32, physicalRects: [Rect]) -> Errno? {
        var clips = physicalRects.map { r in
            drm_clip_rect(x1: UInt16(clamping: Int(r.minX)), y1: UInt16(clamping: Int(r.minY)),
                          x2: UInt16(clamping: Int(r.maxX)), y2: UInt16(clamping: Int(r.maxY)))
        }
        let result = drmModeDirtyFB(fd, framebufferID, &clips, UInt32(clips.count))
        return result < 0 ? Errno(rawValue: -result) : nil
    }

    func setConnectorProperty(_ connectorID: UInt32, property: UInt32, value: UInt64, name: String) throws(DRMError) {
        try check(drmModeConnectorSetProperty(fd, connectorID, property, value), "set connector \(connectorID) \(name)=\(value)")
    }
}

extension DRMDevice {
    /// Every /dev/dri/card* that opens and exposes KMS resources, in numeric order; `tried`
    /// names every card looked at, with why it could not be used (a sandbox's EPERM, say).
    static func openAll(directory: String = "/dev/dri") -> (opened: [(device: DRMDevice, card: KMSCard)], tried: [String]) {
        let paths = KMSChoice.cardPaths(inDirectoryEntries: (try? Directory.entries(directory)) ?? [], directory: directory)
        var opened: [(DRMDevice, KMSCard)] = []
        var tried: [String] = []
        for path in paths {
            do throws(DRMError) {
                let device = try DRMDevice(path: path)
                opened.append((device, try device.readCard()))
                tried.append(path)
            } catch {
                tried.append("\(path) (\(error.errno.map { "\($0)" } ?? "\(error)"))")
            }
        }
        return (opened, tried)
    }
}
