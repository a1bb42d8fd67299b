import GridlockCore
import GridlockRendering
import LinuxSys

/// One lit connector: its buffers, what of them is stale, and how a frame reaches it.
///
/// How frames go out is a value, `path`, chosen once and changed only by what the
/// kernel says: a modeset first (and again whenever another program set the CRTC),
/// page flips while the driver takes them, and where it refuses the very first flip,
/// one buffer drawn into directly and announced with DirtyFB, until DirtyFB answers
/// ENOSYS (as Plymouth does, it is then not called again).
struct ScanOut {
    /// How frames after the modeset reach the screen.
    enum Update: Equatable {
        /// Two buffers, a page flip per frame; its completion comes as a DRM event.
        case flip
        /// One buffer, scanned out while drawn into; DirtyFB names the changed rectangles.
        case dirtyFB
        /// One buffer, and a driver that needs no DirtyFB (it answered ENOSYS).
        case plain
    }

    enum Path: Equatable {
        case modeset(then: Update)
        case update(Update)
    }

    /// What one `show` did, for the output's latency and pacing records.
    enum Shown {
        /// A modeset: on screen at once, no vblank to count.
        case modeset
        /// A flip was queued; it lands with its event.
        case flipQueued
        /// Drawn into the scanned-out buffer (DirtyFB or plain).
        case drawn
        /// The first flip was refused: shown with a modeset, one buffer from now on.
        case fellBackToOneBuffer
    }

    let selection: KMSSelection
    private(set) var buffers: [DumbBuffer]
    var damage: BufferDamage
    private(set) var path = Path.modeset(then: .flip)
    private var flipsDone = 0
    private var sizeMismatch = OnceLog()
    private var noDPMS = OnceLog()

    /// Two dumb buffers in the selection's mode; none is left behind if the second fails.
    init(selection: KMSSelection, on device: any KMSDevice) throws(DRMError) {
        var buffers: [DumbBuffer] = []
        for _ in 0..<2 {
            do {
                buffers.append(try device.createDumbBuffer(width: selection.mode.width, height: selection.mode.height))
            } catch {
                for buffer in buffers { device.destroy(buffer) }
                throw error
            }
        }
        self.selection = selection
        self.buffers = buffers
        damage = BufferDamage(frame: Rect(origin: .zero, size: selection.logicalSize), count: buffers.count)
    }

    /// Whether `other` would light the same thing (the rescan after a uevent often finds
    /// nothing changed): same connector, CRTC, rotation and timings.
    func shows(_ other: KMSSelection) -> Bool {
        selection.connector.id == other.connector.id && selection.crtcID == other.crtcID
            && selection.rotation == other.rotation && selection.mode.hasSameTimings(as: other.mode)
    }

    var update: Update {
        switch path {
        case .modeset(let then): then
        case .update(let update): update
        }
    }

    var flips: Bool { update == .flip }
    var needsModeset: Bool { if case .modeset = path { true } else { false } }

    /// Someone else's picture may be on the CRTC (master was away): the next frame sets
    /// our mode and buffer again, and every pixel is stale.
    mutating func pictureLost(crtcChanged: Bool) {
        if crtcChanged { path = .modeset(then: update) }
        damage.invalidateAll()
    }

    /// Copies the stale rectangles of `buffer` into the back buffer and puts it on screen
    /// the way `path` says; with how long the copy and the kernel call (`commit`) took. Nil when `buffer` does not fit the mode: the loop has not yet
    /// caught up with a `.resized`, and the full redraw follows. On a failure the damage
    /// is kept for the next try.
    mutating func show(
        _ buffer: ShadowBuffer, rotation: Rotation, on device: any KMSDevice
    ) throws(DRMError) -> (shown: Shown, copy: Duration, commit: Duration)? {
        let mode = selection.mode
        let physicalWidth = rotation.swapsAxes ? buffer.height : buffer.width
        let physicalHeight = rotation.swapsAxes ? buffer.width : buffer.height
        guard physicalWidth == mode.width, physicalHeight == mode.height else {
            sizeMismatch.say(.debug, "display: frame \(buffer.width)x\(buffer.height) does not fit \(mode) turned \(rotation.degrees); waiting for the redraw")
            return nil
        }
        sizeMismatch.reset()
        let (index, rects) = damage.beginFrame()
        // What this machine takes to copy and to commit: the latch margin learns from it.
        let copying = Stopwatch()
        buffer.copy(rects: rects, to: buffers[index].pixels, destinationStride: buffers[index].stride, rotation: rotation)
        let copy = copying.elapsed
        let committing = Stopwatch()
        do {
            let shown = try put(index, rects: rects, logical: Size(width: Double(buffer.width), height: Double(buffer.height)), rotation: rotation, on: device)
            return (shown, copy, committing.elapsed)
        } catch {
            damage.failed(index)
            throw error
        }
    }

