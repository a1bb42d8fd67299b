import GridlockCore

/// Applies parsed files, in order, onto the defaults: later values win per section and key,
/// patterns accumulate. Every value is checked where it is written, even one a later file
/// overrides, so no file on disk holds a mistake that merely happens to be hidden today.
struct ConfigAssembler {
    private(set) var config = GridlockConfig()
    private(set) var diagnostics: [ConfigDiagnostic] = []
    private let currentDirectory: String
    /// Where the value in effect for `section.key` was written, for checks that span keys.
    private var origins: [String: SourceLocation] = [:]
    private var patternOrigins: [String: SourceLocation] = [:]
    private var rows = 3
    private var columns = 3

    init(currentDirectory: String) {
        self.currentDirectory = currentDirectory
    }

    mutating func add(_ file: IniFile) {
        diagnostics += file.diagnostics
        /// First line of each key per section name in this file: a key twice in one file is ambiguous.
        var firstLines: [String: [String: Int]] = [:]
        for section in file.sections {
            let words = section.name.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
            if words.first.map(String.init) == ConfigSection.patternPrefix {
                let name = words.count > 1 ? String(words[1].drop(while: { $0 == " " || $0 == "\t" })) : ""
                addPattern(name: name, section: section, file: file.path)
                continue
            }
            guard let kind = ConfigSection(rawValue: section.name) else {
                report(file.path, section.line, "unknown section [\(section.name)]" + hint(section.name, ConfigSection.allNames, "[", "]"))
                continue
            }
            for entry in section.entries {
                if let first = firstLines[section.name]?[entry.key] {
                    report(file.path, entry.line, "[\(section.name)] \(entry.key) is set twice in this file (first on line \(first))")
                    continue
                }
                firstLines[section.name, default: [:]][entry.key] = entry.line
                apply(entry, in: kind, file: file.path)
            }
        }
    }

