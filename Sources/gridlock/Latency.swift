import GridlockDaemon
import GridlockDisplay
import LinuxSys

let latencyCommand = Command(
    name: "latency",
    summary: "print gridlockd's per-stroke vblank latency log lines as JSON",
    usage: """
        Usage: gridlock latency [LOG]

        Reads gridlockd's log (LOG, or standard input: `journalctl -u gridlockd -o cat`)
        and prints one JSON object per "stroke vblank latency" line, which gridlockd logs
        at debug priority after each stroke on a display with a vblank clock: how many input
        frames were shown at vblank +1, +2, +3 or later (see docs/performance.md for the
        definition), the render, copy and flip-wait times of its frames, the age of what
        each flip showed at scan-out (age_p50_us, age_p99_us: the vblank less the newest
        input drawn), the missed deadlines (input read before the latch point yet shown
        a vblank late) and the lag of the line's drawn tip behind the finger at each flip's
        vblank (lag_p50_cpx, lag_p99_cpx in hundredths of a pixel, lag_frames measured,
        lag_unmeasured those no later touch sample placed). The object's keys are the line's,
        with '-' and '+' spelled '_' and '_plus_', plus on_time, the fraction shown at vblank
        +1 of all input frames (unmeasured ones included), missed_deadline_rate, the missed
        deadlines over the input frames read before the latch point, and lag_p50_px,
        lag_p99_px, the lag in pixels.
        Exits 1 if no such line was found.
        """
) { arguments in
    let paths = try arguments.positionals(count: 0...1, names: "LOG")
    var lines: [String] = []
    if let path = paths.first {
        let bytes: [UInt8]?
        do { bytes = try AtomicFile.read(path) } catch { throw CommandError("\(path): \(error)") }
        guard let bytes else { throw CommandError("\(path): no such file") }
        lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    } else {
        while let line = readLine(strippingNewline: true) { lines.append(line) }
    }
    var found = 0
    for line in lines {
        guard let figures = VblankStrokeReport.figures(inLogLine: line) else { continue }
        found += 1
        var fields: [(String, JSONValue)] = figures.map { (jsonKey($0.key), .int($0.value)) }
        let value = Dictionary(figures.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        let all = (value["inputs"] ?? 0) + (value["unmeasured"] ?? 0)
        fields.append(("on_time", .double(all == 0 ? 0 : Double(value["vblank+1"] ?? 0) / Double(all), decimals: 4)))
        let inTime = (value["inputs"] ?? 0) - (value["read-after-latch"] ?? 0)
        fields.append(("missed_deadline_rate", .double(inTime <= 0 ? 0 : Double(value["missed-deadline"] ?? 0) / Double(inTime), decimals: 4)))
        for percentile in ["p50", "p99"] {
            if let hundredths = value["lag-\(percentile)-cpx"] {
                fields.append(("lag_\(percentile)_px", .double(Double(hundredths) / 100, decimals: 2)))
            }
        }
        printEscaped(JSONValue.object(fields))
    }
    return found > 0 ? 0 : 1
}

/// "vblank+4-or-later" -> "vblank_plus_4_or_later".
private func jsonKey(_ key: String) -> String {
    var out = ""
    for c in key {
        switch c {
        case "+": out += "_plus_"
        case "-": out += "_"
        default: out.append(c)
        }
    }
    return out
}
