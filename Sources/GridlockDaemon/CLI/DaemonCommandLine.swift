import GridlockArguments
import GridlockConfiguration
import LinuxSys

/// What gridlockd and gridlockd-single read from their command line and the verdict they
/// start on: one reading for both, so that gridlockd can run gridlockd-single in its place
/// with the very options it was given.
public enum DaemonCommandLine {
    /// The options and signals, after each program's own lines of `--help`.
    public static let options = """
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

    /// What the command line asks for: a run, or an exit status (help printed, or a usage
    /// error logged: 64).
    public enum Request {
        case run(configPath: String, role: Daemon.Role)
        case exit(Int32)
    }

    public static func read(_ words: [String], command: String, usage: String) -> Request {
        var arguments = Arguments(words, command: command)
        if arguments.flag("--help") || arguments.flag("-h") {
            print(usage)
            return .exit(0)
        }
        do {
            let configPath = try arguments.option("--config") ?? ConfigVerdict.defaultPath
            let benchStroke = arguments.flag("--bench-stroke")
            let benchStartup = arguments.flag("--bench-startup")
            try arguments.finish()
            return .run(configPath: configPath, role: benchStroke ? .benchStroke : benchStartup ? .benchStartup : .lock)
        } catch {
            Journal.log(.error, error.description)
            return .exit(64)
        }
    }

    /// The configuration's verdict, or nil with every problem logged at FILE:LINE (exit 78).
    public static func verdict(_ configPath: String) -> LoadedConfig? {
        do {
            return try ConfigVerdict.load(path: configPath)
        } catch {
            for diagnostic in error.diagnostics { Journal.log(.error, diagnostic.description) }
            Journal.log(.error, "refusing to start: fix the configuration (gridlock check-config --config \(configPath))")
            return nil
        }
    }
}
