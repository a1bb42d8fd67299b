import GridlockArguments
import GridlockCore
import GridlockDaemon
import GridlockDaemonPanel
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
        With the panel's face apart ([display] backend=none, [touch] backend=none and
        [session] on, docs/deployment.md section 10), gridlockd keeps running: it lends
        the panel to gridlock-panel, which collects the two drawings and hands the pattern
        back through gridlockd; exit status 75 when no face holds the panel or it is busy.
        With --pattern-stdin, reads the pattern (1-2-3-6-9) from standard input instead,
        for provisioning images with no panel.

        Then writes FILE.d/50-NAME.conf (for the default config
        /etc/gridlock/gridlock.conf.d/50-NAME.conf) with mode 0600, holding only the argon2id
        hash (and the keys below, where given): first under a temporary name in that folder,
        where the whole configuration is judged with it as gridlockd would judge it and it
        must read back as exactly the pattern asked for; only then is it renamed into place,
        otherwise nothing is written. Then sends SIGHUP to a running gridlockd. An existing
        50-NAME.conf is replaced only when it holds nothing but [pattern NAME] (an earlier
        enrolment); one holding anything else is left as it is.

        From the verdict on the configuration to its end it holds the lock .gridlock.lock in
        the folder of FILE (/etc/gridlock/.gridlock.lock), as reset-lockout does: while
        another enroll or reset-lockout holds it, it stops at once, naming that one (exit
        status 75).

          --exec ARGV       the unlock action of this pattern (systemd-style quoting)
          --timeout S       give up on the panel after S seconds (1 to 3600, default 120)
          --uses N          the pattern opens N times in all, then no more (uses=)
          --valid WINDOWS   when it may open, in local time: 'Mon-Fri 07:00-09:30;Sat 08:00-12:00'
          --valid-from WHEN, --valid-until WHEN
                            its first and last day or moment: 2026-12-24 or 2026-12-24T18:00
        These are written as the keys of the same names and checked as the daemon checks them
        (docs/configuration.md); a pattern with a schedule opens only while the clock is
        synchronised, unless [security] trust-unsynchronised-clock=true. A value the config
        reader would read otherwise than given is refused: a line break or another control
        character, whitespace at either end (any Unicode space: U+00A0, U+2003, U+3000...),
        ';' after whitespace (a comment to the reader), or bytes that are not UTF-8.

        Exit status: 0 when stored, 64 for a bad option (naming it) or a --pattern-stdin line
        that is no pattern or missing, 75 when another enroll or reset-lockout is changing the
        configuration (try again when it is done), 78 when the configuration has errors or
        would have them with the new pattern, 1 for anything else (two drawings that differ, a
        name already taken, a 50-NAME.conf holding more than that pattern).
        """
) { arguments in
    guard let name = try arguments.option("--name") else {
        throw UsageError("--name NAME is required", command: arguments.command)
    }
    let exec = try arguments.patternValue("--exec", key: "exec")
    let configPath = try arguments.option("--config") ?? ConfigVerdict.defaultPath
    let timeout = try arguments.integer("--timeout", in: 1...3600) ?? 120
    let fromStdin = arguments.flag("--pattern-stdin")
    let keys = try arguments.patternLimits()
    try arguments.finish()
    try checkPatternName(name, command: arguments.command)
    // The verdict gridlockd starts with: a configuration it would refuse is said before
    // anyone draws, and the drop-in is judged by the same verdict before it is put in place.
    let loaded = try ConfigVerdict.load(path: configPath)
    let config = loaded.config
    // Held until the process ends: through the drawing to the drop-in in place, no other
    // enroll or reset-lockout changes this configuration (`store` reads it afresh under the
    // lock). Taken once the configuration passed: a refused one leaves no lock file behind.
    let lock = try ConfigLock.acquire(configPath: configPath, command: arguments.command)
    defer { withExtendedLifetime(lock) {} }

    let pattern: Pattern
    if fromStdin {
        guard let line = readLine(strippingNewline: true) else {
            throw UsageError("--pattern-stdin: no pattern on standard input", command: arguments.command)
        }
        pattern = try patternFromStandardInput(line, shape: config.grid.shape, command: arguments.command)
        guard pattern.count >= config.grid.minNodes else {
            throw CommandError(config.theme.text(for: .tooShort(minimum: config.grid.minNodes)) + " (min-nodes=\(config.grid.minNodes))")
        }
    } else if config.display.backend == .off, config.touch.backend == .off, config.session.enabled {
        // The panel's face runs apart: it draws, gridlockd lends it the panel.
        pattern = try FaceEnrolment.collect(socket: config.session.socket, shape: config.grid.shape, timeout: .seconds(timeout))
    } else {
        let hardware = config.display.backend == .drm || config.touch.backend == .evdev
        let running = ProcessTable.processes(named: "gridlockd")
        if hardware, !running.isEmpty {
            throw CommandError("gridlockd (pid \(running.map(String.init).joined(separator: ", "))) holds the panel; stop it first (systemctl stop gridlockd), enroll, then start it")
        }
        let options = Daemon.Options(configPath: configPath, role: .enroll(giveUpAfter: .seconds(timeout)))
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
