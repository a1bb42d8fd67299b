import GridlockCore
import GridlockDaemon
import GridlockInput
import LinuxSys

let benchCommand = Command(
    name: "bench",
    summary: "measure frame cost, start-up time and memory on the benchmark scene",
    usage: """
        Usage: gridlock bench [--json] [--startup-runs N]

        Renders the benchmark scene ("pattern-lock frame": a finger dragged through nodes
        1-2-3-6-9 of a 3x3 grid in 240 moves, one frame each; docs/performance.md describes
        it) at 800x480, 1280x800 and 1920x1080, once redrawing the whole canvas every frame
        and once redrawing only the damaged area, and prints total, p50 and p99 per-frame
        times. The product's default look is the benchmark look; a second row per size
        ("themed") draws the same frames with every theme image (node images with
        transparency, a background image scaled to fill), larger nodes and a wider line.

        Then starts gridlockd --bench-startup N times (1 to 100, default 5) at 1920x1080
        with no display and reports the median time from spawn to first frame and its
        peak RSS.

        Build in release mode first (make release); debug builds are many times slower.
        """
) { arguments in
    let json = arguments.flag("--json")
    let runs = try arguments.integer("--startup-runs", in: 1...100) ?? 5
    try arguments.finish()

    var results: [(look: String, result: BenchRunner.SizeResult)] = []
    for size in BenchScene.sizes {
        results.append(("plain", try BenchRunner.measure(size: size)))
    }
    let imageDirectory = "/tmp/gridlock-bench-theme-\(ProcessIdentity.processID)"
    try Directory.create(imageDirectory)
    defer { Directory.removeTree(imageDirectory) }
    let themed = try BenchTheme.write(into: imageDirectory)
    for size in BenchScene.sizes {
        results.append(("themed", try BenchRunner.measure(size: size, theme: themed)))
    }
    let startup = try measureStartup(runs: runs, size: BenchScene.sizes[2])

    if json {
        for (look, r) in results {
            print(JSONValue.object([
                ("size", .string("\(Int(r.size.width))x\(Int(r.size.height))")),
                ("look", .string(look)),
                ("frames", .int(BenchScene.moves)),
                ("full_total_ms", .double(r.full.total, decimals: 3)),
                ("full_p50_ms", .double(r.full.p50, decimals: 4)),
                ("full_p99_ms", .double(r.full.p99, decimals: 4)),
                ("damage_total_ms", .double(r.damageOnly.total, decimals: 3)),
                ("damage_p50_ms", .double(r.damageOnly.p50, decimals: 4)),
                ("damage_p99_ms", .double(r.damageOnly.p99, decimals: 4)),
                ("damaged_fraction", .double(r.damagedFraction, decimals: 4)),
            ]))
        }
        print(JSONValue.object([
            ("startup_size", "1920x1080"),
            ("start_to_first_frame_ms", .double(startup.milliseconds, decimals: 2)),
            ("peak_rss_kib", .int(startup.peakKiB)),
            ("runs", .int(runs)),
        ]))
    } else {
        print("pattern-lock frame, \(BenchScene.moves) frames per size (times in ms)")
        print("size              full total   p50      p99    | damage total  p50      p99    | damaged area")
        for (look, r) in results {
            let size = "\(Int(r.size.width))x\(Int(r.size.height))" + (look == "plain" ? "" : " \(look)")
            print(
                size.padding(18) + fixedDecimal(r.full.total, decimals: 1).padding(13)
                    + fixedDecimal(r.full.p50, decimals: 3).padding(9) + fixedDecimal(r.full.p99, decimals: 3).padding(7)
                    + "| " + fixedDecimal(r.damageOnly.total, decimals: 1).padding(14)
                    + fixedDecimal(r.damageOnly.p50, decimals: 3).padding(9) + fixedDecimal(r.damageOnly.p99, decimals: 3).padding(7)
                    + "| " + fixedDecimal(r.damagedFraction * 100, decimals: 2) + " %")
        }
        print("gridlockd start to first frame (1920x1080, headless, median of \(runs)): \(fixedDecimal(startup.milliseconds, decimals: 2)) ms")
        print("gridlockd peak RSS at first frame (1920x1080): \(startup.peakKiB) KiB")
        print("input event to scan-out: not measured here (no display); see docs/performance.md")
    }
    return 0
}

