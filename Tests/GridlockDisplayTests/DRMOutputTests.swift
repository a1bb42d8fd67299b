import GridlockCore
import LinuxSys
import Testing

@testable import GridlockDisplay
@testable import GridlockRendering

/// A card in memory that behaves as the kernel does for the calls `DRMOutput` makes:
/// a modeset shows a buffer at once, a flip shows it when `completeFlip()` is called,
/// a second flip while one is pending is EBUSY, nothing works without master.
final class FakeCard: KMSDevice {
    let path: String
    /// Not a file unless a test that runs a real loop gives it one (an eventfd).
    var fileDescriptor = FileDescriptor(rawValue: 10_000)
    var card: KMSCard
    var log: [String] = []
    var isMaster = true
    var masterHeldElsewhere = false
    var flipsSupported = true
    var dirtyResult: Errno? = nil
    var pendingFlip: UInt32?
    var completedFlips: UInt32 = 0
    var lastFlipEvent: (sequence: UInt32, time: Instant) = (0, .zero)
    /// The time the next `completeFlip` reports for its vblank (the kernel's hrtimer, here set by hand).
    var nextVblank = Instant.zero
    var hasVblank = true
    /// CRTC id -> framebuffer on screen.
    var scanOut: [UInt32: UInt32] = [:]
    var modes: [UInt32: KMSMode] = [:]
    var buffers: [UInt32: DumbBuffer] = [:]
    private var nextID: UInt32 = 500

    init(_ card: KMSCard) {
        self.card = card
        path = card.path
        for crtc in card.crtcs where crtc.bufferID != 0 {
            scanOut[crtc.id] = crtc.bufferID
            modes[crtc.id] = crtc.mode
        }
    }

    func readCard() throws(DRMError) -> KMSCard {
        var card = card
        for i in card.crtcs.indices {
            card.crtcs[i].bufferID = scanOut[card.crtcs[i].id] ?? 0
            card.crtcs[i].mode = modes[card.crtcs[i].id]
        }
        return card
    }

    func readCrtc(_ id: UInt32) -> KMSCrtc? {
        KMSCrtc(id: id, bufferID: scanOut[id] ?? 0, mode: modes[id])
    }

    func fail(_ operation: String, _ errno: Errno) -> DRMError { .system(path: path, operation: operation, errno: errno) }

    func setMaster() throws(DRMError) {
        log.append("setMaster")
        if masterHeldElsewhere { throw fail("drmSetMaster", .notPermitted) }
        isMaster = true
    }

    func dropMaster() throws(DRMError) {
        log.append("dropMaster")
        isMaster = false
    }

    func createDumbBuffer(width: Int, height: Int) throws(DRMError) -> DumbBuffer {
        nextID += 1
        let stride = width * 4 + 64  // drivers pad rows; the copy must honour the pitch
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        pixels.initializeMemory(as: UInt8.self, repeating: 0xEE, count: stride * height)
        let buffer = DumbBuffer(handle: nextID, framebufferID: nextID, width: width, height: height, stride: stride, size: stride * height, pixels: pixels)
        buffers[nextID] = buffer
        return buffer
    }

    func destroy(_ buffer: DumbBuffer) {
        log.append("destroy \(buffer.framebufferID)")
        buffers[buffer.framebufferID]?.pixels.deallocate()
        buffers[buffer.framebufferID] = nil
        for (crtc, fb) in scanOut where fb == buffer.framebufferID { scanOut[crtc] = nil }  // the kernel turns it off
    }

    /// A blocking commit: the kernel holds it until the flip in flight is done.
    func setCrtc(_ crtcID: UInt32, framebufferID: UInt32, x: UInt32, y: UInt32, connectorID: UInt32, mode: KMSMode) throws(DRMError) {
        log.append("setCrtc \(crtcID) fb \(framebufferID) \(mode)")
        guard isMaster else { throw fail("drmModeSetCrtc", .permissionDenied) }
        completeFlip(crtc: flipCrtc)
        scanOut[crtcID] = framebufferID
        modes[crtcID] = mode
    }

    func disableCrtc(_ crtcID: UInt32) throws(DRMError) {
        log.append("disableCrtc \(crtcID)")
        scanOut[crtcID] = nil
        modes[crtcID] = nil
    }

