import Glibc

/// A large, page-aligned, zeroed allocation made resident up front.
///
/// A 1920x1080 canvas is 2,000 pages; faulting them in one by one on the first frame
/// costs milliseconds of start-up. Asking for transparent huge pages (where the kernel
/// allows them) and populating the mapping in one call makes that a handful of faults.
public final class PageMemory {
    public let base: UnsafeMutableRawPointer
    public let count: Int
    private let mapping: UnsafeMutableRawPointer
    private let mappedCount: Int

    private static let hugePage = 2 << 20

    public init(bytes: Int) throws(SystemCallError) {
        count = bytes
        // Over-allocate so the start can be aligned to a huge page, then trim both ends.
        let wanted = bytes + Self.hugePage
        guard let raw = mmap(nil, wanted, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else {
            throw SystemCallError(operation: "mmap(\(bytes) bytes)", errno: .current)
        }
        let address = UInt(bitPattern: raw)
        let aligned = (address + UInt(Self.hugePage - 1)) & ~UInt(Self.hugePage - 1)
        let head = Int(aligned - address)
        if head > 0 { munmap(raw, head) }
        let tail = wanted - head - bytes
        let start = UnsafeMutableRawPointer(bitPattern: aligned)!
        if tail > 0 { munmap(start + bytes, tail) }
        mapping = start
        mappedCount = bytes
        base = start
        // Both are hints: refusals (no THP, kernel before 5.14) only mean slower first writes.
        _ = madvise(start, bytes, MADV_HUGEPAGE)
        _ = madvise(start, bytes, MADV_POPULATE_WRITE)
    }

    deinit { munmap(mapping, mappedCount) }
}

/// A device's memory mapped into this process, shared with the device (a DRM dumb buffer
/// the display scans out). Like `FileDescriptor` it does not unmap itself: its owner calls
/// `unmap()` once, before the device lets the memory go.
public struct MappedMemory {
    public let base: UnsafeMutableRawPointer
    public let count: Int

    /// For an owner that kept only the address and size of a mapping made by `mapShared`.
    public init(base: UnsafeMutableRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    /// Maps `count` bytes of `file` from `offset` (a cookie the driver handed out, for a
    /// DRM buffer), readable and writable.
    public static func mapShared(
        _ file: FileDescriptor, offset: UInt64, count: Int
    ) throws(SystemCallError) -> MappedMemory {
        guard let base = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_SHARED, file.rawValue, off_t(offset)),
              base != MAP_FAILED else {
            throw SystemCallError(operation: "mmap(\(count) bytes at offset \(offset))", path: "fd \(file.rawValue)", errno: .current)
        }
        return MappedMemory(base: base, count: count)
    }

    public func unmap() {
        munmap(base, count)
    }
}
