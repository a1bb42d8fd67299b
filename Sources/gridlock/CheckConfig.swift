import GridlockArguments
import GridlockDaemon
import LinuxSys

let checkConfigCommand = Command(
    name: "check-config",
    summary: "check a configuration and its drop-ins, as gridlockd would load them",
    usage: """
        Usage: gridlock check-config [--config FILE | FILE]

        Loads FILE (default /etc/gridlock/gridlock.conf) and FILE.d/*.conf and runs the
        very checks that decide whether gridlockd starts: every key and value (a pattern's
        hash as a whole argon2id string), the owners and modes of the files and folders
        read (the drop-in folder even while empty) and of the state directory and file,
        and every file and device the configuration names (font, images and their pixel
        budget, a replay recording, the state file, the output folder, the touch, display
        and beeper devices), opened without blocking. Prints every problem as FILE:LINE:
        message (FILE: message for a whole file). Run it as the user gridlockd runs as
        (root), so ownership is judged the same way. gridlockd, gridlock enroll, calibrate
        and reset-lockout refuse what this refuses; hash, render, replay, demo, devices and
        patterns, which only read a configuration, check all but the owners and modes.
        With a [session] section, an OK is followed by the session socket, its mode and
        the uids and group it lets in. A state file that is damaged, lost, put back older
        or not vouched for by its witness is a warning (gridlockd starts with it, locked
        out), and so are limited patterns whose uses are unknown.
        Exit status: 0 when gridlockd would start with it, 78 (EX_CONFIG) when it would not.
        """
) { arguments in
    let option = try arguments.option("--config")
    let positional = try arguments.positionals(count: 0...1, names: "FILE").first
    if option != nil, positional != nil {
        throw UsageError("give the file once, with --config or as an argument", command: arguments.command)
    }
    let path = option ?? positional ?? ConfigVerdict.defaultPath
    let (check, config) = ConfigVerdict.check(path: path)
    for diagnostic in check.diagnostics { printError(diagnostic.description) }
    for warning in check.warnings { printError("warning: \(warning)") }
    if check.isValid {
        printEscaped("\(check.files.joined(separator: ", ")): OK")
        if config.session.enabled {
            let session = config.session
            let users = (session.allowUsers.map(String.init) + session.allowedUsers.unknownNames.map { "\($0) (no such user)" })
                .joined(separator: ",")
            printEscaped("session socket \(session.socket) (mode \(String(session.socketMode, radix: 8))): uids \(users.isEmpty ? "none" : users), group \(session.allowGroup.map(String.init) ?? "none")")
        }
        // Not the config's fault, so no refusal: gridlockd starts with it, locked out.
        let state = config.lockout.stateFile
        let restored = StateFile.inspect(state, schedule: config.lockout.schedule, patterns: config.patterns)
        for note in restored.notes { printError("warning: \(note)") }
        if let damage = restored.damage, !restored.accessDenied {
            printError("warning: attempt state \(state) \(damage); gridlockd will start locked out as after repeated failures")
        }
        if !restored.usesUnknown.isEmpty {
            printError("warning: the uses of \(restored.usesUnknown.joined(separator: ", ")) are unknown: they stay shut until gridlock reset-lockout --uses NAME")
        }
        return 0
    }
    printError("\(check.diagnostics.count) problem(s) found")
    return 78
}