    func pageFlip(_ crtcID: UInt32, framebufferID: UInt32) throws(DRMError) {
        log.append("pageFlip \(framebufferID)")
        guard isMaster else { throw fail("drmModePageFlip", .permissionDenied) }
        guard flipsSupported else { throw fail("drmModePageFlip", .invalidArgument) }
        guard pendingFlip == nil else { throw fail("drmModePageFlip", .busy) }
        pendingFlip = framebufferID
    }

    /// The vblank: the queued buffer goes on screen and the event is queued.
    func completeFlip(crtc: UInt32) {
        guard let fb = pendingFlip else { return }
        scanOut[crtc] = fb
        pendingFlip = nil
        completedFlips += 1
        // bochs and virtio-gpu have no vblank: their events carry sequence 0 and the sending time.
        lastFlipEvent = hasVblank ? (lastFlipEvent.sequence + 1, nextVblank) : (0, MonotonicClock.now())
    }

    var flipCrtc: UInt32 = 0
    func handleEvents() throws(DRMError) {}

    func dirtyFramebuffer(_ framebufferID: UInt32, physicalRects: [Rect]) -> Errno? {
        log.append("dirtyFB \(framebufferID) \(physicalRects.count)")
        return dirtyResult
    }

    func setConnectorProperty(_ connectorID: UInt32, property: UInt32, value: UInt64, name: String) throws(DRMError) {
        log.append("\(name)=\(value)")
    }

    /// The colour on screen at a physical pixel.
    func screen(crtc: UInt32, x: Int, y: Int) -> Color? {
        guard let fb = scanOut[crtc], let buffer = buffers[fb] else { return nil }
        let word = buffer.pixels.load(fromByteOffset: y * buffer.stride + x * 4, as: UInt32.self)
        return Color(red: UInt8(word >> 16 & 0xFF), green: UInt8(word >> 8 & 0xFF), blue: UInt8(word & 0xFF))
    }

    func count(_ prefix: String) -> Int { log.filter { $0.hasPrefix(prefix) }.count }
}

@Suite("DRM output on a fake card", .serialized)
struct DRMOutputTests {
    typealias F = KMSFixtures
    static let red = Color(red: 255, green: 0, blue: 0)
    static let green = Color(red: 0, green: 255, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 255)

    /// bochs at 800x480 (QEMU with VGA.xres=800), so buffers stay small.
    static func smallBochs() -> KMSCard {
        var card = F.bochs
        card.connectors[0].modes = [F.m800x480at60(type: F.preferred)]
        return card
    }

    func make(_ fake: FakeCard, request: KMSRequest = KMSRequest()) throws -> DRMOutput {
        fake.flipCrtc = fake.card.crtcs.first?.id ?? 0
        return try DRMOutput(
            request: request, placeholder: Size(width: 640, height: 400),
            opener: KMSDeviceOpener(open: { (_) throws(DRMError) in fake }, openAll: { ([(fake, try! fake.readCard())], [fake.path]) }),
            hotplug: false, clock: { MonotonicClock.now() })
    }

    func fill(_ shadow: ShadowBuffer, _ rect: Rect, _ color: Color) {
        for y in Int(rect.minY)..<Int(rect.maxY) { for x in Int(rect.minX)..<Int(rect.maxX) { shadow.setPixel(x: x, y: y, to: color) } }
    }

    @Test("the first frame is a modeset with the whole frame; the next ones are flips of the damage only")
    func firstFrameThenFlips() throws {
        let fake = FakeCard(Self.smallBochs())
        let output = try make(fake)
        #expect(output.size == Size(width: 800, height: 480))
        let shadow = try ShadowBuffer(width: 800, height: 480)
        fill(shadow, shadow.frame, Self.blue)
        try output.present(shadow, damage: .full(shadow.frame))
        #expect(fake.count("setCrtc 34") == 1)
        #expect(fake.screen(crtc: 34, x: 799, y: 479) == Self.blue)

        let square = Rect(x: 10, y: 10, width: 20, height: 20)
        fill(shadow, square, Self.red)
        try output.present(shadow, damage: Damage(rects: [square]))
        #expect(fake.count("pageFlip") == 1)
        fake.completeFlip(crtc: 34)
        #expect(output.handle(.card, buffer: shadow) == .none)
        #expect(fake.screen(crtc: 34, x: 15, y: 15) == Self.red)
        #expect(fake.screen(crtc: 34, x: 700, y: 400) == Self.blue)  // the back buffer got the first frame too
    }

