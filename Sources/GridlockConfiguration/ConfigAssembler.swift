import GridlockCore

/// Applies parsed files, in order, onto the defaults: later values win per section and key,
/// patterns accumulate. Every value is checked where it is written, even one a later file
/// overrides, so no file on disk holds a mistake that merely happens to be hidden today.
/// What each key accepts and where it goes is `ConfigSchema`'s; this only drives it.
package struct ConfigAssembler {
    private(set) var diagnostics: [ConfigDiagnostic] = []
    /// Worth saying, not worth refusing the configuration for.
    private(set) var warnings: [ConfigDiagnostic] = []
    private var draft = ConfigDraft()
    private let currentDirectory: String
    /// Where the value in effect for `section.key` was written, for checks that span keys.
    private var origins: [String: SourceLocation] = [:]
    package var keyLocations: [String: SourceLocation] { origins }
    private var patternOrigins: [String: SourceLocation] = [:]
    private var patternGridLines: [String: SourceLocation] = [:]
    /// `[on EVENT]` sections of each event, every file's keys applied in order.
    private var hooks: [HookEvent: (draft: HookDraft, header: SourceLocation, lines: [String: SourceLocation])] = [:]

    package init(currentDirectory: String) {
        self.currentDirectory = currentDirectory
    }

    package mutating func add(_ file: IniFile) {
        diagnostics += file.diagnostics
        /// First line of each key per section name in this file: a key twice in one file is ambiguous.
        var firstLines: [String: [String: Int]] = [:]
        for section in file.sections {
            if let name = Self.patternName(inHeader: section.name) {
                addPattern(name: name, section: section, file: file.path)
            } else if let event = Self.hookEvent(inHeader: section.name) {
                addHook(event, section: section, firstLines: &firstLines[section.name, default: [:]], file: file.path)
            } else {
                addSection(section, firstLines: &firstLines[section.name, default: [:]], file: file.path)
            }
        }
    }

    /// The checks that need the final values of several keys. A face's theme file
    /// (`servesFaces` false) has a `[session]` that says where to connect, not whom to let in.
    package mutating func finish(servesFaces: Bool = true) -> GridlockConfig {
        var config = draft.config
        config.grid.shape = (try? GridShape(rows: draft.rows, columns: draft.columns)) ?? .standard
        if config.grid.minNodes > config.grid.shape.nodeCount, let at = origins["grid.min-nodes"] {
            report(at, "[grid] min-nodes=\(config.grid.minNodes) is more than the \(config.grid.shape.nodeCount) nodes of a \(config.grid.shape) grid")
        }
        checkPatternGrids(config)
        config.hooks = finishedHooks()
        if config.display.backend == .png, config.display.outputDirectory == nil {
            report(origin("display.backend"), "[display] backend=png needs output-dir=DIR (where the frames go)")
        }
        if servesFaces { checkSessionFaces(config) }
        if config.touch.backend == .replay {
            switch config.touch.device {
            case .path: break
            case .auto:
                report(origins["touch.device"] ?? origin("touch.backend"), "[touch] backend=replay needs device=FILE.evemu (a recording), not auto")
            case .nameContaining:
                report(origin("touch.device"), "[touch] backend=replay needs device=FILE.evemu (a recording), not a name: match")
            }
        }
        return config
    }

    /// A lock with no display or no touch is opened only through the session socket: without
    /// `[session]` nothing could ever open it. A `[session]` that lets no one in is as useless.
    private mutating func checkSessionFaces(_ config: GridlockConfig) {
        let session = config.session
        if config.display.backend == .off, !session.enabled {
            report(origin("display.backend"), "[display] backend=none needs a [session] section: with no screen, only a lock face in the session can open")
        }
        if config.touch.backend == .off, !session.enabled {
            report(origin("touch.backend"), "[touch] backend=none needs a [session] section: with no touch, only a lock face in the session can open")
        }
        if session.enabled, session.allowUsers.isEmpty, session.allowedUsers.unknownNames.isEmpty, session.allowGroup == nil {
            report(origin("session"), "[session] needs allow-users= or allow-group=: it lets no one in otherwise")
        }
        for name in session.allowedUsers.unknownNames {
            warnings.append(ConfigDiagnostic(
                location: origin("session.allow-users"),
                message: "[session] allow-users: no user '\(name)' on this system: nobody is let in by that name until it exists and gridlockd is reloaded (a typo? gridlock-panel is made by the package, with systemd-sysusers)"))
        }
    }

    /// A hash is made over `ROWSxCOLUMNS:nodes`: on another grid it can never match, and
    /// every try would count as a failure.
    private mutating func checkPatternGrids(_ config: GridlockConfig) {
        let shape = config.grid.shape
        for pattern in config.patterns {
            guard let grid = pattern.grid else {
                warnings.append(ConfigDiagnostic(
                    location: pattern.source,
                    message: "[pattern \(pattern.name)] does not say which grid it was enrolled on; add grid=\(shape) if it was made for this \(shape) grid (gridlock hash and gridlock enroll write it)"))
                continue
            }
            guard grid != shape else { continue }
            report(
                patternGridLines[pattern.name] ?? pattern.source,
                "[pattern \(pattern.name)] was enrolled on a \(grid) grid but [grid] is \(shape): its hash can never match here; set [grid] rows=\(grid.rows) columns=\(grid.columns) or enroll it again")
        }
    }

    /// Only values read from a file can break a cross-key rule (the defaults agree), so the
    /// fallback is never expected; it keeps a broken assumption from crashing a reload.
    private func origin(_ key: String) -> SourceLocation {
        origins[key] ?? SourceLocation(file: "(built-in default \(key))", line: 0)
    }

    // MARK: - Keys of the plain sections

    private mutating func addSection(_ section: IniSection, firstLines: inout [String: Int], file: String) {
        guard let schema = ConfigSchema.section(named: section.name) else {
            report(file, section.line, "unknown section [\(section.name)]" + hint(section.name, ConfigSchema.sectionNames, "[", "]"))
            return
        }
        // The section's presence is what turns the socket on, even with every key at its default.
        if section.name == ConfigSchema.session.name {
            draft.config.session.enabled = true
            if origins["session"] == nil { origins["session"] = SourceLocation(file: file, line: section.line) }
        }
        for entry in section.entries {
            guard claimKey(entry, in: &firstLines, label: "[\(section.name)]", scope: "this file", file: file) else { continue }
            apply(entry, in: schema, file: file)
        }
    }

    private mutating func apply(_ entry: IniEntry, in section: ConfigSection<ConfigDraft>, file: String) {
        let label = "[\(section.name)]"
        guard let key = known(entry, in: section, label: label, file: file) else { return }
        let at = SourceLocation(file: file, line: entry.line)
        do throws(ValueProblem) {
            try key.store(&draft, entry.value, source(file))
            origins["\(section.name).\(key.name)"] = at
        } catch {
            report(at, "\(label) \(key.name): \(error.message)")
        }
    }

    // MARK: - [pattern NAME]

    /// The NAME of a `[pattern NAME]` header ("" when it has none), or nil for any other section.
    package static func patternName(inHeader header: String) -> String? {
        let words = header.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.first.map(String.init) == ConfigSchema.pattern.name else { return nil }
        return words.count > 1 ? String(words[1].drop(while: { $0 == " " || $0 == "\t" })) : ""
    }

    private mutating func addPattern(name: String, section: IniSection, file: String) {
        let header = SourceLocation(file: file, line: section.line)
        let label = "[pattern \(name)]"
        let nameIsUsable = claimPatternName(name, at: header)
        var pattern = PatternDraft()
        var lines: [String: Int] = [:]
        var valid = true
        for entry in section.entries {
            valid = readPatternKey(entry, into: &pattern, lines: &lines, label: label, file: file) && valid
        }
        valid = checkPatternAsAWhole(pattern, lines: lines, label: label, header: header) && valid
        guard nameIsUsable, valid, let hash = pattern.hash else { return }
        var entry = PatternEntry(
            name: name, hash: hash, exec: pattern.exec, duress: pattern.duress, duressExec: pattern.duressExec, source: header)
        entry.grid = pattern.grid
        entry.limits = PatternLimits(
            schedule: PatternSchedule(windows: pattern.windows ?? [], validFrom: pattern.validFrom, validUntil: pattern.validUntil),
            uses: pattern.uses)
        draft.config.patterns.append(entry)
        patternGridLines[name] = lines["grid"].map { SourceLocation(file: file, line: $0) }
    }

    /// Whether `name` is a valid name no other pattern has taken; if so, it is now taken.
    private mutating func claimPatternName(_ name: String, at header: SourceLocation) -> Bool {
        if name.isEmpty {
            report(header, "[pattern] needs a name: [pattern NAME]")
        } else if !ConfigValues.isPatternName(name) {
            report(header, "pattern name '\(name)' must be 1 to 64 characters of A-Z a-z 0-9 _ . -")
        } else if let first = patternOrigins[name] {
            report(header, "duplicate pattern name '\(name)' (first defined at \(first))")
        } else if patternOrigins.count >= GridlockConfig.maximumPatterns {
            report(header, "[pattern \(name)] is one more than the \(GridlockConfig.maximumPatterns) patterns a configuration may have (every attempt checks every hash); remove patterns no longer used")
        } else {
            patternOrigins[name] = header
            return true
        }
        return false
    }

    /// Stores one key of a pattern section; false after reporting why it could not.
    private mutating func readPatternKey(
        _ entry: IniEntry, into pattern: inout PatternDraft, lines: inout [String: Int], label: String, file: String
    ) -> Bool {
        guard claimKey(entry, in: &lines, label: label, scope: "this section", file: file),
            let key = known(entry, in: ConfigSchema.pattern, label: label, file: file)
        else { return false }
        do throws(ValueProblem) {
            try key.store(&pattern, entry.value, source(file))
            return true
        } catch {
            report(file, entry.line, "\(label) \(key.name): \(error.message)")
            return false
        }
    }

    /// `lines` holds every key written, refused values included: a refused hash is reported as
    /// such, not again as a missing one.
    private mutating func checkPatternAsAWhole(
        _ pattern: PatternDraft, lines: [String: Int], label: String, header: SourceLocation
    ) -> Bool {
        var valid = true
        if lines["hash"] == nil {
            report(header, "\(label) has no hash= (every pattern needs its argon2id hash; make one with 'gridlock hash')")
            valid = false
        }
        if let line = lines["duress-exec"], !pattern.duress {
            report(header.file, line, "\(label) duress-exec is only allowed together with duress=true")
            valid = false
        }
        if let from = pattern.validFrom, let until = pattern.validUntil, until < from, let line = lines["valid-until"] {
            report(header.file, line, "\(label) valid-until=\(until) is before valid-from=\(from): the pattern could never open")
            valid = false
        }
        return valid
    }

    // MARK: - [on EVENT]

    /// The event of an `[on EVENT]` header ("" when it names none), or nil for any other section.
    private static func hookEvent(inHeader header: String) -> String? {
        let words = header.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.first.map(String.init) == ConfigSchema.hook.name else { return nil }
        return words.count == 2 ? String(words[1]) : words.dropFirst().joined(separator: " ")
    }

    private mutating func addHook(_ eventName: String, section: IniSection, firstLines: inout [String: Int], file: String) {
        let header = SourceLocation(file: file, line: section.line)
        let events = HookEvent.allCases.map(\.rawValue)
        guard let event = HookEvent(rawValue: eventName) else {
            let said = eventName.isEmpty ? "[on] needs an event: [on EVENT]" : "unknown event '\(eventName)' in [on \(eventName)]"
            report(header, said + hint(eventName, events, "", ""))
            return
        }
        let label = "[on \(event.rawValue)]"
        var hook = hooks[event] ?? (HookDraft(), header, [:])
        for entry in section.entries {
            guard claimKey(entry, in: &firstLines, label: label, scope: "this file", file: file),
                  let key = known(entry, in: ConfigSchema.hook, label: label, file: file)
            else { continue }
            let at = SourceLocation(file: file, line: entry.line)
            // Noted even if refused: a refused exec= is reported as such, not again as missing.
            hook.lines[key.name] = at
            do throws(ValueProblem) {
                try key.store(&hook.draft, entry.value, source(file))
                if key.name == "exec" { hook.header = header }
            } catch {
                report(at, "\(label) \(key.name): \(error.message)")
            }
        }
        hooks[event] = hook
    }

    /// Hooks whose sections add up to something runnable; the others are reported.
    private mutating func finishedHooks() -> [HookEvent: HookConfig] {
        var finished: [HookEvent: HookConfig] = [:]
        for event in HookEvent.allCases {
            guard let (draft, header, lines) = hooks[event] else { continue }
            if let at = lines["after"], event != .failure {
                report(at, "[on \(event.rawValue)] after= is only for [on failure] (run from the Nth consecutive failure)")
                continue
            }
            guard let argv = draft.exec else {
                if lines["exec"] == nil { report(header, "[on \(event.rawValue)] has no exec= (the program to run)") }
                continue
            }
            finished[event] = HookConfig(argv: argv, after: draft.after ?? 1, timeout: draft.timeout, source: header)
        }
        return finished
    }

    private func source(_ file: String) -> ValueSource {
        ValueSource(file: file, currentDirectory: currentDirectory)
    }

    // MARK: - Reporting

    /// Whether `entry`'s key is new in `scope` (its line is then noted); false after reporting it.
    private mutating func claimKey(
        _ entry: IniEntry, in lines: inout [String: Int], label: String, scope: String, file: String
    ) -> Bool {
        if let first = lines[entry.key] {
            report(file, entry.line, "\(label) \(entry.key) is set twice in \(scope) (first on line \(first))")
            return false
        }
        lines[entry.key] = entry.line
        return true
    }

    private mutating func known<Target>(
        _ entry: IniEntry, in section: ConfigSection<Target>, label: String, file: String
    ) -> ConfigKey<Target>? {
        if let key = section.key(named: entry.key) { return key }
        report(file, entry.line, "unknown key '\(entry.key)' in \(label)" + hint(entry.key, section.keyNames, "", ""))
        return nil
    }

    private func hint(_ name: String, _ known: [String], _ open: String, _ close: String) -> String {
        if let near = ClosestName.suggestion(for: name, among: known) { return "; did you mean \(open)\(near)\(close)?" }
        return "; known: " + known.map { "\(open)\($0)\(close)" }.joined(separator: " ")
    }

    private mutating func report(_ file: String, _ line: Int, _ message: String) {
        diagnostics.append(ConfigDiagnostic(file: file, line: line, message: message))
    }

    private mutating func report(_ at: SourceLocation, _ message: String) {
        diagnostics.append(ConfigDiagnostic(location: at, message: message))
    }
}
