import GridlockCore
import GridlockDaemon
import LinuxSys

let enrollCommand = Command(
    name: "enroll",
    summary: "set a pattern: draw it twice on the panel (or give it on stdin) and store its hash",
    usage: """
        Usage: gridlock enroll --name NAME [--exec ARGV] [--config FILE]
                               [--pattern-stdin] [--timeout SECONDS]
                               [--uses N] [--valid WINDOWS] [--valid-from WHEN] [--valid-until WHEN]

        On the panel: shows the set-a-gesture screen with the config's display and touch
        (draw a pattern, draw it again to confirm; a mismatch starts over, a too-short
        drawing is refused with the message). Stop gridlockd first: it holds the panel.
        With --pattern-stdin, reads the pattern (1-2-3-6-9) from standard input instead,
        for provisioning images with no panel.

        Then writes FILE.d/50-NAME.conf (for the default config
        /etc/gridlock/gridlock.conf.d/50-NAME.conf) atomically with mode 0600, holding only
        the argon2id hash (and exec= if given), checks the configuration still loads, and
        sends SIGHUP to a running gridlockd.

          --exec ARGV       the unlock action of this pattern (systemd-style quoting)
          --timeout S       give up on the panel after S seconds (1 to 3600, default 120)
          --uses N          the pattern opens N times in all, then no more (uses=)
          --valid WINDOWS   when it may open, in local time: 'Mon-Fri 07:00-09:30;Sat 08:00-12:00'
          --valid-from WHEN, --valid-until WHEN
                            its first and last day or moment: 2026-12-24 or 2026-12-24T18:00
        These are written as the keys of the same names and checked as the daemon checks them
        (docs/configuration.md); a pattern with a schedule opens only while the clock is
        synchronised, unless [security] trust-unsynchronised-clock=true.
        """
) { arguments in
    guard let name = try arguments.option("--name") else {
        throw UsageError("--name NAME is required", command: arguments.command)
    }
    let exec = try arguments.option("--exec") { text throws(ArgvError) in _ = try ArgvSplitter.split(text) }
    let configPath = try arguments.option("--config") ?? ConfigLoader.defaultPath
    let timeout = try arguments.integer("--timeout", in: 1...3600) ?? 120
    let fromStdin = arguments.flag("--pattern-stdin")
    var keys: [(String, String)] = []
    if let uses = try arguments.integer("--uses", in: 1...1_000_000) { keys.append(("uses", String(uses))) }
    for key in ["valid", "valid-from", "valid-until"] {
        let value = try arguments.option("--\(key)") { text throws(PatternKeyProblem) in try Enrollment.checkPatternKey(key, text) }
        if let value { keys.append((key, value)) }
    }
    try arguments.finish()
    try checkPatternName(name, command: arguments.command)
    let loaded = try ConfigLoader.load(path: configPath)
    let config = loaded.config

    let pattern: Pattern
    if fromStdin {
        guard let line = readLine(strippingNewline: true) else {
            throw CommandError("no pattern on standard input")
        }
        pattern = try Pattern(text: line, shape: config.grid.shape)
        guard pattern.count >= config.grid.minNodes else {
            throw CommandError(config.theme.text(for: .tooShort(minimum: config.grid.minNodes)) + " (min-nodes=\(config.grid.minNodes))")
        }
    } else {
        let hardware = config.display.backend == .drm || config.touch.backend == .evdev
        let running = ProcessTable.processes(named: "gridlockd")
        if hardware, !running.isEmpty {
            throw CommandError("gridlockd (pid \(running.map(String.init).joined(separator: ", "))) holds the panel; stop it first (systemctl stop gridlockd), enroll, then start it")
        }
        var options = Daemon.Options(configPath: configPath)
        options.mode = .enroll
        options.giveUpAfter = .seconds(timeout)
        let session = try Daemon(options: options, config: loaded.config)
        _ = session.run()
        guard let drawn = session.enrolledPattern else {
            throw CommandError("no pattern was enrolled")
        }
        pattern = drawn
    }

    let hasher = try PatternHasher()
    let cost = config.argon2Cost
    let hash = try hasher.hash(message: pattern.hashMessage(shape: config.grid.shape), cost: cost)
    let path = try Enrollment.store(name: name, hash: hash, exec: exec, grid: config.grid.shape, keys: keys, configPath: configPath)
    Journal.log(.notice, "gridlock enroll: pattern \(name) (\(pattern.count) nodes) stored in \(path) by uid \(ProcessIdentity.realUser)")
    let daemons = Enrollment.reloadRunningDaemons()
    printEscaped("enrolled pattern \(name) (\(pattern.count) nodes) in \(path)" + (daemons.isEmpty ? "" : "; gridlockd reloaded"))
    return 0
}