    /// The kernel half of `show`. Only the very first flip may fall back: a driver that
    /// flipped before and refuses now is in trouble the fallback would not cure.
    private mutating func put(
        _ index: Int, rects: [Rect], logical: Size, rotation: Rotation, on device: any KMSDevice
    ) throws(DRMError) -> Shown {
        let target = buffers[index]
        switch path {
        case .modeset(let then):
            try setCrtc(target, on: device)
            path = .update(then)
            damage.shown(index, flipping: false)
            return .modeset
        case .update(.flip):
            do {
                try device.pageFlip(selection.crtcID, framebufferID: target.framebufferID)
            } catch let error where flipsDone == 0 && Self.meansNoFlips(error.errno) {
                Journal.log(.notice, "display: \(device.path) cannot flip pages (\(error.errno.map { "\($0)" } ?? "")); drawing into one buffer with DirtyFB")
                try fallBackToOneBuffer(index, on: device)
                return .fellBackToOneBuffer
            }
            flipsDone += 1
            damage.shown(index, flipping: true)
            return .flipQueued
        case .update(let update):
            damage.shown(index, flipping: false)
            if update == .dirtyFB {
                let clips = rects.map { rotation.physicalRect($0.integral, logical: logical) }
                if device.dirtyFramebuffer(target.framebufferID, physicalRects: clips) == .notImplemented {
                    path = .update(.plain)
                }
            }
            return .drawn
        }
    }

    /// The driver has no page flip: this buffer is shown with a modeset and from now on
    /// drawn into directly; the other one is freed.
    private mutating func fallBackToOneBuffer(_ index: Int, on device: any KMSDevice) throws(DRMError) {
        let target = buffers[index]
        try setCrtc(target, on: device)
        for (other, buffer) in buffers.enumerated() where other != index { device.destroy(buffer) }
        buffers = [target]
        path = .update(.dirtyFB)
        var single = BufferDamage(frame: damage.frame, count: 1)
        _ = single.beginFrame()
        single.shown(0, flipping: false)
        damage = single
    }

    private func setCrtc(_ buffer: DumbBuffer, on device: any KMSDevice) throws(DRMError) {
        try device.setCrtc(selection.crtcID, framebufferID: buffer.framebufferID, x: 0, y: 0, connectorID: selection.connector.id, mode: selection.mode)
    }

    private static func meansNoFlips(_ errno: Errno?) -> Bool {
        guard let errno else { return false }
        return errno == .invalidArgument || errno == .notImplemented || errno == .notSupported
    }

    /// Whether the CRTC still shows one of our buffers in our mode, after master was away.
    func crtcIsOurs(on device: any KMSDevice) -> Bool {
        let ours = Set(buffers.map(\.framebufferID))
        guard let crtc = device.readCrtc(selection.crtcID) else { return false }
        return ours.contains(crtc.bufferID) && (crtc.mode?.hasSameTimings(as: selection.mode) ?? false)
    }

    /// The panel off (DPMS) or on. A connector without the property is said once: the
    /// screen then stays lit, which is worth knowing but not worth a line per timeout.
    mutating func setDPMS(blanked: Bool, on device: any KMSDevice) {
        guard let property = selection.connector.dpmsPropertyID else {
            noDPMS.say(.warning, "display: \(selection.connector.name) has no DPMS property; cannot blank it")
            return
        }
        let level = blanked ? DRMModeConstants.DRM_MODE_DPMS_OFF : DRMModeConstants.DRM_MODE_DPMS_ON
        do {
            try device.setConnectorProperty(selection.connector.id, property: property, value: level, name: "DPMS")
        } catch {
            Journal.log(.error, "display: \(error)")
        }
    }

    func destroyBuffers(on device: any KMSDevice) {
        for buffer in buffers { device.destroy(buffer) }
    }

    /// Puts back what the CRTC showed before this process first set a mode (`saved`: the
    /// console, a boot splash), or turns it off if it showed nothing.
    func restore(_ saved: KMSCrtc, on device: any KMSDevice) {
        let crtcID = selection.crtcID
        do {
            if saved.bufferID != 0, let mode = saved.mode {
                try device.setCrtc(crtcID, framebufferID: saved.bufferID, x: saved.x, y: saved.y, connectorID: selection.connector.id, mode: mode)
                Journal.log(.info, "display: restored the previous picture on CRTC \(crtcID)")
            } else {
                try device.disableCrtc(crtcID)
            }
        } catch {
            // The framebuffer we found was another program's and is gone: removing ours
            // (when the device closes) turns the CRTC off, which is the best left to do.
            Journal.log(.warning, "display: cannot restore the previous picture: \(error)")
        }
    }
}
