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

    @Test("anonymous memory grows when pages are written") func anonymousMemoryGrowsWhenPagesAreWritten() throws {
        let before = try #require(ProcessStatus.memory()).anonymousKiB
        let pages = [UInt8](repeating: 1, count: 32 << 20)
        let after = try #require(ProcessStatus.memory()).anonymousKiB
        #expect(after - before >= 30 << 10, "32 MiB written, anonymous memory grew by \(after - before) KiB")
        #expect(pages[pages.count - 1] == 1)
    }

    @Test("cpu time advances with work") func cpuTimeAdvancesWithWork() {
        let start = ProcessStatus.cpuTimeNanoseconds()
        var sum: UInt64 = 0
        for i in 0..<2_000_000 { sum &+= UInt64(i) &* 2654435761 }
        #expect(sum != 0)
        #expect(ProcessStatus.cpuTimeNanoseconds() > start)
    }
}