    @Test("frames presented while a flip is pending make no second flip and all show after it lands")
    func flipPacing() throws {
        let fake = FakeCard(Self.smallBochs())
        let output = try make(fake)
        let shadow = try ShadowBuffer(width: 800, height: 480)
        try output.present(shadow, damage: .full(shadow.frame))
        var squares: [Rect] = []
        for i in 0..<4 {
            let square = Rect(x: Double(100 * i), y: 100, width: 30, height: 30)
            squares.append(square)
            fill(shadow, square, Self.green)
            try output.present(shadow, damage: Damage(rects: [square]))
        }
        #expect(fake.count("pageFlip") == 1)  // frames 2-4 waited
        fake.completeFlip(crtc: 34)
        _ = output.handle(.card, buffer: shadow)
        #expect(fake.count("pageFlip") == 2)  // one flip for the three coalesced frames
        fake.completeFlip(crtc: 34)
        _ = output.handle(.card, buffer: shadow)
        #expect(fake.count("pageFlip") == 2)  // nothing left: idle
        for square in squares {
            #expect(fake.screen(crtc: 34, x: Int(square.minX) + 1, y: 101) == Self.green)
        }
    }

    @Test("each input frame is tagged with the vblank of the flip that showed it, coalesced frames with the next flip")
    func vblankOfEachInput() throws {
        let fake = FakeCard(Self.smallBochs())
        let output = try make(fake)
        let shadow = try ShadowBuffer(width: 800, height: 480)
        try output.present(shadow, damage: .full(shadow.frame))  // the modeset: no vblank to count
        let period: Int64 = 1056 * 525 * 1_000_000 / 33_300  // the mode's frame period, 16.65 ms
        let read = MonotonicClock.now()
        let square = Rect(x: 10, y: 10, width: 20, height: 20)
        try output.present(shadow, damage: Damage(rects: [square]))
        output.noteFrame(answering: [read], drawing: .milliseconds(1))
        // Presented while that flip is pending: waits, and goes out with the next flip.
        try output.present(shadow, damage: Damage(rects: [Rect(x: 110, y: 10, width: 20, height: 20)]))
        output.noteFrame(answering: [read + .milliseconds(5), read + .milliseconds(6)], drawing: .milliseconds(1))
        output.endStroke()
        fake.nextVblank = read + .milliseconds(10)
        fake.completeFlip(crtc: 34)
        _ = output.handle(.card, buffer: shadow)
        // With a fresh vblank clock the waiting frame goes out at the flip timer, not at once.
        #expect(fake.count("pageFlip") == 1)
        _ = output.handle(.latch, buffer: shadow)
        #expect(fake.count("pageFlip") == 2)
        fake.nextVblank = read + .milliseconds(10) + .nanoseconds(period)
        fake.completeFlip(crtc: 34)
        _ = output.handle(.card, buffer: shadow)
        #expect(output.latencyRecords.map(\.vblanksAfter) == [1, 2, 2])
        #expect(output.latencyRecords.map(\.sequence) == [1, 2, 2])
        #expect(output.latencyRecords.first?.input == read)
    }

    @Test("a driver without vblank (sequence 0): the waiting frame flips at once and nothing is recorded")
    func noVblankClock() throws {
        let fake = FakeCard(Self.smallBochs())
        fake.hasVblank = false
        let output = try make(fake)
        let shadow = try ShadowBuffer(width: 800, height: 480)
        try output.present(shadow, damage: .full(shadow.frame))
        let read = MonotonicClock.now()
        try output.present(shadow, damage: Damage(rects: [Rect(x: 10, y: 10, width: 20, height: 20)]))
        output.noteFrame(answering: [read], drawing: .milliseconds(1))
        try output.present(shadow, damage: Damage(rects: [Rect(x: 110, y: 10, width: 20, height: 20)]))
        output.noteFrame(answering: [read + .milliseconds(1)], drawing: .milliseconds(1))
        fake.completeFlip(crtc: 34)
        _ = output.handle(.card, buffer: shadow)
        #expect(fake.count("pageFlip") == 2)
        fake.completeFlip(crtc: 34)
        _ = output.handle(.card, buffer: shadow)
        #expect(output.latencyRecords.isEmpty)
    }

