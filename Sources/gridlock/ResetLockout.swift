import GridlockCore
import GridlockDaemon
import LinuxSys

let resetLockoutCommand = Command(
    name: "reset-lockout",
    summary: "clear the failure count and any lockout (root only)",
    usage: """
        Usage: gridlock reset-lockout [--config FILE]

        Writes a clean failure count to the config's [lockout] state-file, logs who did it,
        and sends SIGHUP to a running gridlockd so a lockout in force ends at once. The uses
        of limited patterns (uses=) are kept; only a damaged file, whose counts are unknown,
        starts them afresh.
        Must be run as root (the state file belongs to the service).
        """
) { arguments in
    let configPath = try arguments.option("--config") ?? ConfigLoader.defaultPath
    try arguments.finish()
    guard ProcessIdentity.effectiveUser == 0 else {
        throw CommandError("must be run as root (try: sudo gridlock reset-lockout)")
    }
    let config = try ConfigLoader.load(path: configPath).config
    let path = config.lockout.stateFile
    // Uses of limited patterns are kept: a reset ends a lockout, it gives no visitor a new pass.
    // Only a damaged file, whose counts are unknown, starts them afresh (said below).
    var cleared = SavedState.clean
    var usesNote = ""
    switch AttemptStore.load(from: path) {
    case .loaded(let saved):
        cleared.patterns = saved.patterns
    case .missing:
        break
    case .corrupt, .unreadable:
        usesNote = "; the file was damaged, so limited patterns (uses=) start counting afresh"
    }
    try AttemptStore.save(cleared, to: path)
    let sudoUser = ProcessEnvironment.value("SUDO_USER")
    let who = "uid \(ProcessIdentity.realUser)" + (sudoUser.map { " (sudo by \($0))" } ?? "")
    Journal.log(.notice, "gridlock reset-lockout: failure count in \(path) cleared by \(who)")
    let daemons = ProcessTable.processes(named: "gridlockd")
    for pid in daemons { Signal.hangUp.send(to: pid) }
    printEscaped("cleared \(path)" + usesNote + (daemons.isEmpty ? "; no running gridlockd found" : "; told gridlockd (pid \(daemons.map(String.init).joined(separator: ", "))) to reload"))
    return 0
}
