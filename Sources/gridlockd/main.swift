import GridlockConfiguration
import GridlockArguments
import GridlockDaemon
import LinuxSys

let usage = """
    Usage: gridlockd [--config FILE]

    The gridlock lock screen daemon: checks drawn patterns against the configured
    hashes, counts failures, locks out and runs the unlock action. Normally started by
    systemd (gridlockd.service).

    As the verifier alone ([display] and [touch] backend=none) it serves lock faces on
    its session socket (gridlock-panel on the panel, gridlock-lock in a Wayland session)
    and links no display, touch, font or image library. Given a display, a touchscreen
    or a beeper path of its own, or a --bench option, it runs gridlockd-single in its
    place (same process, same options), which also draws the grid and reads the touch
    panel, as root.

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
    var arguments = Arguments(Array(CommandLine.arguments.dropFirst()), command: "gridlockd")
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
    if role != .lock { return runSingleProcess(because: "a benchmark draws") }
    let loaded: LoadedConfig
    do {
        loaded = try ConfigVerdict.load(path: configPath)
    } catch {
        for diagnostic in error.diagnostics { Journal.log(.error, diagnostic.description) }
        Journal.log(.error, "refusing to start: fix the configuration (gridlock check-config --config \(configPath))")
        return 78
    }
    // Judged again there, with the look decoded: the verdict that decides is that one.
    if Daemon.needsItsOwnPanel(loaded.config, role: role) {
        return runSingleProcess(because: "the configuration gives it a display, a touchscreen or a beeper of its own")
    }
    for warning in loaded.warnings { Journal.log(.warning, warning.description) }
    do {
        let options = Daemon.Options(configPath: configPath, role: role)
        return try Daemon(options: options, config: loaded.config, parts: DaemonParts(verifierFor: loaded.config, options: options)).run()
    } catch {
        Journal.log(.error, error.description)
        return error.exitStatus
    }
}

/// gridlockd-single in this process's place, with the same options and name: beside this
/// program (a build folder), or in `libexec/gridlock` beside its `sbin` (an installed one).
/// Returns only when it cannot be run.
func runSingleProcess(because reason: String) -> Int32 {
    let own = (try? ProcessImage.executablePath()) ?? CommandLine.arguments[0]
    let folder = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let candidates = [folder + "/gridlockd-single", folder + "/../libexec/gridlock/gridlockd-single"]
    guard let single = candidates.first(where: PathLookup.exists) else {
        Journal.log(.critical, "\(reason), which takes gridlockd-single, and it is not installed (\(candidates.joined(separator: ", "))); nothing is checked: reinstall gridlock, or make gridlockd the verifier alone ([display] and [touch] backend=none)")
        return 69
    }
    Journal.log(.info, "\(reason): running \(single) in gridlockd's place")
    do {
        try ProcessImage.replace(with: single, arguments: CommandLine.arguments)
    } catch {
        Journal.log(.critical, "cannot run \(single): \(error); nothing is checked")
        return 69
    }
}

exitProcess(main())