    @Test("a rotated panel gets the picture turned in the copy", arguments: [Rotation.clockwise90, .clockwise270])
    func rotated(rotation: Rotation) throws {
        let fake = FakeCard(Self.smallBochs())
        let output = try make(fake, request: KMSRequest(rotation: rotation))
        #expect(output.size == Size(width: 480, height: 800))
        #expect(output.rotation == rotation)
        let shadow = try ShadowBuffer(width: 480, height: 800)
        shadow.setPixel(x: 0, y: 0, to: Self.red)  // logical top-left
        try output.present(shadow, damage: .full(shadow.frame))
        // Clockwise 90: logical top-left lands at the physical top-right; 270: bottom-left.
        let (x, y) = rotation == .clockwise90 ? (799, 0) : (0, 479)
        #expect(fake.screen(crtc: 34, x: x, y: y) == Self.red)
    }

    @Test("without page flips: one buffer and DirtyFB, which stops after ENOSYS")
    func dirtyFallback() throws {
        let fake = FakeCard(Self.smallBochs())
        fake.flipsSupported = false
        fake.dirtyResult = .notImplemented
        let output = try make(fake)
        let shadow = try ShadowBuffer(width: 800, height: 480)
        try output.present(shadow, damage: .full(shadow.frame))
        let square = Rect(x: 0, y: 0, width: 8, height: 8)
        fill(shadow, square, Self.red)
        try output.present(shadow, damage: Damage(rects: [square]))
        #expect(fake.count("pageFlip") == 1)
        #expect(fake.count("setCrtc") == 2)
        #expect(fake.buffers.count == 1)
        #expect(fake.screen(crtc: 34, x: 3, y: 3) == Self.red)
        for i in 1...3 {
            let rect = Rect(x: Double(20 * i), y: 0, width: 8, height: 8)
            fill(shadow, rect, Self.green)
            try output.present(shadow, damage: Damage(rects: [rect]))
            #expect(fake.screen(crtc: 34, x: 20 * i + 1, y: 1) == Self.green)
        }
        #expect(fake.count("dirtyFB") == 1)  // ENOSYS the first time: never asked again
        #expect(fake.count("pageFlip") == 1)
    }

    @Test("hand-over drops master; taking it back sets our CRTC again if someone changed it and asks for a redraw")
    func handover() throws {
        let fake = FakeCard(Self.smallBochs())
        let output = try make(fake)
        let shadow = try ShadowBuffer(width: 800, height: 480)
        try output.present(shadow, damage: .full(shadow.frame))
        output.setActive(false)
        #expect(fake.count("dropMaster") == 1)
        // The session shows its own picture.
        fake.scanOut[34] = 777
        let before = fake.log.count
        fill(shadow, Rect(x: 0, y: 0, width: 4, height: 4), Self.red)
        try output.present(shadow, damage: Damage(rects: [Rect(x: 0, y: 0, width: 4, height: 4)]))
        #expect(fake.log.count == before)  // no calls while away
        output.setActive(true)
        #expect(output.handle(.redraw, buffer: shadow) == .redrawAll)
        try output.present(shadow, damage: .full(shadow.frame))
        #expect(fake.log.last?.hasPrefix("setCrtc 34") == true)
        #expect(fake.screen(crtc: 34, x: 1, y: 1) == Self.red)
    }

    @Test("EPERM on taking master backs off and retries; success then asks for a redraw")
    func masterBusy() throws {
        let fake = FakeCard(Self.smallBochs())
        let output = try make(fake)
        let shadow = try ShadowBuffer(width: 800, height: 480)
        try output.present(shadow, damage: .full(shadow.frame))
        output.setActive(false)
        fake.masterHeldElsewhere = true
        output.setActive(true)
        #expect(fake.count("setMaster") == 2)  // once at start, once now
        #expect(output.handle(.masterRetry, buffer: shadow) == .none)
        #expect(fake.count("setMaster") == 3)
        fake.masterHeldElsewhere = false
        #expect(output.handle(.masterRetry, buffer: shadow) == .redrawAll)
    }

