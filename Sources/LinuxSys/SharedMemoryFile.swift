import CLinux
import Glibc

/// Anonymous memory with a descriptor (memfd_create), mapped shared: what a Wayland client
/// hands a compositor as a wl_shm pool, the compositor mapping the same pages through the
/// descriptor. Nothing is on a file system, so nothing is left behind; the descriptor is
/// close-on-exec. Closes and unmaps itself in `deinit`.
public final class SharedMemoryFile {
    public let fileDescriptor: FileDescriptor
    public let count: Int
    private let memory: MappedMemory

    /// `name` only labels the file in /proc/PID/fd (`memfd:NAME`).
    public init(name: String, bytes: Int) throws(SystemCallError) {
        precondition(bytes > 0)
        let fd = try systemCall("memfd_create", path: name) { gridlock_memfd_create(name) }
        let descriptor = FileDescriptor(rawValue: fd)
        do {
            _ = try systemCall("ftruncate(\(bytes) bytes)", path: "memfd:\(name)") { ftruncate(fd, off_t(bytes)) }
            memory = try MappedMemory.mapShared(descriptor, offset: 0, count: bytes)
        } catch {
            descriptor.close()
            throw error
        }
        fileDescriptor = descriptor
        count = bytes
    }

    deinit {
        memory.unmap()
        fileDescriptor.close()
    }

    public var base: UnsafeMutableRawPointer { memory.base }
    public var bytes: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(start: memory.base, count: count) }
}
