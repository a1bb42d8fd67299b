import LinuxSys
import Testing

@Suite struct ProcessStatusTests {
    /// The kernel's VmRSS is exactly the sum of its three parts; a misread field breaks it.
    @Test("resident memory is the sum of its parts") func residentMemoryIsTheSumOfItsParts() throws {
        let memory = try #require(ProcessStatus.memory())
        #expect(memory.residentKiB == memory.anonymousKiB + memory.fileKiB + memory.sharedKiB)
        #expect(memory.peakKiB >= memory.residentKiB)
        #expect(memory.fileKiB > 0)  // this test's own code is a mapped file
        #expect(ProcessStatus.peakResidentKiB() ?? 0 >= memory.residentKiB)
    }

    /// Judged on the written buffer's own mapping: the process's RssAnon also moves with
    /// whatever the suites running beside this one allocate and free.
    @Test("anonymous memory grows when pages are written") func anonymousMemoryGrowsWhenPagesAreWritten() throws {
        let pages = try PageMemory(bytes: 32 << 20)
        pages.base.initializeMemory(as: UInt8.self, repeating: 1, count: pages.count)
        let resident = try #require(ProcessStatus.anonymousKiB(ofMappingHolding: pages.base))
        #expect(resident >= 32 << 10, "32 MiB written, its mapping holds \(resident) KiB of anonymous memory")
        #expect(pages.base.load(fromByteOffset: pages.count - 1, as: UInt8.self) == 1)
        #expect(try #require(ProcessStatus.memory()).anonymousKiB >= resident)
    }

    @Test("cpu time advances with work") func cpuTimeAdvancesWithWork() {
        let start = ProcessStatus.cpuTimeNanoseconds()
        var sum: UInt64 = 0
        for i in 0..<2_000_000 { sum &+= UInt64(i) &* 2654435761 }
        #expect(sum != 0)
        #expect(ProcessStatus.cpuTimeNanoseconds() > start)
    }
}