    @Test("exit waits for the pending flip, then restores the CRTC as it was and frees the buffers")
    func restoresOnClose() throws {
        let fake = FakeCard(Self.smallBochs())  // CRTC 34 showed fb 40 in 1024x768
        let output = try make(fake)
        let shadow = try ShadowBuffer(width: 800, height: 480)
        try output.present(shadow, damage: .full(shadow.frame))
        try output.present(shadow, damage: .full(shadow.frame))
        #expect(fake.pendingFlip != nil)
        output.close()
        #expect(fake.pendingFlip == nil)
        #expect(fake.scanOut[34] == 40)
        #expect(fake.modes[34] == F.m1024x768at60())
        #expect(fake.buffers.isEmpty)
        let restore = try #require(fake.log.firstIndex { $0.hasPrefix("setCrtc 34 fb 40") })
        #expect(restore < fake.log.firstIndex { $0.hasPrefix("destroy") }!)
    }

    @Test("blanking sets DPMS off and holds frames back; unblanking shows them")
    func blanking() throws {
        let fake = FakeCard(Self.smallBochs())
        let output = try make(fake)
        let shadow = try ShadowBuffer(width: 800, height: 480)
        try output.present(shadow, damage: .full(shadow.frame))
        output.setBlanked(true)
        #expect(fake.log.last == "DPMS=3")
        fill(shadow, Rect(x: 0, y: 0, width: 4, height: 4), Self.green)
        try output.present(shadow, damage: Damage(rects: [Rect(x: 0, y: 0, width: 4, height: 4)]))
        #expect(fake.count("pageFlip") == 0)
        output.setBlanked(false)
        #expect(fake.log.last == "DPMS=0")
        #expect(output.handle(.redraw, buffer: shadow) == .none)
        #expect(fake.count("pageFlip") == 1)
        fake.completeFlip(crtc: 34)
        #expect(fake.screen(crtc: 34, x: 1, y: 1) == Self.green)
    }

    @Test("exit while blanked restores the console and turns the panel back on")
    func closeWhileBlanked() throws {
        let fake = FakeCard(Self.smallBochs())
        let output = try make(fake)
        let shadow = try ShadowBuffer(width: 800, height: 480)
        try output.present(shadow, damage: .full(shadow.frame))
        output.setBlanked(true)
        output.close()
        let on = try #require(fake.log.lastIndex(of: "DPMS=0"))
        #expect(on > fake.log.lastIndex(of: "DPMS=3")!)
        #expect(on > fake.log.lastIndex { $0.hasPrefix("setCrtc 34 fb 40") }!)
        #expect(fake.scanOut[34] == 40)
    }

    @Test("no display at start: the placeholder size, then .resized when one is plugged in")
    func lateDisplay() throws {
        let fake = FakeCard(KMSFixtures.with(KMSFixtures.piPortrait, connector: 1) { $0.connection = .disconnected })
        let output = try make(fake)
        #expect(output.size == Size(width: 640, height: 400))
        let placeholder = try ShadowBuffer(width: 640, height: 400)
        try output.present(placeholder, damage: .full(placeholder.frame))
        #expect(fake.count("setCrtc") == 0)
        #expect(output.handle(.rescan, buffer: placeholder) == .none)  // still nothing
        fake.card.connectors[1].connection = .connected
        #expect(output.handle(.rescan, buffer: placeholder) == .resized(Size(width: 480, height: 800)))
        #expect(output.rotation == .clockwise90)  // the panel's Right Side Up
        let shadow = try ShadowBuffer(width: 480, height: 800)
        try output.present(shadow, damage: .full(shadow.frame))
        #expect(fake.count("setCrtc 77") == 1)
    }

    /// A small bochs card after its modeset and one page flip the kernel has not completed.
    func flipInFlight() throws -> (FakeCard, DRMOutput, ShadowBuffer) {
        let fake = FakeCard(Self.smallBochs())
        let output = try make(fake)
        let shadow = try ShadowBuffer(width: 800, height: 480)
        try output.present(shadow, damage: .full(shadow.frame))
        try output.present(shadow, damage: .full(shadow.frame))
        return (fake, output, shadow)
    }

    @Test("a hand-over with a flip in flight gives master away when the flip's event comes, not before")
    func handoverDuringFlip() throws {
        let (fake, output, shadow) = try flipInFlight()
        #expect(fake.pendingFlip != nil)
        output.setActive(false)
        // Returned at once, master still ours: dropping it now would strand the flip.
        #expect(fake.count("dropMaster") == 0)
        #expect(output.due(.flipTimeout) != nil)
        try output.present(shadow, damage: Damage(rects: [Rect(x: 0, y: 0, width: 4, height: 4)]))
        #expect(fake.count("pageFlip") == 1)  // nothing more goes out meanwhile
        fake.completeFlip(crtc: 34)
        _ = output.handle(.card, buffer: shadow)
        #expect(fake.count("dropMaster") == 1)
        #expect(fake.count("pageFlip") == 1)
        #expect(output.due(.flipTimeout) == nil)
        #expect(output.masterLease.state == .released)
    }

