import GridlockArguments
import GridlockCore
import GridlockBench
import GridlockDaemon
import GridlockInput
import GridlockEvdev
import LinuxSys

let benchCommand = Command(
    name: "bench",
    summary: "measure frame cost, start-up time, memory and CPU on the benchmark scene",
    usage: """
        Usage: gridlock bench [--json] [--startup-runs N] [--peer PROGRAM] [--instructions [auto|perf|callgrind]]
               gridlock bench --damage-frames N
               gridlock bench --stroke-under COMMAND [--stroke-frames N] [--stroke-interval MS]

        Renders the benchmark scene ("pattern-lock frame": a finger dragged through nodes
        1-2-3-6-9 of a 3x3 grid in 240 moves, one frame each; docs/performance.md describes
        it) at 800x480, 1280x800 and 1920x1080, once redrawing the whole canvas every frame
        and once redrawing only the damaged area, and prints total, p50 and p99 per-frame
        times. The product's default look is the benchmark look; a second row per size
        ("themed") draws the same frames with every theme image (node images with
        transparency, a background image scaled to fill), larger nodes and a wider line.

        Then, N times (1 to 100, default 5), starts gridlockd-single (the daemon drawing in
        its own process) --bench-startup at 1920x1080 with no display, and
        gridlockd-single --bench-stroke, which gets the same drag as a panel
        sends it, binary input events on a pipe (its standard input), written by gridlock
        bench one input frame 4 ms after the daemon read the previous one, and runs it
        through the daemon's own loop. It reports medians of: the time from spawn to first frame,
        the peak RSS (as wait4 reports it, like /usr/bin/time), the resident anonymous and
        file-backed memory at the first frame, and the CPU time the drag took after the
        first frame, paced as above and, in a second run, back to back (each frame written
        as soon as the previous one is read). The gridlockd-single it starts is the one
        beside it, or in libexec/gridlock beside its bin folder (where the package installs
        it).

        In the same rounds, as root, the panel's face apart: gridlockd beside it as the
        verifier alone (a scratch configuration and socket, started once) and gridlock-panel
        --bench-stroke fed the same drag, paced alike, once gridlockd answered it; its CPU
        time from that answer to the stroke's verdict, and the frames it drew. Not as
        another user (a face believes only a gridlockd that runs as root), nor without
        gridlock-panel and gridlockd beside it: the output says which.

        --peer PROGRAM runs another renderer of the same scene in the same rounds, as
        `PROGRAM 1920 1080 damage`; it must print a JSON line with "total_cpu_ms" (its
        loop's CPU time). Its peak RSS is measured the same way as gridlockd's. Its loop
        draws the frames back to back, so it is compared with the back-to-back stroke: a
        pause between frames costs any program CPU (cold caches, wake-ups), drawing or not.

        --instructions [auto|perf|callgrind], after everything above (which it leaves alone),
        counts the instructions of one damage-only frame at 1920x1080, the mean of the 240: a
        figure independent of the CPU's speed and the machine's load, to compare builds for
        different CPUs (amd64, arm64) with. perf: the CPU's own counter (perf_event_open,
        the instructions this thread retires in user space), started and stopped around
        exactly the 240 frames, in this process. callgrind: valgrind --tool=callgrind on this
        program's --damage-frames 240 and --damage-frames 0 (below; about 5 s each in a
        release build), the difference of their Ir totals over 240. auto (the default): perf
        when the counter opens, else callgrind when valgrind is on PATH, else no figure and
        why (ENOENT: no hardware counter, as in most virtual machines; EACCES or EPERM:
        kernel.perf_event_paranoid), exit status 0. A source asked for by name that is
        missing, or a count that fails, is reported the same way, with exit status 1.
        With --json one more object: "damage_only_instructions_per_frame" (null when not
        counted), "instructions_source" (perf, callgrind or null), "instructions_unavailable"
        (why not, or null), "perf_counter_error" (why perf was not used, or null), callgrind's
        two totals ("callgrind_ir_with_frames", "callgrind_ir_without_frames") and
        "instructions_size", "instructions_frames".

        --damage-frames N (0 to 240) does nothing else: it draws the first N damage-only
        frames at 1920x1080 after the same warm-up, untimed, and prints how many it drew and
        their damaged area. It is for instruction counters such as valgrind's callgrind: N
        frames cost the difference between a run with N and one with 0.

        --stroke-under COMMAND does nothing else: one gridlockd --bench-stroke, started
        under COMMAND (split at spaces, e.g. "valgrind --tool=callgrind"), fed the drag as
        above but 50 ms apart (valgrind slows the daemon down 50 times or more); prints what
        it printed. Since a frame is only written after the previous one was read, the
        daemon draws one frame per move, and instruction counts repeat. --stroke-frames N
        (0 to 241) feeds only the drag's first N input frames (the touch-down, then the
        moves): what the stroke costs is the difference between a run with 241 and one
        with 0, which starts, draws its first frame and stops the same.
        --stroke-interval MS (0 to 1000) sets the time between a frame read and the next
        one written, for the rounds above (default 4) and for --stroke-under (default 50);
        0 writes each frame as soon as the previous one is read.

        Build in release mode first (make release); debug builds are many times slower.
        """
) { arguments in
    let json = arguments.flag("--json")
    let runs = try arguments.integer("--startup-runs", in: 1...100) ?? 5
    let peer = try arguments.option("--peer")
    let damageFrames = try arguments.integer("--damage-frames", in: 0...BenchScene.moves)
    let strokeUnder = try arguments.option("--stroke-under")
    let strokeFrames = try arguments.integer("--stroke-frames", in: 0...(BenchScene.moves + 1))
    let strokeInterval = try arguments.integer("--stroke-interval", in: 0...1000).map { Duration.milliseconds($0) }
    let instructions = try arguments.optionalChoice(
        "--instructions", BenchInstructions.Request.allCases.map(\.rawValue), bare: BenchInstructions.Request.auto.rawValue
    ).flatMap(BenchInstructions.Request.init(rawValue:))
    try arguments.finish()
    if instructions != nil, damageFrames != nil || strokeUnder != nil {
        throw UsageError("--instructions counts after the timed figures: not with --damage-frames or --stroke-under", command: "gridlock bench")
    }

    if let strokeUnder {
        let directory = "/tmp/gridlock-bench-\(ProcessIdentity.processID)"
        try Directory.create(directory)
        defer { Directory.removeTree(directory) }
        let size = BenchScene.sizes[2]
        try writeDaemonConfigs(into: directory, size: size)
        let wrapper = strokeUnder.split(separator: " ").map(String.init)
        var feed = BenchStrokeFeed(events: BenchRecording.drag(size: size).events)
        if let strokeFrames { feed.keepFirst(strokeFrames) }
        let stroke = try runStroke(
            wrapper + [daemonExecutable(), "--config", "\(directory)/daemon.conf", "--bench-stroke"],
            feed: feed, interval: strokeInterval ?? .milliseconds(50))
        printEscaped(stroke.text)
        return 0
    }

    if let damageFrames {
        let size = BenchScene.sizes[2]
        let area = try BenchRunner.drawDamageFrames(size: size, count: damageFrames)
        printEscaped("\(damageFrames) damage-only frames at \(Int(size.width))x\(Int(size.height)), \(Int(area)) pixels damaged")
        return 0
    }

    // First, while this process is small: a spawned child's peak RSS as wait4 reports it
    // starts at the spawning process's own peak (the child runs in our memory until its
    // exec), so rendering the canvases here first would inflate the figures.
    let daemon = try measureDaemon(
        runs: runs, size: BenchScene.sizes[2], peer: peer, strokeInterval: strokeInterval ?? .nanoseconds(BenchRecording.moveInterval))
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
    // Last: the counting neither runs during nor warms anything for the timed figures.
    let instructionCount = instructions.map(countInstructions)

    if json {
        for (look, r) in results {
            printEscaped(JSONValue.object([
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
        var fields: [(String, JSONValue)] = [
            ("startup_size", "1920x1080"),
            ("start_to_first_frame_ms", .double(daemon.startMilliseconds, decimals: 2)),
            ("peak_rss_kib", .int(daemon.peakKiB)),
            ("rss_anon_kib", .int(daemon.anonymousKiB)),
            ("rss_file_kib", .int(daemon.fileKiB)),
            ("rss_shmem_kib", .int(daemon.sharedKiB)),
            ("stroke_cpu_ms", .double(daemon.strokeCPUMilliseconds, decimals: 3)),
            ("stroke_cpu_back_to_back_ms", .double(daemon.strokeBackToBackCPUMilliseconds, decimals: 3)),
            ("stroke_frames", .int(daemon.strokeFrames)),
            ("runs", .int(runs)),
        ]
        switch daemon.face {
        case .measured(let cpu, let frames):
            fields += [("face_stroke_cpu_ms", .double(cpu, decimals: 3)), ("face_stroke_frames", .int(frames)),
                       ("face_unmeasured", .null)]
        case .unmeasured(let why):
            fields += [("face_stroke_cpu_ms", .null), ("face_stroke_frames", .null), ("face_unmeasured", .string(why))]
        }
        if let peer = daemon.peer {
            fields.append(("peer_peak_rss_kib", .int(peer.peakKiB)))
            fields.append(("peer_loop_cpu_ms", .double(peer.loopCPUMilliseconds, decimals: 3)))
            fields.append(("stroke_back_to_back_to_peer_loop", .double(daemon.strokeBackToBackCPUMilliseconds / max(0.001, peer.loopCPUMilliseconds), decimals: 2)))
        }
        printEscaped(JSONValue.object(fields))
        if let instructionCount { printEscaped(JSONValue.object(instructionCount.jsonFields)) }
    } else {
        printEscaped("pattern-lock frame, \(BenchScene.moves) frames per size (times in ms)")
        printEscaped("size              full total   p50      p99    | damage total  p50      p99    | damaged area")
        for (look, r) in results {
            let size = "\(Int(r.size.width))x\(Int(r.size.height))" + (look == "plain" ? "" : " \(look)")
            printEscaped(
                size.padding(18) + fixedDecimal(r.full.total, decimals: 1).padding(13)
                    + fixedDecimal(r.full.p50, decimals: 3).padding(9) + fixedDecimal(r.full.p99, decimals: 3).padding(7)
                    + "| " + fixedDecimal(r.damageOnly.total, decimals: 1).padding(14)
                    + fixedDecimal(r.damageOnly.p50, decimals: 3).padding(9) + fixedDecimal(r.damageOnly.p99, decimals: 3).padding(7)
                    + "| " + fixedDecimal(r.damagedFraction * 100, decimals: 2) + " %")
        }
        printEscaped("gridlockd at 1920x1080, headless, medians of \(runs) runs:")
        printEscaped("  start to first frame: \(fixedDecimal(daemon.startMilliseconds, decimals: 2)) ms")
        printEscaped("  peak RSS: \(daemon.peakKiB) KiB (at the first frame: \(daemon.anonymousKiB) KiB anonymous, \(daemon.fileKiB) KiB file-backed, \(daemon.sharedKiB) KiB shared)")
        printEscaped("  CPU per stroke (\(BenchScene.moves) moves through the loop, \(daemon.strokeFrames) frames): \(fixedDecimal(daemon.strokeCPUMilliseconds, decimals: 2)) ms paced, \(fixedDecimal(daemon.strokeBackToBackCPUMilliseconds, decimals: 2)) ms back to back")
        if let peer = daemon.peer {
            printEscaped("peer at 1920x1080, same rounds: peak RSS \(peer.peakKiB) KiB, loop CPU \(fixedDecimal(peer.loopCPUMilliseconds, decimals: 2)) ms (back to back)")
            printEscaped("  gridlockd's peak RSS is \(fixedDecimal(Double(daemon.peakKiB) / Double(max(1, peer.peakKiB)), decimals: 2)) times the peer's")
            printEscaped("  gridlockd's stroke back to back is \(fixedDecimal(daemon.strokeBackToBackCPUMilliseconds / max(0.001, peer.loopCPUMilliseconds), decimals: 2)) times the peer's loop")
        }
        switch daemon.face {
        case .measured(let cpu, let frames):
            printEscaped("gridlock-panel (the panel's face apart) at 1920x1080, beside gridlockd as the verifier alone, same rounds:")
            printEscaped("  CPU per stroke (the same drag, from gridlockd's answer to the stroke's verdict, \(frames) frames): \(fixedDecimal(cpu, decimals: 2)) ms paced")
        case .unmeasured(let why):
            printEscaped("gridlock-panel (the panel's face apart): not measured: \(why)")
        }
        printEscaped("input event to scan-out: not measured here (no display); see docs/performance.md")
        if let instructionCount { printEscaped(instructionCount.text) }
    }
    if let failure = instructionCount?.failure { throw CommandError(failure) }
    return 0
}

/// What `--instructions` found: a count, or why there is none, and whether that is a failure
/// (the exit status) or only a machine without a counter.
struct InstructionOutcome {
    var count: BenchInstructions.Count?
    var unavailable: String?
    var perfFailure: String?
    /// Set when a source was asked for by name and is missing, or a count failed.
    var failure: String?

    var jsonFields: [(String, JSONValue)] {
        let totals = count?.callgrindTotals
        return [
            ("instructions_size", .string("\(Int(BenchInstructions.size.width))x\(Int(BenchInstructions.size.height))")),
            ("instructions_frames", .int(BenchInstructions.frames)),
            ("instructions_source", count.map { .string($0.source.rawValue) } ?? .null),
            ("damage_only_instructions_per_frame", count.map { .int(Int($0.perFrame.rounded())) } ?? .null),
            ("callgrind_ir_with_frames", totals.map { .int(Int($0.withFrames)) } ?? .null),
            ("callgrind_ir_without_frames", totals.map { .int(Int($0.withoutFrames)) } ?? .null),
            ("instructions_unavailable", unavailable.map(JSONValue.string) ?? .null),
            ("perf_counter_error", perfFailure.map(JSONValue.string) ?? .null),
        ]
    }

    var text: String {
        let size = "\(Int(BenchInstructions.size.width))x\(Int(BenchInstructions.size.height))"
        guard let count else {
            return "instructions per damage-only frame at \(size): not counted: \(unavailable ?? "unknown")"
        }
        var line = "instructions per damage-only frame at \(size) (mean of \(count.frames), \(count.source.rawValue)): \(Int(count.perFrame.rounded()))"
        if let totals = count.callgrindTotals {
            line += " (Ir \(totals.withFrames) with the frames, \(totals.withoutFrames) without)"
        }
        if let perfFailure { line += "\n  not perf: \(perfFailure)" }
        return line
    }
}

private func openInstructionCounter() -> Result<InstructionCounter, InstructionCounterError> {
    do {
        return .success(try InstructionCounter.open())
    } catch {
        return .failure(error)
    }
}

/// `--instructions`: picks the source (`BenchInstructions.select`) and counts with it.
func countInstructions(_ request: BenchInstructions.Request) -> InstructionOutcome {
    let selection = BenchInstructions.select(
        request,
        openCounter: openInstructionCounter,
        findValgrind: { PathLookup.executable(named: "valgrind", searchPath: ProcessEnvironment.value("PATH") ?? ActionRunner.searchPath) })
    do {
        switch selection {
        case .perf(let counter):
            return InstructionOutcome(count: try BenchInstructions.countWithPerf(counter))
        case .callgrind(let valgrind, let perfFailure):
            let count = try BenchInstructions.countWithCallgrind(
                valgrind: valgrind, gridlock: (try? ProcessImage.executablePath()) ?? "/proc/self/exe",
                directory: "/tmp/gridlock-bench-callgrind-\(ProcessIdentity.processID)")
            return InstructionOutcome(count: count, perfFailure: perfFailure)
        case .unavailable(let reason, let perfFailure):
            return InstructionOutcome(
                unavailable: reason, perfFailure: perfFailure,
                failure: request == .auto ? nil : "--instructions \(request.rawValue): \(reason)")
        }
    } catch {
        let perfFailure: String?
        if case .callgrind(_, let failure) = selection { perfFailure = failure } else { perfFailure = nil }
        return InstructionOutcome(unavailable: "\(error)", perfFailure: perfFailure, failure: "counting instructions: \(error)")
    }
}

/// Medians over the runs of `measureDaemon`.
struct DaemonFigures {
    var startMilliseconds: Double
    /// wait4's maximum resident set size of the start-up runs.
    var peakKiB: Int
    /// Resident at the first frame, as the daemon read /proc/self/status.
    var anonymousKiB: Int
    var fileKiB: Int
    var sharedKiB: Int
    /// From the first frame to the end of the drag, paced as a panel sends it.
    var strokeCPUMilliseconds: Double
    /// The same with each input frame written as soon as the previous one was read.
    var strokeBackToBackCPUMilliseconds: Double
    var strokeFrames: Int
    var peer: PeerFigures?
    /// gridlock-panel's CPU for the same stroke, paced, beside gridlockd as the verifier alone.
    var face: FaceFigures
}

/// The panel's face apart (`gridlock-panel --bench-stroke`), or why it was not measured.
enum FaceFigures {
    case measured(strokeCPUMilliseconds: Double, strokeFrames: Int)
    case unmeasured(String)
}

struct PeerFigures {
    var peakKiB: Int
    var loopCPUMilliseconds: Double
}

/// Spawns gridlockd --bench-startup and --bench-stroke (and `peer`, if given) `runs`
/// times each, interleaved, with a headless config, and reads what they print.
func measureDaemon(runs: Int, size: Size, peer: String?, strokeInterval: Duration) throws -> DaemonFigures {
    let directory = "/tmp/gridlock-bench-\(ProcessIdentity.processID)"
    try Directory.create(directory)
    defer { Directory.removeTree(directory) }

    try writeDaemonConfigs(into: directory, size: size)
    let feed = BenchStrokeFeed(events: BenchRecording.drag(size: size).events)

    // wait4 reports no less than this for any child (see the caller).
    let floor = ProcessStatus.peakResidentKiB() ?? 0
    let daemon = daemonExecutable()
    var start: [Double] = [], peak: [Int] = [], anonymous: [Int] = [], file: [Int] = [], shared: [Int] = []
    var strokeCPU: [Double] = [], strokeBackToBackCPU: [Double] = [], strokeFrames: [Int] = []
    var peerPeak: [Int] = [], peerCPU: [Double] = []
    var faceCPU: [Double] = [], faceFrames: [Int] = []
    let face = try FaceStrokeRig.start(in: directory, size: size)
    defer { if case .ready(let rig) = face { rig.stop() } }
    for _ in 0..<runs {
        let began = Stopwatch().started
        let startup = try runMeasured([daemon, "--config", "\(directory)/daemon.conf", "--bench-startup"])
        guard let firstFrame = startup.fields["first-frame-monotonic-ns"], let anon = startup.fields["rss-anon-kib"],
              let mapped = startup.fields["rss-file-kib"], let shmem = startup.fields["rss-shmem-kib"] else {
            throw CommandError("\(daemon) --bench-startup printed no first frame and memory")
        }
        start.append(Double(Int64(firstFrame) - began.nanoseconds) / 1e6)
        peak.append(startup.usage.maximumResidentKiB)
        anonymous.append(anon)
        file.append(mapped)
        shared.append(shmem)

        if let peer {
            let run = try runMeasured([peer, String(Int(size.width)), String(Int(size.height)), "damage"])
            guard let cpu = jsonNumber(run.text, "total_cpu_ms") else {
                throw CommandError("\(peer) printed no \"total_cpu_ms\"")
            }
            peerPeak.append(run.usage.maximumResidentKiB)
            peerCPU.append(cpu)
        }

        let stroke = try runStroke([daemon, "--config", "\(directory)/daemon.conf", "--bench-stroke"], feed: feed, interval: strokeInterval)
        strokeCPU.append(stroke.cpuMilliseconds)
        strokeFrames.append(stroke.frames)
        let backToBack = strokeInterval == .zero
            ? stroke : try runStroke([daemon, "--config", "\(directory)/daemon.conf", "--bench-stroke"], feed: feed, interval: .zero)
        strokeBackToBackCPU.append(backToBack.cpuMilliseconds)

        if case .ready(let rig) = face {
            let stroke = try runStroke(rig.faceArguments, feed: feed, interval: strokeInterval)
            faceCPU.append(stroke.cpuMilliseconds)
            faceFrames.append(stroke.frames)
        }
    }
    if (peak + peerPeak).contains(where: { $0 <= floor }) {
        Journal.log(.warning, "a peak RSS figure is at or below this process's own peak (\(floor) KiB), which wait4 counts for a spawned child: it only says \"at most that\"")
    }
    return DaemonFigures(
        startMilliseconds: median(start), peakKiB: median(peak), anonymousKiB: median(anonymous), fileKiB: median(file),
        sharedKiB: median(shared), strokeCPUMilliseconds: median(strokeCPU),
        strokeBackToBackCPUMilliseconds: median(strokeBackToBackCPU), strokeFrames: median(strokeFrames),
        peer: peer == nil ? nil : PeerFigures(peakKiB: median(peerPeak), loopCPUMilliseconds: median(peerCPU)),
        face: {
            switch face {
            case .ready: .measured(strokeCPUMilliseconds: median(faceCPU), strokeFrames: median(faceFrames))
            case .unavailable(let why): .unmeasured(why)
            }
        }())
}

/// gridlockd as the verifier alone in the bench's folder, for `gridlock-panel
/// --bench-stroke` to send its stroke to: the face's CPU per stroke, measured as the single
/// process's is (the same drag, paced alike, no display). Root only: a face believes only a
/// gridlockd that runs as root.
struct FaceStrokeRig {
    enum Start {
        case ready(FaceStrokeRig)
        case unavailable(String)
    }

    let verifier: SpawnedProcess
    let faceArguments: [String]

    static func start(in directory: String, size: Size) throws -> Start {
        guard ProcessIdentity.effectiveUser == 0 else {
            return .unavailable("not root: gridlock-panel believes only a gridlockd running as root")
        }
        let panel = siblingExecutable("gridlock-panel")
        guard PathLookup.exists(panel) else { return .unavailable("no \(panel)") }
        let verifierCandidates = [siblingExecutable("gridlockd"), siblingExecutable("../sbin/gridlockd")]
        guard let gridlockd = verifierCandidates.first(where: PathLookup.exists) else {
            return .unavailable("no gridlockd beside it (\(verifierCandidates.joined(separator: ", ")))")
        }
        let socket = "\(directory)/run/session.sock"
        let verifierConfig = """
            [display]
            backend=none
            [touch]
            backend=none
            [lockout]
            schedule=none
            state-file=\(directory)/verifier-attempts
            [session]
            socket=\(socket)
            allow-users=0
            """
        try AtomicFile.write(Array(verifierConfig.utf8), to: "\(directory)/verifier.conf", mode: 0o600)
        let faceConfig = benchPanelSections(directory: directory, size: size) + """
            [session]
            socket=\(socket)
            """
        try AtomicFile.write(Array(faceConfig.utf8), to: "\(directory)/face.conf", mode: 0o644)
        let verifier = try SpawnedProcess.spawn(
            argv: [gridlockd, "--config", "\(directory)/verifier.conf"], environment: ActionRunner.environment(patternName: "bench"))
        // The face waits for gridlockd's socket and answer itself before it reads the stroke.
        return .ready(FaceStrokeRig(
            verifier: verifier, faceArguments: [panel, "--config", "\(directory)/face.conf", "--bench-stroke"]))
    }

    func stop() {
        try? verifier.signalGroup(.terminate)
        _ = try? verifier.waitForExit()
    }
}

/// One `--bench-stroke` run of `argv` (gridlockd, or gridlockd under another program such
/// as valgrind), fed the drag through its standard input.
func runStroke(
    _ argv: [String], feed: BenchStrokeFeed, interval: Duration = .nanoseconds(BenchRecording.moveInterval)
) throws -> (cpuMilliseconds: Double, frames: Int, text: String) {
    let pipe = try FileDescriptor.pipe()
    let process: SpawnedProcess
    do {
        defer { pipe.read.close() }
        process = try SpawnedProcess.spawn(argv: argv, environment: ActionRunner.environment(patternName: "bench"), input: pipe.read)
    } catch {
        pipe.write.close()
        throw error
    }
    // A daemon that failed closes the pipe: its exit status, below, says why, not SIGPIPE.
    Signal.pipe.ignore()
    var feedFailure: SystemCallError?
    do {
        try feed.write(into: pipe.write, interval: interval)
    } catch {
        feedFailure = error
    }
    pipe.write.close()
    let stroke = try finish(process, argv)
    if let feedFailure { throw feedFailure }
    guard let cpu = stroke.fields["stroke-cpu-ns"], let frames = stroke.fields["stroke-frames"] else {
        throw CommandError("\(argv.joined(separator: " ")) printed no stroke figures\n\(stroke.text)")
    }
    return (Double(cpu) / 1e6, frames, stroke.text)
}

/// The config of both runs, daemon.conf: a headless daemon of `size`, whose touch device
/// the recording idle.evemu describes; a stroke's events come through the pipe.
func writeDaemonConfigs(into directory: String, size: Size) throws {
    try AtomicFile.write(Array(try BenchRecording.idle().evemuText().utf8), to: "\(directory)/idle.evemu", mode: 0o644)
    let config = benchPanelSections(directory: directory, size: size) + """
        [lockout]
        state-file=\(directory)/attempts
        """
    try AtomicFile.write(Array(config.utf8), to: "\(directory)/daemon.conf", mode: 0o644)
}

/// The panel of both benchmark programs (gridlockd's and the face's): a headless display of
/// `size` (the png backend, whose frames the benchmark roles drop) and the touchscreen
/// idle.evemu describes, whose events come through the pipe.
func benchPanelSections(directory: String, size: Size) -> String {
    """
    [display]
    backend=png
    output-dir=\(directory)/frames
    size=\(Int(size.width))x\(Int(size.height))
    [touch]
    backend=replay
    device=\(directory)/idle.evemu

    """
}

/// One program run to its end, with wait4's figures and its `name value` lines.
private func runMeasured(_ argv: [String]) throws -> (usage: SpawnedProcess.ResourceUsage, text: String, fields: [String: Int]) {
    try finish(try SpawnedProcess.spawn(argv: argv, environment: ActionRunner.environment(patternName: "bench")), argv)
}

/// Waits for `process` to end and reads its `name value` lines; anything but exit 0 is an error.
private func finish(_ process: SpawnedProcess, _ argv: [String]) throws -> (usage: SpawnedProcess.ResourceUsage, text: String, fields: [String: Int]) {
    let (status, usage, output) = try process.waitForExit()
    let text = String(decoding: output, as: UTF8.self)
    guard status == .exited(0) else {
        throw CommandError("\(argv.joined(separator: " ")) failed: \(status)\n\(text)")
    }
    var fields: [String: Int] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: " ")
        if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
    }
    return (usage, text, fields)
}

/// The number after `"key":` in a flat JSON line.
private func jsonNumber(_ text: String, _ key: String) -> Double? {
    let prefix = "\"\(key)\":"
    for member in text.split(whereSeparator: { $0 == "," || $0 == "{" || $0 == "}" || $0 == "\n" }) {
        let trimmed = member.drop(while: { $0 == " " })
        if trimmed.hasPrefix(prefix) { return Double(trimmed.dropFirst(prefix.count).filter { $0 != " " }) }
    }
    return nil
}

private func median<T: Comparable>(_ values: [T]) -> T {
    values.sorted()[values.count / 2]
}

/// The gridlockd-single to start: beside this program, or in libexec/gridlock of an installed system.
private func daemonExecutable() -> String {
    let candidates = SingleProcessPath.candidates(besides: (try? ProcessImage.executablePath()) ?? "gridlock")
    return candidates.first(where: PathLookup.exists) ?? candidates[0]
}

/// A program installed beside this one (gridlockd next to gridlock).
func siblingExecutable(_ name: String) -> String {
    guard let path = try? ProcessImage.executablePath() else { return name }
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return "\(folder)/\(name)"
}
