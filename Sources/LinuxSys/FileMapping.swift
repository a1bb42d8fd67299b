import Glibc

/// A regular file mapped read-only into memory, for a library that reads a file by
/// pieces (FreeType and HarfBuzz reading a font): opened as `RegularFile.open` does, so
/// nothing blocks and nothing else is opened at that path later, and only the pages read
/// become resident, as when those libraries map the file themselves.
///
/// As with any mapping, a file truncated in place while mapped faults the reader (SIGBUS);
/// a file replaced by rename, as package managers do, keeps the mapped old one intact.
public final class FileMapping: @unchecked Sendable {
    public let path: String
    public let base: UnsafeRawPointer
    public let count: Int

    /// Refuses an empty file (nothing to map, and no library reads an empty font).
    public init(regularFile path: String, limit: Int) throws(BoundedReadError) {
        let (file, status) = try RegularFile.open(path, limit: limit)
        defer { file.close() }
        guard status.size > 0 else { throw .empty(path: path) }
        guard let mapped = mmap(nil, status.size, PROT_READ, MAP_PRIVATE, file.rawValue, 0), mapped != MAP_FAILED else {
            throw .system(SystemCallError(operation: "mmap", path: path, errno: .current))
        }
        self.path = path
        base = UnsafeRawPointer(mapped)
        count = status.size
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), count) }

    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}