/// Spawns gridlockd --bench-startup with a headless config and reads what it prints.
func measureStartup(runs: Int, size: Size) throws -> (milliseconds: Double, peakKiB: Int) {
    let directory = "/tmp/gridlock-bench-\(ProcessIdentity.processID)"
    try Directory.create(directory)
    defer { Directory.removeTree(directory) }

    // A recording with a touchscreen's description and no events: the replay backend then
    // costs what opening a device costs, and no touch arrives before the first frame.
    var device = DeviceDescription(name: "bench touchscreen", id: DeviceID(bustype: InputCodes.BUS_USB, vendor: 0, product: 0, version: 0))
    device.properties.insert(InputCodes.INPUT_PROP_DIRECT)
    for code in [InputCodes.ABS_MT_SLOT, InputCodes.ABS_MT_POSITION_X, InputCodes.ABS_MT_POSITION_Y, InputCodes.ABS_MT_TRACKING_ID, InputCodes.ABS_X, InputCodes.ABS_Y] {
        device.enable(type: InputCodes.EV_ABS, code: code)
    }
    device.enable(type: InputCodes.EV_KEY, code: InputCodes.BTN_TOUCH)
    device.enable(type: InputCodes.EV_SYN, code: InputCodes.SYN_REPORT)
    for code in [InputCodes.ABS_MT_POSITION_X, InputCodes.ABS_MT_POSITION_Y, InputCodes.ABS_X, InputCodes.ABS_Y] {
        device.axes[code] = AbsInfo(minimum: 0, maximum: 4095)
    }
    device.axes[InputCodes.ABS_MT_SLOT] = AbsInfo(minimum: 0, maximum: 9)
    device.axes[InputCodes.ABS_MT_TRACKING_ID] = AbsInfo(minimum: 0, maximum: 65535)
    try AtomicFile.write(Array(try EvemuRecording(device: device).evemuText().utf8), to: "\(directory)/touch.evemu", mode: 0o644)
    let config = """
        [display]
        backend=png
        output-dir=\(directory)/frames
        size=\(Int(size.width))x\(Int(size.height))
        [touch]
        backend=replay
        device=\(directory)/touch.evemu
        [lockout]
        state-file=\(directory)/attempts
        """
    try AtomicFile.write(Array(config.utf8), to: "\(directory)/gridlock.conf", mode: 0o644)

    let daemon = siblingExecutable("gridlockd")
    var times: [Double] = []
    var peak = 0
    for _ in 0..<runs {
        var firstFrame: Int64?
        let start = MonotonicClock.now()
        let (status, problems) = try ProgramRun.run(
            name: "bench", argv: [daemon, "--config", "\(directory)/gridlock.conf", "--bench-startup"],
            timeout: .seconds(30)
        ) { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2 else { return }
            if fields[0] == "first-frame-monotonic-ns" { firstFrame = Int64(fields[1]) }
            if fields[0] == "peak-rss-kib" { peak = max(peak, Int(fields[1]) ?? 0) }
        }
        guard status == .exited(0), let firstFrame else {
            let why = status.map { "\($0)" } ?? problems.map(\.logMessage).joined(separator: "; ")
            throw CommandError("\(daemon) --bench-startup failed: \(why)")
        }
        times.append(Double(firstFrame - start.nanoseconds) / 1e6)
    }
    times.sort()
    return (times[times.count / 2], peak)
}

/// A program installed beside this one (gridlockd next to gridlock).
func siblingExecutable(_ name: String) -> String {
    guard let path = try? PathLookup.resolve("/proc/self/exe") else { return name }
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return "\(folder)/\(name)"
}