    @Test("a flip that never lands: master is given away at the flip timeout deadline, not earlier")
    func handoverFlipTimeout() throws {
        let (fake, output, shadow) = try flipInFlight()
        output.setActive(false)
        let due = try #require(output.due(.flipTimeout))
        _ = output.handle(.flipTimeout, buffer: shadow, now: due + .nanoseconds(-1))
        #expect(fake.count("dropMaster") == 0)
        _ = output.handle(.flipTimeout, buffer: shadow, now: due)
        #expect(fake.count("dropMaster") == 1)
        #expect(output.due(.flipTimeout) == nil)
        // Its event, arriving after all, drops nothing twice; taken back, the output
        // flips again rather than waiting for ever on the flip it gave up.
        fake.completeFlip(crtc: 34)
        _ = output.handle(.card, buffer: shadow)
        #expect(fake.count("dropMaster") == 1)
        output.setActive(true)
        #expect(output.handle(.redraw, buffer: shadow) == .redrawAll)
        try output.present(shadow, damage: .full(shadow.frame))
        #expect(fake.count("pageFlip") == 2)
    }

    @Test("wanted back before the flip landed: master is kept, neither dropped nor asked for again")
    func handoverCancelledDuringFlip() throws {
        let (fake, output, shadow) = try flipInFlight()
        output.setActive(false)
        output.setActive(true)
        fake.completeFlip(crtc: 34)
        _ = output.handle(.card, buffer: shadow)
        #expect(fake.count("dropMaster") == 0)
        #expect(fake.count("setMaster") == 1)
        #expect(output.masterLease.state == .held)
    }

    @Test("a display unplugged with its flip in flight keeps its buffers until the flip lands")
    func unplugDuringFlip() throws {
        let (fake, output, shadow) = try flipInFlight()
        fake.card.connectors[0].connection = .disconnected
        #expect(output.handle(.rescan, buffer: shadow) == .none)
        #expect(fake.count("destroy") == 0)
        #expect(output.due(.flipTimeout) != nil)
        fake.completeFlip(crtc: 34)
        _ = output.handle(.card, buffer: shadow)
        #expect(fake.count("destroy") == 2)
        #expect(output.due(.flipTimeout) == nil)
    }

    @Test("attached to the loop: the card wakes it as \"display\", and the flip's event there completes a hand-over")
    func attachedToTheLoop() throws {
        let fake = FakeCard(Self.smallBochs())
        let card = try EventFD()
        fake.fileDescriptor = card.fileDescriptor
        let output = try make(fake)
        let loop = try EventLoop()
        let shadow = try ShadowBuffer(width: 800, height: 480)
        var events: [OutputEvent] = []
        output.attach(to: loop, newestFrame: { shadow }) { events.append($0) }
        try output.present(shadow, damage: .full(shadow.frame))
        try output.present(shadow, damage: .full(shadow.frame))
        output.setActive(false)
        #expect(fake.count("dropMaster") == 0)
        fake.completeFlip(crtc: 34)
        card.signal()  // the kernel queues the flip event: the card is readable
        try loop.runOnce()
        #expect(fake.count("dropMaster") == 1)
        #expect(loop.wakeUps.byCause["display"] == 1)
        #expect(events == [.none])
        output.close()
        #expect(!loop.isWatching(card.fileDescriptor))
    }

    @Test("a mode the display does not offer is an error at start")
    func missingMode() throws {
        let fake = FakeCard(Self.smallBochs())
        #expect(throws: DRMError.choice(.noSuchMode(connector: "Virtual-1", requested: "1920x1200", available: ["800x480@60"]))) {
            try make(fake, request: KMSRequest(mode: .size(width: 1920, height: 1200, refreshHz: nil)))
        }
    }
}

extension DRMOutput {
    /// A wake-up handled at the time the machine reads now, as the loop would hand it.
    func handle(_ wake: Wake, buffer: ShadowBuffer) -> OutputEvent { handle(wake, buffer: buffer, now: MonotonicClock.now()) }
}
