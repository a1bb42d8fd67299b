import Glibc

/// A whole file written and fsynced under a temporary name beside the one it is meant for,
/// and not yet in place: readers of `path` still see the old file (or none). The caller judges
/// it first (`gridlock enroll` has the whole configuration read with it), then `install()`
/// renames it over `path` and fsyncs the folder, or `discard()` removes it. `AtomicFile.write`
/// is the two steps with nothing in between.
public struct StagedFile: Hashable, Sendable {
    /// The name it is meant for.
    public let path: String
    /// Where it is until it is installed or discarded.
    public let temporaryPath: String

    /// Writes `temporaryPath` with exactly `mode` (the umask is overridden with fchmod) and
    /// fsyncs it; on any failure it is removed again. It must be in the folder of `path`, so
    /// the rename is one step on one file system. A file already there can only be left from
    /// a crashed process with our pid (the name is the caller's, unique per pid): it is
    /// removed and the open retried. `durable: false` leaves out the fsync (`AtomicFile.write`).
    public static func write(
        _ bytes: [UInt8], for path: String, temporaryPath: String, mode: FileMode, durable: Bool = true
    ) throws(SystemCallError) -> StagedFile {
        let flags: OpenFlags = [.create, .exclusive, .writeOnly]
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(temporaryPath, flags, mode: mode)
        } catch where error.errno == .exists {
            unlink(temporaryPath)
            file = try FileDescriptor.open(temporaryPath, flags, mode: mode)
        }
        do {
            _ = try systemCall("fchmod", path: temporaryPath) { fchmod(file.rawValue, mode) }
            try file.writeAll(bytes)
            if durable { _ = try systemCall("fsync", path: temporaryPath) { fsync(file.rawValue) } }
        } catch {
            file.close()
            unlink(temporaryPath)
            throw error
        }
        // A failing close after a successful fsync loses nothing.
        file.close()
        return StagedFile(path: path, temporaryPath: temporaryPath)
    }

    /// Renames it over `path` and fsyncs the folder, so the rename itself is durable. A failed
    /// rename removes the temporary file; after the rename there is nothing left to remove.
    /// `durable: false` leaves out the folder's fsync.
    public func install(durable: Bool = true) throws(SystemCallError) {
        do {
            _ = try systemCall("rename to \(path)", path: temporaryPath) { rename(temporaryPath, path) }
        } catch {
            unlink(temporaryPath)
            throw error
        }
        guard durable else { return }
        let directoryPath = AtomicFile.directory(of: path)
        let directory = try FileDescriptor.open(directoryPath, [.readOnly, .directory])
        defer { directory.close() }
        _ = try systemCall("fsync", path: directoryPath) { fsync(directory.rawValue) }
    }

    /// Removes the temporary file; `path` is left as it was.
    public func discard() {
        unlink(temporaryPath)
    }
}
