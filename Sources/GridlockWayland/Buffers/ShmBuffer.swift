import CWaylandClient
import LinuxSys

/// One wl_buffer over memory of its own (a memfd in a wl_shm pool made for it alone, the
/// pool destroyed at once: the buffer keeps the memory), XRGB8888.
final class ShmBuffer {
    let width: Int
    let height: Int
    let stride: Int
    private let memory: SharedMemoryFile
    private let buffer: WaylandProxy

    /// wl_shm.format: xrgb8888, which every compositor supports (wayland.xml).
    private static let xrgb8888: UInt32 = 1

    init(
        shm: WaylandProxy, width: Int, height: Int, connection: WaylandConnection, released: @escaping () -> Void
    ) throws(WaylandError) {
        let stride = width * 4
        let memory: SharedMemoryFile
        do {
            memory = try SharedMemoryFile(name: "gridlock-lock", bytes: stride * height)
        } catch {
            throw .system(error)
        }
        let size = Int32(stride * height)
        guard let pool = shm.request({ wl_shm_create_pool($0, memory.fileDescriptor.rawValue, size) }) ?? nil else {
            throw .disconnected(errno: .current)
        }
        let created = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride), Self.xrgb8888)
        wl_shm_pool_destroy(pool)
        guard let created else { throw .disconnected(errno: .current) }
        self.width = width
        self.height = height
        self.stride = stride
        self.memory = memory
        buffer = WaylandProxy(created, connection: connection)
        buffer.onEvent = { opcode, _ in
            if BufferEvent(rawValue: opcode) == .release { released() }
        }
    }

    deinit { buffer.destroy { wl_buffer_destroy($0) } }

    var pointer: OpaquePointer? { buffer.pointer }
    var base: UnsafeMutableRawPointer { memory.base }

    func pixels(isFresh: Bool) -> WaylandPixels {
        WaylandPixels(bytes: memory.bytes, width: width, height: height, stride: stride, isFresh: isFresh)
    }
}
