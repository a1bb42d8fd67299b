import Glibc
import LinuxSys
import Testing

/// The hardware instruction counter (perf_event_open) of `gridlock bench --instructions`: it
/// counts where the CPU has one, and where it has none or may not be used, the error says
/// which, with the errno.
@Suite struct InstructionCounterTests {
    @Test("no hardware counter (ENOENT) is reported as such, naming the call and the errno")
    func noCounterIsNamed() {
        let error = InstructionCounterError(operation: .open, errno: .noSuchFile)
        #expect(error.description == "perf_event_open (PERF_COUNT_HW_INSTRUCTIONS, this thread, user space): "
            + "No such file or directory (ENOENT): this CPU has no hardware instruction counter the kernel can use "
            + "(no PMU, as in most virtual machines)")
    }

    @Test("a refusal (EACCES, EPERM) names kernel.perf_event_paranoid, with its value when known")
    func refusalNamesTheSetting() {
        let denied = InstructionCounterError(operation: .open, errno: .permissionDenied, paranoid: 3)
        #expect(denied.meaning?.hasPrefix("kernel.perf_event_paranoid is 3: counting one's own thread in user space needs 2 or less") == true)
        let notPermitted = InstructionCounterError(operation: .open, errno: .notPermitted)
        #expect(notPermitted.description.contains("(EPERM): kernel.perf_event_paranoid forbids it"))
    }

    @Test("an errno with no particular meaning here is still printed")
    func otherErrnoIsPrinted() {
        let error = InstructionCounterError(operation: .enable, errno: .invalidArgument)
        #expect(error.meaning == nil)
        #expect(error.description == "ioctl PERF_EVENT_IOC_RESET/ENABLE: Invalid argument (EINVAL)")
    }

    /// Runs on any machine: with a counter, more work counts more instructions; without one
    /// (this development machine, a VM: ENOENT), the failure is the typed error with an errno
    /// and a meaning, which `gridlock bench --instructions` prints.
    @Test("the counter counts more for more work, or its failure to open is typed and explained")
    func countsOrExplains() throws {
        let counter: InstructionCounter
        do {
            counter = try InstructionCounter.open()
        } catch {
            #expect(error.operation == .open)
            #expect([ENOENT, EACCES, EPERM, ENOSYS, ENODEV, EOPNOTSUPP].contains(error.errno.rawValue), "\(error)")
            #expect(error.meaning != nil)
            #expect(error.description.hasPrefix("perf_event_open (PERF_COUNT_HW_INSTRUCTIONS"))
            return
        }
        func count(_ rounds: Int) throws -> UInt64 {
            // Hashing, which no optimiser turns into a closed form as it could a plain sum.
            var hasher = Hasher()
            try counter.start()
            for round in 0..<rounds { hasher.combine(round) }
            try counter.stop()
            _ = hasher.finalize()
            let reading = try counter.read()
            #expect(reading.isComplete)
            return reading.count
        }
        let small = try count(1_000)
        let large = try count(100_000)
        #expect(small > 1_000)
        #expect(large > small * 10)
    }

    @Test("a program is found in the first folder of a search path that has it executable")
    func executableOnSearchPath() throws {
        #expect(PathLookup.executable(named: "sh", searchPath: "/nonexistent:/bin:/usr/bin") == "/bin/sh")
        #expect(PathLookup.executable(named: "passwd", searchPath: "/etc") == nil)
        #expect(PathLookup.executable(named: "gridlock-no-such-program", searchPath: "/bin:/usr/bin") == nil)
        #expect(PathLookup.executable(named: "sh", searchPath: "") == nil)
    }
}