    /// The checks that need the final values of several keys.
    mutating func finish() -> GridlockConfig {
        config.grid.shape = (try? GridShape(rows: rows, columns: columns)) ?? .standard
        if config.grid.minNodes > config.grid.shape.nodeCount, let at = origins["grid.min-nodes"] {
            report(at, "[grid] min-nodes=\(config.grid.minNodes) is more than the \(config.grid.shape.nodeCount) nodes of a \(config.grid.shape) grid")
        }
        if config.display.backend == .png, config.display.outputDirectory == nil {
            report(origin("display.backend"), "[display] backend=png needs output-dir=DIR (where the frames go)")
        }
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

    /// Only values read from a file can break a cross-key rule (the defaults agree), so the
    /// fallback is never expected; it keeps a broken assumption from crashing a reload.
    private func origin(_ key: String) -> SourceLocation {
        origins[key] ?? SourceLocation(file: "(built-in default \(key))", line: 0)
    }

    // MARK: - Keys of the plain sections

    private mutating func apply(_ entry: IniEntry, in section: ConfigSection, file: String) {
        let at = SourceLocation(file: file, line: entry.line)
        let v = entry.value
        let cwd = currentDirectory
        /// The value, or nil after reporting why not; remembers where an accepted value came from.
        func parsed<T>(_ parse: () throws(ValueProblem) -> T, note: String = "") -> T? {
            do {
                let value = try parse()
                origins["\(section.rawValue).\(entry.key)"] = at
                return value
            } catch {
                report(at, "[\(section.rawValue)] \(entry.key): \(error.message)\(note)")
                return nil
            }
        }
        func path() throws(ValueProblem) -> String {
            guard !v.isEmpty else { throw ValueProblem("expected a path, got nothing") }
            return ConfigPaths.resolve(v, relativeTo: file, currentDirectory: cwd)
        }
        func integer(_ range: ClosedRange<Int>) -> Int? {
            parsed { () throws(ValueProblem) in try ConfigValues.integer(v, in: range) }
        }
        func milliseconds(_ range: ClosedRange<Int>) -> Duration? { integer(range).map { .milliseconds($0) } }
        /// Seconds where 0 means never.
        func seconds(_ range: ClosedRange<Int>) -> Duration?? { integer(range).map { $0 == 0 ? nil : .seconds($0) } }
        func boolean() -> Bool? { parsed { () throws(ValueProblem) in try ConfigValues.boolean(v) } }
        func choice<T: RawRepresentable & CaseIterable>(_: T.Type) -> T? where T.RawValue == String {
            parsed { () throws(ValueProblem) in try ConfigValues.choice(v, T.allCases.map { ($0.rawValue, $0) }) }
        }
        func color(note: String = "") -> Color? { parsed({ () throws(ValueProblem) in try ConfigValues.color(v) }, note: note) }
        func message(_ placeholders: Int) -> String? {
            parsed { () throws(ValueProblem) in try ConfigValues.template(v, placeholders: placeholders) }
        }

        switch section {
        case .display:
            guard let key = known(DisplayKey.self, entry, section, file) else { return }
            switch key {
            case .backend: if let x = choice(DisplayBackend.self) { config.display.backend = x }
            case .device:
                let device = parsed { () throws(ValueProblem) -> DisplayDevice in
                    if v == "auto" { return .auto }
                    guard v.hasPrefix("/") else { throw ValueProblem("expected auto or an absolute path such as /dev/dri/card0, got '\(v)'") }
                    return .path(v)
                }
                if let device { config.display.device = device }
            case .connector:
                let connector = parsed { () throws(ValueProblem) -> ConnectorSelector in
                    guard !v.isEmpty else { throw ValueProblem("expected auto or a connector name such as HDMI-A-1") }
                    return v == "auto" ? .auto : .named(v)
                }
                if let connector { config.display.connector = connector }
            case .mode: if let x = parsed({ () throws(ValueProblem) in try ConfigValues.displayMode(v) }) { config.display.mode = x }
            case .rotation: if let x = parsed({ () throws(ValueProblem) in try ConfigValues.rotation(v) }) { config.display.rotation = x }
            case .size: if let x = parsed({ () throws(ValueProblem) in try ConfigValues.pixelSize(v) }) { config.display.size = x }
            case .outputDir: if let x = parsed(path) { config.display.outputDirectory = x }
            case .blankAfter: if let x = seconds(ConfigLimits.blankAfterSeconds) { config.display.blankAfter = x }
            }
        case .touch:
            guard let key = known(TouchKey.self, entry, section, file) else { return }
            switch key {
            case .backend: if let x = choice(TouchBackend.self) { config.touch.backend = x }
            case .device:
                let device = parsed { () throws(ValueProblem) -> TouchDevice in
                    if v == "auto" { return .auto }
                    if v.hasPrefix("name:") {
                        let name = String(v.dropFirst("name:".count))
                        guard !name.isEmpty else { throw ValueProblem("name: needs part of the device's name, e.g. name:Goodix") }
                        return .nameContaining(name)
                    }
                    guard !v.isEmpty else { throw ValueProblem("expected auto, a path, or name:SUBSTRING") }
                    return .path(try path())
                }
                if let device { config.touch.device = device }
            case .calibration: if let x = parsed({ () throws(ValueProblem) in try ConfigValues.calibration(v) }) { config.touch.calibration = x }
            case .grab: if let x = boolean() { config.touch.grab = x }
            case .stuckTouchMs: if let x = milliseconds(ConfigLimits.stuckTouchMs) { config.touch.stuckTouch = x }
            }
        case .grid:
            guard let key = known(GridKey.self, entry, section, file) else { return }
            switch key {
            case .rows: if let x = integer(ConfigLimits.gridDimensions) { rows = x }
            case .columns: if let x = integer(ConfigLimits.gridDimensions) { columns = x }
            case .size:
                if let x = parsed({ () throws(ValueProblem) in try ConfigValues.decimal(v, in: GridLayout.allowedSizeFraction) }) {
                    config.grid.sizeFraction = x
                }
            case .hitRadius:
                if let x = parsed({ () throws(ValueProblem) in try ConfigValues.decimal(v, in: GridLayout.allowedHitRadiusFraction) }) {
                    config.grid.hitRadiusFraction = x
                }
            case .minNodes:
                let most = ConfigLimits.gridDimensions.upperBound * ConfigLimits.gridDimensions.upperBound
                if let x = integer(1...most) { config.grid.minNodes = x }
            case .showPath: if let x = boolean() { config.grid.showPath = x }
            }
        case .theme:
            guard let key = known(ThemeKey.self, entry, section, file) else { return }
            switch key {
            case .background: if let x = color() { config.theme.background = x }
            case .node: if let x = color() { config.theme.node = x }
            case .selected: if let x = color() { config.theme.selected = x }
            case .error: if let x = color() { config.theme.error = x }
            case .success: if let x = color(note: " (the success message is success-text=)") { config.theme.success = x }
            case .text: if let x = color() { config.theme.text = x }
            case .font:
                let font = parsed { () throws(ValueProblem) -> String in
                    let font = try path()
                    if let problem = FileSystem.checkReadable(font) { throw ValueProblem("cannot open '\(font)': \(problem.text)") }
                    return font
                }
                if let font { config.theme.fontPath = font }
            case .prompt: if let x = message(0) { config.theme.prompt = x }
            case .wrong: if let x = message(0) { config.theme.wrong = x }
            case .verifying: if let x = message(0) { config.theme.verifying = x }
            case .tooShort: if let x = message(1) { config.theme.tooShort = x }
            case .lockedOut: if let x = message(1) { config.theme.lockedOut = x }
            case .successText: if let x = message(0) { config.theme.successText = x }
            case .enrollDraw: if let x = message(0) { config.theme.enrollDraw = x }
            case .enrollConfirm: if let x = message(0) { config.theme.enrollConfirm = x }
            case .enrollMismatch: if let x = message(0) { config.theme.enrollMismatch = x }
            case .enrollSaved: if let x = message(0) { config.theme.enrollSaved = x }
            case .calibrate: if let x = message(1) { config.theme.calibrate = x }
            }
        case .feedback:
            guard let key = known(FeedbackKey.self, entry, section, file) else { return }
            switch key {
            case .errorMs: if let x = milliseconds(ConfigLimits.feedbackMs) { config.feedback.errorDuration = x }
            case .successMs: if let x = milliseconds(ConfigLimits.feedbackMs) { config.feedback.successDuration = x }
            }
        case .lockout:
            guard let key = known(LockoutKey.self, entry, section, file) else { return }
            switch key {
            case .schedule:
                if let x = parsed({ () throws(ValueProblem) in try ConfigValues.schedule(v) }) { config.lockout.schedule = x }
            case .stateFile: if let x = parsed(path) { config.lockout.stateFile = x }
            }
        case .security:
            guard let key = known(SecurityKey.self, entry, section, file) else { return }
            switch key {
            case .argon2Ops: if let x = integer(ConfigLimits.argon2Ops) { config.security.argon2Ops = x }
            case .argon2Mem: if let x = integer(ConfigLimits.argon2MemKiB) { config.security.argon2MemKiB = x }
            }
        case .action:
            guard let key = known(ActionKey.self, entry, section, file) else { return }
            switch key {
            case .timeout: if let x = seconds(ConfigLimits.actionTimeoutSeconds) { config.action.timeout = x }
            case .mode: if let x = choice(ActionMode.self) { config.action.mode = x }
            }
        }
    }

    // MARK: - [pattern NAME]

    private mutating func addPattern(name: String, section: IniSection, file: String) {
        let header = SourceLocation(file: file, line: section.line)
        let label = "[pattern \(name)]"
        var usable = true
        if name.isEmpty {
            report(header, "[pattern] needs a name: [pattern NAME]")
            usable = false
        } else if !ConfigValues.isPatternName(name) {
            report(header, "pattern name '\(name)' must be 1 to 64 characters of A-Z a-z 0-9 _ . -")
            usable = false
        } else if let first = patternOrigins[name] {
            report(header, "duplicate pattern name '\(name)' (first defined at \(first))")
            usable = false
        } else {
            patternOrigins[name] = header
        }

        var hash: String? = nil
        var exec: [String]? = nil
        var duress = false
        var duressExecLine: Int? = nil
        var duressExec: [String]? = nil
        var seen: [String: Int] = [:]
        var valid = true
        for entry in section.entries {
            let at = SourceLocation(file: file, line: entry.line)
            if let first = seen[entry.key] {
                report(at, "\(label) \(entry.key) is set twice in this section (first on line \(first))")
                valid = false
                continue
            }
            seen[entry.key] = entry.line
            guard let key = known(PatternKey.self, entry, label, file) else {
                valid = false
                continue
            }
            do throws(ValueProblem) {
                switch key {
                case .hash: hash = try ConfigValues.argon2Hash(entry.value)
                case .exec: exec = try ConfigValues.argv(entry.value)
                case .duress: duress = try ConfigValues.boolean(entry.value)
                case .duressExec:
                    duressExecLine = entry.line
                    duressExec = try ConfigValues.argv(entry.value)
                }
            } catch {
                report(at, "\(label) \(entry.key): \(error.message)")
                valid = false
            }
        }
        if seen[PatternKey.hash.rawValue] == nil {
            report(header, "\(label) has no hash= (every pattern needs its argon2id hash; make one with 'gridlock hash')")
            valid = false
        }
        if let line = duressExecLine, !duress {
            report(file, line, "\(label) duress-exec is only allowed together with duress=true")
            valid = false
        }
        guard usable, valid, let hash else { return }
        config.patterns.append(
            PatternEntry(name: name, hash: hash, exec: exec, duress: duress, duressExec: duressExec, source: header))
    }

    // MARK: - Reporting

    private mutating func known<Key: RawRepresentable & CaseIterable>(
        _: Key.Type, _ entry: IniEntry, _ section: ConfigSection, _ file: String
    ) -> Key? where Key.RawValue == String {
        known(Key.self, entry, "[\(section.rawValue)]", file)
    }

    private mutating func known<Key: RawRepresentable & CaseIterable>(
        _: Key.Type, _ entry: IniEntry, _ label: String, _ file: String
    ) -> Key? where Key.RawValue == String {
        if let key = Key(rawValue: entry.key) { return key }
        let names = Key.allCases.map(\.rawValue)
        report(file, entry.line, "unknown key '\(entry.key)' in \(label)" + hint(entry.key, names, "", ""))
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
