import Glibc
import GridlockCore

/// Figures the kernel keeps about this process (from /proc/self/status and its clocks).
public enum ProcessStatus {
    /// Resident memory in KiB, as /proc/self/status has it.
    public struct Memory: Sendable, Equatable {
        /// Peak resident set size ("VmHWM"): what `/usr/bin/time` calls maximum resident.
        public var peakKiB: Int
        /// Resident now ("VmRSS"), and its parts: anonymous pages (heap, stacks, the
        /// canvas, written pages of mapped files), pages of mapped files (code, libraries,
        /// the font), and shared memory.
        public var residentKiB: Int
        public var anonymousKiB: Int
        public var fileKiB: Int
        public var sharedKiB: Int
    }

    /// Peak resident set size ("VmHWM") in KiB, or nil where /proc is not mounted.
    public static func peakResidentKiB() -> Int? {
        memory()?.peakKiB
    }

    /// Nil where /proc is not mounted or the kernel (before 4.5) lacks the split.
    public static func memory() -> Memory? {
        guard let bytes = try? AtomicFile.read("/proc/self/status") else { return nil }
        var fields: [Substring: Int] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" })
            guard parts.count >= 2, parts[0].hasPrefix("Vm") || parts[0].hasPrefix("Rss") else { continue }
            fields[parts[0]] = Int(parts[1])
        }
        guard let peak = fields["VmHWM"], let resident = fields["VmRSS"], let anonymous = fields["RssAnon"],
              let file = fields["RssFile"], let shared = fields["RssShmem"] else { return nil }
        return Memory(peakKiB: peak, residentKiB: resident, anonymousKiB: anonymous, fileKiB: file, sharedKiB: shared)
    }

    /// The anonymous memory resident in the one mapping that holds `address`, in KiB, from
    /// /proc/self/smaps: unlike the process's whole RssAnon, no other thread's allocations
    /// or frees move it. nil when no mapping holds it.
    public static func anonymousKiB(ofMappingHolding address: UnsafeRawPointer) -> Int? {
        guard let bytes = try? AtomicFile.read("/proc/self/smaps") else { return nil }
        let target = UInt(bitPattern: address)
        var inside = false
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            // A mapping's first line: `start-end perms offset dev inode path`, in hex.
            if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
               let start = UInt(line[..<dash], radix: 16), let end = UInt(line[line.index(after: dash)..<space], radix: 16) {
                inside = start <= target && target < end
            } else if inside, line.hasPrefix("Anonymous:") {
                return Int(line.dropFirst(10).split(separator: " ").first ?? "")
            }
        }
        return nil
    }

    /// CPU time this process has used so far, user and system, all threads, in nanoseconds.
    public static func cpuTimeNanoseconds() -> Int64 {
        var spec = timespec()
        // Cannot fail for CLOCK_PROCESS_CPUTIME_ID with a valid pointer.
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Nanoseconds.from(seconds: Int64(spec.tv_sec), fraction: Int64(spec.tv_nsec))
    }
}
