import GridlockConfiguration
import GridlockDaemon
import GridlockDaemonPanel
import GridlockRendering
import LinuxSys

let usage = """
    Usage: gridlockd-single [--config FILE]

    gridlockd in a single process: the verifier that also shows the pattern grid on the
    display, reads the touch panel and plays the beeper, as root. gridlockd runs it in
    its own place (same process, same options) when the configuration gives it a display,
    a touchscreen or a beeper path of its own; as the verifier alone, with the panel's
    face apart (gridlock-panel), gridlockd links and opens none of them.
    """ + "\n\n" + DaemonCommandLine.options

func main() -> Int32 {
    // Run in gridlockd's place, it is gridlockd to ps, pgrep and `gridlock enroll`, which
    // reloads the running gridlockd by that name.
    try? ProcessImage.setCommandName("gridlockd")
    // A look it draws is judged decoded.
    ConfigVerdict.judgeDrawnLooks(with: DecodingLookInspection())
    let (configPath, role): (String, Daemon.Role)
    switch DaemonCommandLine.read(Array(CommandLine.arguments.dropFirst()), command: "gridlockd-single", usage: usage) {
    case .run(let path, let wanted): (configPath, role) = (path, wanted)
    case .exit(let status): return status
    }
    guard let loaded = DaemonCommandLine.verdict(configPath) else { return 78 }
    for warning in loaded.warnings { Journal.log(.warning, warning.description) }
    do {
        let daemon = try Daemon(options: Daemon.Options(configPath: configPath, role: role), config: loaded.config)
        daemon.observe = { if case .measured(let figures) = $0 { printBenchFigures(figures) } }
        return daemon.run()
    } catch {
        Journal.log(.error, error.description)
        return error.exitStatus
    }
}

/// What `gridlock bench` reads from `--bench-startup` and `--bench-stroke`, one figure a line.
func printBenchFigures(_ figures: Daemon.Measurement) {
    switch figures {
    case .firstFrame(let at, let memory):
        print("first-frame-monotonic-ns \(at.nanoseconds)")
        if let memory {
            print("peak-rss-kib \(memory.peakKiB)")
            print("rss-anon-kib \(memory.anonymousKiB)")
            print("rss-file-kib \(memory.fileKiB)")
            print("rss-shmem-kib \(memory.sharedKiB)")
        }
    case .stroke(let cpu, let frames):
        print("stroke-cpu-ns \(cpu.nanoseconds)")
        print("stroke-frames \(frames)")
    }
}

exitProcess(main())
