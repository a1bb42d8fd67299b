import Glibc
import LinuxSys
import Testing

@Suite struct FileDescriptorTests {
    @Test("pipe read distinguishes would block from end of file") func pipeReadDistinguishesWouldBlockFromEndOfFile() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { readEnd.close() }
        var buffer = [UInt8](repeating: 0, count: 16)

        let empty = try buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) }
        #expect(empty == nil)

        try writeEnd.writeAll(Array("abc".utf8))
        let three = try buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) }
        #expect(three == 3)
        #expect(Array(buffer[0..<3]) == Array("abc".utf8))

        writeEnd.close()
        // Another test's spawn may hold a copy of the write end until its child execs (the
        // copy is close-on-exec): end of file comes once every copy is closed, which poll
        // reports as a hang-up, so wait for that rather than for a moment.
        var hangUp = pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(poll(&hangUp, 1, 30_000) == 1)
        let end = try buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) }
        #expect(end == 0)
    }

    @Test("pipe ends are close-on-exec and only the read end is non-blocking") func pipeEndsAreCloseOnExecAndOnlyTheReadEndIsNonBlocking() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { readEnd.close(); writeEnd.close() }
        #expect(fcntl(readEnd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(writeEnd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(readEnd.rawValue, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(writeEnd.rawValue, F_GETFL) & O_NONBLOCK == 0)
    }

    @Test("write all writes more than one pipe buffer when drained concurrently") func writeAllWritesMoreThanOnePipeBufferWhenDrainedConcurrently() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { readEnd.close() }
        let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        let reader = try BackgroundJob<[UInt8]>.start(wakeup: EventFD()) {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 8192)
            while received.count < payload.count {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(readEnd.rawValue, $0.baseAddress, $0.count) }
                if n > 0 { received += buffer[0..<n] } else if n == 0 { break } else { usleep(1000) }
            }
            return received
        }
        try writeEnd.writeAll(payload)
        writeEnd.close()
        var received: [UInt8]?
        for _ in 0..<2000 where received == nil {
            received = reader.take()
            if received == nil { usleep(1000) }
        }
        #expect(received == payload)
    }

    @Test("wait until readable times out on an empty pipe and returns once data is there") func waitUntilReadableTimesOutOnAnEmptyPipeAndReturnsOnceDataIsThere() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { readEnd.close(); writeEnd.close() }
        #expect(!readEnd.waitUntilReadable(milliseconds: 10))
        try writeEnd.writeAll([1])
        #expect(readEnd.waitUntilReadable(milliseconds: 1000))
    }

    @Test("exclusive create refuses an existing file naming it") func exclusiveCreateRefusesAnExistingFileNamingIt() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/once"
        try FileDescriptor.open(path, [.writeOnly, .create, .exclusive], mode: 0o600).close()
        #expect(throws: SystemCallError(operation: "open", path: path, errno: .exists)) {
            try FileDescriptor.open(path, [.writeOnly, .create, .exclusive]).close()
        }
        #expect(try FileStatus(path: path).permissions == 0o600)
        #expect(try FileStatus(path: directory).isDirectory)
        #expect(try !FileStatus(path: path).isDirectory)
    }

    @Test("the status of a directory entry describes a symbolic link, even a dangling one, instead of following it")
    func entryStatusDoesNotFollowLinks() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let link = "\(directory)/dangling"
        try #require(symlink("\(directory)/nowhere", link) == 0)
        #expect(throws: SystemCallError(operation: "stat", path: link, errno: .noSuchFile)) { _ = try FileStatus(path: link) }
        let entry = try FileStatus(entryAt: link)
        #expect(entry.isSymbolicLink && entry.kind == "a symbolic link")
        #expect(try !FileStatus(entryAt: directory).isSymbolicLink)
        #expect(try FileStatus(entryAt: directory).isDirectory)
    }

    @Test("shared mapping of a file writes through to it") func sharedMappingOfAFileWritesThroughToIt() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = "\(directory)/mapped"
        try AtomicFile.write([0, 0, 0, 0], to: path, mode: 0o600)
        let file = try FileDescriptor.open(path, .readWrite)
        defer { file.close() }
        let memory = try MappedMemory.mapShared(file, offset: 0, count: 4)
        memory.base.storeBytes(of: 0x2A, toByteOffset: 2, as: UInt8.self)
        memory.unmap()
        #expect(try AtomicFile.contents(of: path) == [0, 0, 0x2A, 0])
    }
}
