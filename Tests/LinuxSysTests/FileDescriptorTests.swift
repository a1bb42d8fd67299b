import Glibc
import LinuxSys
import Testing

@Suite struct FileDescriptorTests {
    @Test func pipeReadDistinguishesWouldBlockFromEndOfFile() throws {
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
        let end = try buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) }
        #expect(end == 0)
    }

    @Test func pipeEndsAreCloseOnExecAndOnlyTheReadEndIsNonBlocking() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { readEnd.close(); writeEnd.close() }
        #expect(fcntl(readEnd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(writeEnd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(readEnd.rawValue, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(writeEnd.rawValue, F_GETFL) & O_NONBLOCK == 0)
    }

    @Test func writeAllWritesMoreThanOnePipeBufferWhenDrainedConcurrently() throws {
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
}
