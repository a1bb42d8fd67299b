import GridlockArguments
import GridlockCore
import GridlockDaemon
import LinuxSys

let patternsCommand = Command(
    name: "patterns",
    summary: "list the enrolled patterns: schedule, uses left, last opened, duress (never a hash)",
    usage: """
        Usage: gridlock patterns [--config FILE] [--json]

        One line per [pattern NAME] of the configuration: whether it is a duress pattern,
        when it may open (valid=, valid-from=, valid-until=, or any time), how many of its
        uses= are left, and when it last opened, from the [lockout] state-file (readable by
        root only; without it those columns say unknown). Never prints a hash or a pattern.
        With --json, one JSON object per pattern.
        """
) { arguments in
    let configPath = try arguments.option("--config") ?? ConfigVerdict.defaultPath
    let json = arguments.flag("--json")
    try arguments.finish()
    let config = try ConfigVerdict.loadSkippingFileSafety(path: configPath).config
    // What gridlockd would find at its start, witness and all.
    let path = config.lockout.stateFile
    let restored = StateFile.inspect(path, schedule: config.lockout.schedule, patterns: config.patterns)
    var saved: SavedState? = restored.saved
    if let damage = restored.damage {
        printError("\(path) \(damage); uses and last use unknown" + (restored.accessDenied ? " (run as root)" : ""))
        saved = nil
    }
    var rows: [[String]] = [["NAME", "DURESS", "USES LEFT", "LAST OPENED", "WHEN"]]
    for pattern in config.patterns {
        let used = saved.flatMap { $0.uses(of: pattern.name, hash: pattern.hash) }
        let left: String
        switch (pattern.limits.uses, used) {
        case (nil, _): left = "unlimited"
        case (let uses?, let used?): left = "\(max(0, uses - used)) of \(uses)"
        case (let uses?, nil): left = "unknown of \(uses)"
        }
        let last = saved?.lastAccepted(of: pattern.name, hash: pattern.hash)
        let lastText = saved == nil ? "unknown" : last.map(lastOpenedText) ?? "never"
        let when = pattern.limits.schedule.description
        if json {
            printEscaped(JSONValue.object([
                ("name", .string(pattern.name)), ("duress", .bool(pattern.duress)),
                ("uses", pattern.limits.uses.map { .int($0) } ?? .null), ("used", used.map { .int($0) } ?? .null),
                ("last-opened", last.map { .string(lastOpenedText($0)) } ?? .null),
                ("schedule", .string(when)),
            ]))
        } else {
            rows.append([pattern.name, pattern.duress ? "yes" : "no", left, lastText, when])
        }
    }
    if !json {
        if config.patterns.isEmpty { printEscaped("no [pattern] is enrolled (gridlock enroll)") }
        else { printTable(rows) }
    }
    return 0
}

private func printTable(_ rows: [[String]]) {
    let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
    for row in rows {
        printEscaped(row.enumerated().map { index, cell in
            index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
        }.joined(separator: "  "))
    }
}

/// A last use in local time; one the zone cannot convert (a clock that was far out when it
/// was recorded) as its seconds since 1970, the way date(1) takes them (`@SECONDS`).
private func lastOpenedText(_ epochSeconds: Int64) -> String {
    SystemWallClock.local(epochSeconds: epochSeconds)?.description ?? "@\(epochSeconds)"
}
