import GridlockCore
import GridlockDaemon
import LinuxSys

let resetLockoutCommand = Command(
    name: "reset-lockout",
    summary: "clear the failure count and any lockout (root only)",
    usage: """
        Usage: gridlock reset-lockout [--config FILE] [--uses NAME[,NAME...]]

        Writes a clean failure count to the config's [lockout] state-file, logs who did it,
        and sends SIGHUP to a running gridlockd so a lockout in force ends at once.

        The uses of limited patterns (uses=) are kept as they are, also when they are
        unknown: after the state file was damaged, deleted or put back older, nobody knows
        how often such a pattern opened, and it stays shut.
          --uses NAME   also start the uses of pattern NAME afresh (all its uses= left),
                        for each name of a comma-separated list; each must be a [pattern]
                        of the configuration. Only for a pattern you know was not used
                        meanwhile, or may be used again.
        Must be run as root (the state file belongs to the service). The configuration
        must pass gridlock check-config, owners and modes included: the file written is the
        one it names. Exit status 78 when it does not. It holds the lock .gridlock.lock in
        the folder of FILE while it works, as gridlock enroll does: exit status 75 while an
        enroll holds it (try again when that is done).
        """
) { arguments in
    let configPath = try arguments.option("--config") ?? ConfigVerdict.defaultPath
    let usesNames = try arguments.option("--uses").map { list in
        list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    } ?? []
    try arguments.finish()
    guard ProcessIdentity.effectiveUser == 0 else {
        throw CommandError("must be run as root (try: sudo gridlock reset-lockout)")
    }
    // Not while an enroll or another reset changes this configuration.
    let lock = try ConfigLock.acquireUnlessReadOnly(configPath: configPath, command: "gridlock reset-lockout")
    defer { withExtendedLifetime(lock) {} }
    let config = try ConfigVerdict.load(path: configPath).config
    var afresh: [PatternEntry] = []
    for name in usesNames {
        guard let pattern = config.patterns.first(where: { $0.name == name }) else {
            throw UsageError(option: "--uses", value: name, expected: "the name of a [pattern] in \(configPath)", command: "gridlock reset-lockout")
        }
        if !afresh.contains(pattern) { afresh.append(pattern) }
    }
    let path = config.lockout.stateFile
    // A reset ends a lockout, it gives no visitor a new pass: uses (known or unknown) stay
    // unless named.
    let restored = try StateFile.resetLockout(
        at: path, schedule: config.lockout.schedule, patterns: config.patterns, startingUsesAfreshOf: afresh)

    let sudoUser = ProcessEnvironment.value("SUDO_USER")
    let who = "uid \(ProcessIdentity.realUser)" + (sudoUser.map { " (sudo by \($0))" } ?? "")
    let afreshNames = afresh.map(\.name).joined(separator: ", ")
    Journal.log(.notice, "gridlock reset-lockout: failure count in \(path) cleared by \(who)"
        + (afresh.isEmpty ? "" : "; uses of \(afreshNames) started afresh"))
    var notes: [String] = []
    if let damage = restored.damage { notes.append("the file \(damage)") }
    if !afresh.isEmpty { notes.append("the uses of \(afreshNames) start afresh") }
    let stillUnknown = restored.usesUnknown.filter { name in !afresh.contains { $0.name == name } }
    if !stillUnknown.isEmpty {
        notes.append("the uses of \(stillUnknown.joined(separator: ", ")) stay unknown and they stay shut (--uses NAME starts them afresh)")
    }
    let daemons = ProcessTable.processes(named: "gridlockd")
    for pid in daemons { Signal.hangUp.send(to: pid) }
    notes.append(daemons.isEmpty ? "no running gridlockd found" : "told gridlockd (pid \(daemons.map(String.init).joined(separator: ", "))) to reload")
    printEscaped("cleared \(path); " + notes.joined(separator: "; "))
    return 0
}
