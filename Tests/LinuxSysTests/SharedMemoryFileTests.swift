import LinuxSys
import Testing

@Suite struct SharedMemoryFileTests {
    @Test("memory written through the mapping is what another mapping of its descriptor reads")
    func anotherMappingOfTheDescriptorSeesTheWrites() throws {
        let file = try SharedMemoryFile(name: "test", bytes: 8192)
        #expect(file.count == 8192)
        file.bytes.storeBytes(of: 0x00FF_8000 as UInt32, toByteOffset: 4096, as: UInt32.self)
        let other = try MappedMemory.mapShared(file.fileDescriptor, offset: 0, count: 8192)
        defer { other.unmap() }
        #expect(other.base.load(fromByteOffset: 4096, as: UInt32.self) == 0x00FF_8000)
        #expect(other.base.load(fromByteOffset: 0, as: UInt32.self) == 0, "a new file is zeroed")
    }
}
