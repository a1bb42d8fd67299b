import GridlockArguments
import GridlockConfiguration
import GridlockCore
import GridlockDaemon
import LinuxSys

let resetLockoutCommand = Command(
    name: "reset-lockout",
    summary: "clear the failure count and any lockout (root only)",
    usage: """
        Usage: gridlock reset-lockout [--config FILE] [--uses NAME[,NAME...]]

        Clears the failure count in the config's [lockout] state-file and logs who did it.
        While gridlockd runs it alone writes that file (it holds state-file.lock): the reset
        is left for it as a request (state-file.reset) and announced with SIGHUP; gridlockd
        clears its running count, ends a lockout in force at once, writes the file and
        logs who asked. Exit status 75 when it has not done so within 5 s (the request
        stays for its next reload) or when another tool holds the file.

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
    let sudoUser = ProcessEnvironment.value("SUDO_USER")
    let who = "uid \(ProcessIdentity.realUser)" + (sudoUser.map { " (sudo by \($0))" } ?? "")
    let afreshNames = afresh.map(\.name).joined(separator: ", ")
    let stateLock: LockFile?
    do throws(StateInUse) {
        stateLock = try StateLock.acquire(for: path, by: "gridlock reset-lockout")
    } catch {
        // Only a daemon (gridlockd, or a replay of it) takes a request; another tool is waited for.
        guard let holder = error.holder, ["gridlockd", "gridlock replay"].contains(holder.purpose ?? "") else { throw error }
        // gridlockd (or a replay) keeps the file: it alone may write it, so it is asked to.
        return try handOver(path: path, to: holder, who: who, afresh: afresh)
    }
    defer { stateLock?.release() }
    // A reset ends a lockout, it gives no visitor a new pass: uses (known or unknown) stay
    // unless named.
    let restored = try StateFile.resetLockout(
        at: path, schedule: config.lockout.schedule, patterns: config.patterns, startingUsesAfreshOf: afresh)
    Journal.log(.notice, "gridlock reset-lockout: failure count in \(path) cleared by \(who)"
        + (afresh.isEmpty ? "" : "; uses of \(afreshNames) started afresh"))
    var notes: [String] = []
    if let damage = restored.damage { notes.append("the file \(damage)") }
    if !afresh.isEmpty { notes.append("the uses of \(afreshNames) start afresh") }
    let stillUnknown = restored.usesUnknown.filter { name in !afresh.contains { $0.name == name } }
    if !stillUnknown.isEmpty {
        notes.append("the uses of \(stillUnknown.joined(separator: ", ")) stay unknown and they stay shut (--uses NAME starts them afresh)")
    }
    notes.append("no gridlockd holds it")
    printEscaped("cleared \(path); " + notes.joined(separator: "; "))
    return 0
}

/// The reset as a request to the process holding the state file: left beside it, announced
/// with SIGHUP, and waited for (5 s). gridlockd writes the file and the journal line itself.
private func handOver(path: String, to holder: LockHolder, who: String, afresh: [PatternEntry]) throws -> Int32 {
    let request = ResetRequest(requester: who, pid: ProcessIdentity.processID, usesAfresh: afresh.map(\.name))
    do {
        try request.save(beside: path)
    } catch {
        throw CommandError("cannot leave the reset request for \(holder): \(error)")
    }
    Journal.log(.notice, "gridlock reset-lockout: asked \(holder), which holds \(path), to clear its failure count, by \(who)"
        + (afresh.isEmpty ? "" : "; uses of \(afresh.map(\.name).joined(separator: ", ")) afresh"))
    Signal.hangUp.send(to: holder.pid)
    guard try ResetRequest.waitUntilTaken(beside: path, within: .seconds(5)) else {
        printError("gridlock reset-lockout: \(holder) holds \(path) and has not taken the reset within 5 s; it stays in \(ResetRequest.path(beside: path)) for its next reload or start")
        return 75
    }
    printEscaped("\(holder) cleared \(path)" + (afresh.isEmpty ? "" : "; the uses of \(afresh.map(\.name).joined(separator: ", ")) start afresh") + "; its journal says so")
    return 0
}
