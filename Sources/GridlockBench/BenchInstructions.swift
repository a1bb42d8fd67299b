import GridlockCore
import GridlockDaemon
import GridlockRendering
import LinuxSys

/// `gridlock bench --instructions`: the instructions one damage-only frame at 1920x1080 costs,
/// a figure that does not depend on the CPU's speed or the machine's load, so that builds for
/// different CPUs (amd64, arm64) can be compared by it.
public enum BenchInstructions {
    /// Where a count comes from.
    public enum Source: String, Sendable, Equatable {
        /// The CPU's own counter (perf_event_open), around exactly the damage-only frames,
        /// in this process.
        case perf
        /// valgrind's callgrind on two runs of `gridlock bench --damage-frames`.
        case callgrind
    }

    /// What `--instructions` asks for: a source, or the first that works.
    public enum Request: String, Sendable, Equatable, CaseIterable {
        case auto, perf, callgrind
    }

    /// The source a request gets on this machine.
    public enum Selection<Counter> {
        case perf(Counter)
        /// `perfFailure`: why the hardware counter was not used, when it was tried.
        case callgrind(valgrind: String, perfFailure: String?)
        case unavailable(reason: String, perfFailure: String?)
    }

    /// The frames counted: the benchmark scene's 240 damage-only frames at 1920x1080.
    public static let frames = BenchScene.moves
    public static let size = BenchScene.sizes[2]

    /// The first of perf and callgrind that `request` allows and this machine has. The counter
    /// is only opened, and valgrind only looked for, when the request can use them.
    public static func select<Counter, OpenError: Error>(
        _ request: Request, openCounter: () -> Result<Counter, OpenError>, findValgrind: () -> String?
    ) -> Selection<Counter> {
        var perfFailure: String?
        if request != .callgrind {
            switch openCounter() {
            case .success(let counter):
                return .perf(counter)
            case .failure(let error):
                perfFailure = "\(error)"
                if request == .perf { return .unavailable(reason: "\(error)", perfFailure: perfFailure) }
            }
        }
        if let valgrind = findValgrind() { return .callgrind(valgrind: valgrind, perfFailure: perfFailure) }
        let noValgrind = "valgrind is not on PATH (Debian: apt install valgrind)"
        guard let perfFailure else { return .unavailable(reason: noValgrind, perfFailure: nil) }
        return .unavailable(reason: "no instruction counter: \(perfFailure); and \(noValgrind)", perfFailure: perfFailure)
    }

    /// A count of the damage-only frames.
    public struct Count: Sendable, Equatable {
        public var source: Source
        public var frames: Int
        /// Instructions per frame (a mean over `frames`).
        public var perFrame: Double
        /// callgrind's Ir of the whole run with the frames and of the one without.
        public var callgrindTotals: (withFrames: UInt64, withoutFrames: UInt64)?

        public init(source: Source, frames: Int, perFrame: Double, callgrindTotals: (withFrames: UInt64, withoutFrames: UInt64)? = nil) {
            self.source = source
            self.frames = frames
            self.perFrame = perFrame
            self.callgrindTotals = callgrindTotals
        }

        public static func == (a: Count, b: Count) -> Bool {
            a.source == b.source && a.frames == b.frames && a.perFrame == b.perFrame
                && a.callgrindTotals?.withFrames == b.callgrindTotals?.withFrames
                && a.callgrindTotals?.withoutFrames == b.callgrindTotals?.withoutFrames
        }
    }

    /// The frames drawn once in this process with `counter` running around them and nothing
    /// else: `Damage.between` and the drawing of each frame, the loop between them, and the
    /// few instructions between the counter's enabling and disabling ioctls and the loop;
    /// user space of this thread only (not the kernel's, not other threads').
    public static func countWithPerf(_ counter: InstructionCounter) throws(BenchInstructionError) -> Count {
        var failure: InstructionCounterError?
        do {
            _ = try BenchRunner.drawDamageFrames(size: size, count: frames) { drawFrames in
                failure = counting(counter, drawFrames)
            }
        } catch {
            throw .render(error)
        }
        if let failure { throw .counter(failure) }
        let reading: InstructionCounter.Reading
        do {
            reading = try counter.read()
        } catch {
            throw .counter(error)
        }
        guard reading.isComplete, reading.count > 0 else { throw .multiplexed(reading) }
        return Count(source: .perf, frames: frames, perFrame: Double(reading.count) / Double(frames))
    }

    private static func counting(_ counter: InstructionCounter, _ body: () -> Void) -> InstructionCounterError? {
        do {
            try counter.start()
            body()
            try counter.stop()
            return nil
        } catch {
            return error
        }
    }

    /// Runs `valgrind --tool=callgrind` on `gridlock bench --damage-frames 240` and `0` (the
    /// same program, `gridlock`), in `directory` (made and removed here): what the 240 frames
    /// cost is the difference of the two totals, as both do the same start-up and warm-up.
    /// `LD_BIND_NOW=1`, so that no lazy symbol binding lands among the frames.
    public static func countWithCallgrind(valgrind: String, gridlock: String, directory: String) throws(BenchInstructionError) -> Count {
        do {
            try Directory.create(directory, mode: 0o700)
        } catch {
            throw .scratch(directory: directory, error)
        }
        defer { Directory.removeTree(directory) }
        let withFrames = try callgrindTotal(valgrind: valgrind, gridlock: gridlock, frames: frames, directory: directory)
        let withoutFrames = try callgrindTotal(valgrind: valgrind, gridlock: gridlock, frames: 0, directory: directory)
        guard withFrames > withoutFrames else {
            throw .framesCostNothing(withFrames: withFrames, withoutFrames: withoutFrames)
        }
        return Count(
            source: .callgrind, frames: frames, perFrame: Double(withFrames - withoutFrames) / Double(frames),
            callgrindTotals: (withFrames, withoutFrames))
    }

