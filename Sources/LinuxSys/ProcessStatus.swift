/// Figures the kernel keeps about this process (from /proc/self/status).
public enum ProcessStatus {
    /// Peak resident set size ("VmHWM") in KiB, or nil where /proc is not mounted.
    public static func peakResidentKiB() -> Int? {
        guard let bytes = try? AtomicFile.read("/proc/self/status") else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
