import GridlockConfiguration
import GridlockArguments
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

    Options:
      --config FILE      configuration file (default /etc/gridlock/gridlock.conf);
                         drop-ins are read from FILE.d/*.conf
      --bench-startup    render the first frame headless, print when it was ready and
                         the memory it took, and exit (used by `gridlock bench`)
      --bench-stroke     as --bench-startup, then read binary input events (struct
                         input_event, as a panel's device node gives them) from standard
                         input for the touch device the replay backend's recording
                         describes, until end of file, and print the CPU time and frames
                         they cost
      --help             show this help

    Signals: SIGTERM/SIGINT stop cleanly (the running action's and hooks' process groups,
    and what they left behind, get SIGTERM, then SIGKILL 2 s later; [on stop] runs for at
    most 5 s), SIGHUP reloads the configuration (a broken one is logged and ignored),
    SIGUSR1 logs how often the event loop woke up and why. Exit status 78 means the
    configuration is invalid, exactly when `gridlock check-config` says so.
    Under journald each entry carries a MESSAGE_ID and GRIDLOCK_* fields.
    """

func main() -> Int32 {
    // A look it draws is judged decoded.
    ConfigVerdict.judgeDrawnLooks(with: DecodingLookInspection())
    var arguments = Arguments(Array(CommandLine.arguments.dropFirst()), command: "gridlockd-single")
    if arguments.flag("--help") || arguments.flag("-h") {
        print(usage)
        return 0
    }
    let configPath: String
    let role: Daemon.Role
    do {
        configPath = try arguments.option("--config") ?? ConfigVerdict.defaultPath
        let benchStroke = arguments.flag("--bench-stroke")
        let benchStartup = arguments.flag("--bench-startup")
        role = benchStroke ? .benchStroke : benchStartup ? .benchStartup : .lock
        try arguments.finish()
    } catch {
        Journal.log(.error, error.description)
        return 64
    }
    let loaded: LoadedConfig
    do {
        loaded = try ConfigVerdict.load(path: configPath)
    } catch {
        for diagnostic in error.diagnostics { Journal.log(.error, diagnostic.description) }
        Journal.log(.error, "refusing to start: fix the configuration (gridlock check-config --config \(configPath))")
        return 78
    }
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
