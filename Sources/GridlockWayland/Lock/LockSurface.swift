import CWaylandClient
import CWaylandProtocols

/// The lock surface of one output: a wl_surface with the ext_session_lock_surface_v1 role,
/// sized by the compositor's configure and scaled by the output's integer scale, with two
/// XRGB8888 buffers drawn in turn (`draw`), each frame after the previous one's `done`.
public final class LockSurface {
    public let id: SurfaceID
    /// The output's name (wl_output 4+: "HDMI-A-1"), nil when the compositor does not say.
    public var outputName: String? { output.name }
    /// The configured size in the compositor's logical pixels; nil before the first configure.
    public private(set) var logicalSize: (width: Int, height: Int)?
    /// Buffer pixels per logical pixel (wl_output.scale).
    public private(set) var scale: Int
    public var pixelSize: (width: Int, height: Int)? {
        logicalSize.map { ($0.width * scale, $0.height * scale) }
    }

    let output: WaylandOutput
    let surface: WaylandProxy
    private let role: WaylandProxy
    private let shm: WaylandProxy
    private let connection: WaylandConnection
    private var buffers: [ShmBuffer] = []
    private var rotation: BufferRotation?
    private var frameCallback: WaylandProxy?
    private var appliedScale = 1
    /// A draw found no buffer to draw into: say so when one is free again.
    private var drawRefused = false
    private let changed: (LockSurface, Change) -> Void

    enum Change {
        /// Configured anew (or the scale changed): the next frame is drawn whole.
        case configured
        case readyToDraw
    }

    init(
        id: SurfaceID, output: WaylandOutput, lock: WaylandProxy, compositor: WaylandProxy, shm: WaylandProxy,
        connection: WaylandConnection, changed: @escaping (LockSurface, Change) -> Void
    ) throws(WaylandError) {
        guard let made = compositor.request({ wl_compositor_create_surface($0) }) ?? nil, let outputPointer = output.proxy.pointer else {
            throw .disconnected(errno: .current)
        }
        let surface = WaylandProxy(made, connection: connection)
        guard let surfacePointer = surface.pointer, let rolePointer = lock.send(
            SessionLockRequest.getLockSurface.rawValue,
            [wl_argument(o: nil), wl_argument(o: surfacePointer), wl_argument(o: outputPointer)],
            creating: gridlock_ext_session_lock_surface_v1_interface()
        ) else {
            throw .disconnected(errno: .current)
        }
        self.id = id
        self.output = output
        self.surface = surface
        role = WaylandProxy(rolePointer, connection: connection)
        self.shm = shm
        self.connection = connection
        scale = output.scale
        self.changed = changed
        role.onEvent = { [unowned self] opcode, arguments in
            // configure(serial, width, height)
            if LockSurfaceEventCode(rawValue: opcode) == .configure {
                configure(serial: arguments.uint(0), width: Int(arguments.uint(1)), height: Int(arguments.uint(2)))
            }
        }
    }

    /// The role object goes first: destroying a wl_surface that still has one is a protocol error.
    func destroy() {
        frameCallback?.destroy { wl_callback_destroy($0) }
        frameCallback = nil
        role.send(LockSurfaceRequest.destroy.rawValue, destroying: true)
        surface.destroy { wl_surface_destroy($0) }
        buffers = []
    }

    private func configure(serial: UInt32, width: Int, height: Int) {
        role.send(LockSurfaceRequest.ackConfigure.rawValue, [wl_argument(u: serial)])
        let resized = logicalSize.map { $0.width != width || $0.height != height } ?? true
        logicalSize = (width, height)
        if resized || rotation == nil { resetBuffers() }
        changed(self, .configured)
    }

    /// The output's scale changed (a `done` with another scale).
    func outputChanged() {
        guard output.scale != scale else { return }
        scale = output.scale
        guard logicalSize != nil else { return }
        resetBuffers()
        changed(self, .configured)
    }

    /// New buffers for a new size or scale; the old ones go (the compositor keeps what it shows).
    private func resetBuffers() {
        buffers = []
        rotation = nil
        guard let size = pixelSize, size.width > 0, size.height > 0 else { return }
        rotation = BufferRotation(count: 2, width: size.width, height: size.height)
    }

    private func buffer(_ index: Int, width: Int, height: Int) throws(WaylandError) -> ShmBuffer {
        while buffers.count <= index {
            let number = buffers.count
            buffers.append(try ShmBuffer(shm: shm, width: width, height: height, connection: connection) { [weak self] in
                self?.released(number)
            })
        }
        return buffers[index]
    }

    private func released(_ index: Int) {
        rotation?.released(index)
        if drawRefused, rotation?.next != nil {
            drawRefused = false
            changed(self, .readyToDraw)
        }
    }

    /// Whether `draw` would draw now: configured, the previous frame done, a buffer free.
    public var canDraw: Bool { rotation?.next != nil }

    /// Draws the next frame: `body` paints into the buffer (which already holds the previous
    /// frame, unless `isFresh`) and returns the rectangles it changed, in buffer pixels; those
    /// are damaged, the buffer committed with a frame callback. Returns false, drawing nothing,
    /// when it cannot draw now (see `canDraw`); `.surfaceReadyToDraw` follows when it can.
    @discardableResult
    public func draw(_ body: (WaylandPixels) -> [PixelRect]) throws(WaylandError) -> Bool {
        guard let current = rotation, let index = current.next else {
            drawRefused = true
            return false
        }
        let target = try buffer(index, width: current.width, height: current.height)
        if let copy = current.toCopy(into: index) {
            let source = try buffer(copy.from, width: current.width, height: current.height)
            for rect in copy.rects {
                copyPixels(rect, from: source.base, sourceStride: source.stride, to: target.base, destinationStride: target.stride)
            }
        }
        let fresh = current.isFresh
        let drawn = body(target.pixels(isFresh: fresh))
        let damage = fresh ? [PixelRect.full(width: current.width, height: current.height)]
            : drawn.compactMap { $0.clipped(width: current.width, height: current.height) }
        guard !damage.isEmpty, let buffer = target.pointer else { return false }
        surface.request { pointer in
            if appliedScale != scale {
                wl_surface_set_buffer_scale(pointer, Int32(scale))
                appliedScale = scale
            }
            wl_surface_attach(pointer, buffer, 0, 0)
            for rect in damage {
                wl_surface_damage_buffer(pointer, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
            }
            if let callback = wl_surface_frame(pointer) {
                let proxy = WaylandProxy(callback, connection: connection)
                proxy.onEvent = { [unowned self] opcode, _ in
                    if CallbackEvent(rawValue: opcode) == .done { frameDone() }
                }
                frameCallback = proxy
            }
            wl_surface_commit(pointer)
        }
        rotation?.committed(index, damage: damage)
        return true
    }

    private func frameDone() {
        // The compositor destroys a wl_callback after `done`; the client's proxy goes too.
        frameCallback?.destroy { wl_callback_destroy($0) }
        frameCallback = nil
        rotation?.frameDone()
        if rotation?.next != nil {
            drawRefused = false
            changed(self, .readyToDraw)
        } else {
            drawRefused = true
        }
    }
}