    private static func callgrindTotal(valgrind: String, gridlock: String, frames: Int, directory: String) throws(BenchInstructionError) -> UInt64 {
        let output = "\(directory)/callgrind.out.\(frames)"
        let argv = [valgrind, "--tool=callgrind", "--callgrind-out-file=\(output)", gridlock, "bench", "--damage-frames", String(frames)]
        let command = argv.joined(separator: " ")
        let result: (status: ExitStatus, usage: SpawnedProcess.ResourceUsage, output: [UInt8])
        do {
            let process = try SpawnedProcess.spawn(argv: argv, environment: ["PATH=\(ActionRunner.searchPath)", "LD_BIND_NOW=1"])
            result = try process.waitForExit()
        } catch {
            throw .spawn(command: command, error)
        }
        guard result.status == .exited(0) else {
            throw .valgrindFailed(command: command, status: result.status, output: String(decoding: result.output, as: UTF8.self))
        }
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.contents(of: output)
        } catch {
            throw .callgrindOutput(path: output, error)
        }
        do {
            return try CallgrindOutput.instructions(in: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .callgrindFormat(path: output, error)
        }
    }
}

/// What went wrong counting instructions, with the command, path or errno involved.
public enum BenchInstructionError: Error, CustomStringConvertible {
    case counter(InstructionCounterError)
    /// The kernel shared the counter with others and it ran for less than it was enabled.
    case multiplexed(InstructionCounter.Reading)
    case render(RenderError)
    case scratch(directory: String, SystemCallError)
    case spawn(command: String, SystemCallError)
    case valgrindFailed(command: String, status: ExitStatus, output: String)
    case callgrindOutput(path: String, SystemCallError)
    case callgrindFormat(path: String, CallgrindOutputError)
    case framesCostNothing(withFrames: UInt64, withoutFrames: UInt64)

    public var description: String {
        switch self {
        case .counter(let error):
            "\(error)"
        case .multiplexed(let reading):
            "the instruction counter ran \(reading.runningNanoseconds) of the \(reading.enabledNanoseconds) ns it was enabled "
                + "(\(reading.count) instructions): the kernel shared it with other counters, so the count is incomplete"
        case .render(let error):
            "drawing the frames: \(error)"
        case .scratch(let directory, let error):
            "making the folder for callgrind's output \(directory): \(error)"
        case .spawn(let command, let error):
            "\(command): \(error)"
        case .valgrindFailed(let command, let status, let output):
            "\(command) \(status)\n\(output.split(separator: "\n").suffix(20).joined(separator: "\n"))"
        case .callgrindOutput(let path, let error):
            "callgrind's output \(path): \(error)"
        case .callgrindFormat(let path, let error):
            "callgrind's output \(path): \(error)"
        case .framesCostNothing(let withFrames, let withoutFrames):
            "callgrind counted \(withFrames) instructions with the frames and \(withoutFrames) without: the frames cost nothing?"
        }
    }
}

/// The total instruction count (`Ir`) of a callgrind output file (valgrind's "callgrind
/// format": a header whose `events:` line names the columns, and a `totals:` line at the end,
/// `summary:` in the header for older writers, with one number per event).
public enum CallgrindOutput {
    public static func instructions(in text: String) throws(CallgrindOutputError) -> UInt64 {
        var events: [Substring]?
        var totals: Substring?
        var summary: Substring?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("events:") {
                events = line.dropFirst("events:".count).split(separator: " ")
            } else if line.hasPrefix("totals:") {
                totals = line.dropFirst("totals:".count)
            } else if line.hasPrefix("summary:") {
                summary = line.dropFirst("summary:".count)
            }
        }
        guard let events else { throw .noEventsLine }
        guard let column = events.firstIndex(of: "Ir") else { throw .noInstructionEvent(events: events.map(String.init)) }
        guard let line = totals ?? summary else { throw .noTotalsLine }
        let numbers = line.split(separator: " ")
        guard column < numbers.count, let count = UInt64(numbers[column]) else {
            throw .unreadableTotals(line: (totals != nil ? "totals:" : "summary:") + line)
        }
        return count
    }
}

public enum CallgrindOutputError: Error, Equatable, Sendable, CustomStringConvertible {
    case noEventsLine
    case noInstructionEvent(events: [String])
    case noTotalsLine
    case unreadableTotals(line: String)

    public var description: String {
        switch self {
        case .noEventsLine: "no \"events:\" line (not a callgrind output file?)"
        case .noInstructionEvent(let events): "its events (\(events.joined(separator: " "))) have no Ir"
        case .noTotalsLine: "no \"totals:\" or \"summary:\" line (did callgrind finish?)"
        case .unreadableTotals(let line): "no Ir count in \"\(line)\""
        }
    }
}
