import Foundation
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// `ConfigSchema` against what people read: docs/configuration.md and examples/gridlock.conf.
/// A key added, renamed or removed in one place but not the others fails here, by name.
///
/// Every key must appear in the example too, set or as a commented-out `#key=` line, because
/// the example promises "Every key is listed below"; where it shows a default, it must be the
/// table's. Only the docs' "default" and "allowed" columns are compared: the "meaning" column
/// says more than the table's one-line `doc` and is left to the writer.
struct ConfigDocsTests {
    /// What both the table and the docs say about one key, normalised for comparison.
    struct Described: Hashable {
        var defaultText: String
        var allowed: String
    }

    /// The key-value lines of the example, commented out or not.
    struct ExampleLine {
        var number: Int
        var section: String?
        var key: String
        var value: String
        var commentedOut: Bool
    }

    /// A key of the table, of a plain section or of `[pattern NAME]` alike.
    struct TableKey {
        var section: String
        var name: String
        var described: Described
        var defaultValue: KeyDefault
        var doc: String
    }

    static let docsPath = ConfigFixtures.root.appendingPathComponent("docs/configuration.md").path

    static let tableKeys = ConfigSchema.sections.flatMap(tableKeys(of:)) + tableKeys(of: ConfigSchema.pattern)
        + tableKeys(of: ConfigSchema.hook)

    @Test("every key of the table is documented") func everyKeyOfTheTableIsDocumented() throws {
        let docs = try Self.documentedKeys()
        let missing = Self.tableKeys.filter { docs[$0.section]?[$0.name] == nil }
        #expect(missing.map { "[\($0.section)] \($0.name): in the table, not in docs/configuration.md" } == [])
    }

    @Test("docs document no key the table lacks") func docsDocumentNoKeyTheTableLacks() throws {
        var problems: [String] = []
        for (section, keys) in try Self.documentedKeys() {
            for key in keys.keys where Self.tableKey(section, key) == nil {
                problems.append("[\(section)] \(key): in docs/configuration.md, not in the table (stale?)")
            }
        }
        #expect(problems.sorted() == [])
    }

    @Test("docs and table agree on default and allowed values") func docsAndTableAgreeOnDefaultAndAllowedValues() throws {
        var problems: [String] = []
        for (section, keys) in try Self.documentedKeys() {
            for (key, documented) in keys {
                guard let described = Self.tableKey(section, key)?.described else { continue }
                if documented.defaultText != described.defaultText {
                    problems.append("[\(section)] \(key): docs give the default '\(documented.defaultText)', the table '\(described.defaultText)'")
                }
                if documented.allowed != described.allowed {
                    problems.append("[\(section)] \(key): docs allow '\(documented.allowed)', the table '\(described.allowed)'")
                }
            }
        }
        #expect(problems.sorted() == [])
    }

    @Test("example mentions only keys of the table") func exampleMentionsOnlyKeysOfTheTable() throws {
        let unknown = try Self.exampleLines().filter { line in line.section.flatMap { Self.tableKey($0, line.key) } == nil }
        #expect(unknown.map { "examples/gridlock.conf:\($0.number): [\($0.section ?? "")] \($0.key) is not a key of the table" } == [])
    }

    @Test("example lists every key and shows the defaults") func exampleListsEveryKeyAndShowsTheDefaults() throws {
        let lines = try Self.exampleLines()
        var problems: [String] = []
        for key in Self.tableKeys {
            let mentions = lines.filter { $0.section == key.section && $0.key == key.name }
            if mentions.isEmpty { problems.append("[\(key.section)] \(key.name): in the table, not in examples/gridlock.conf") }
            guard case .value(let defaultValue) = key.defaultValue else { continue }
            for line in mentions where line.commentedOut && line.value != defaultValue {
                problems.append("examples/gridlock.conf:\(line.number): #\(key.name)=\(line.value) is not the default \(defaultValue)")
            }
        }
        #expect(problems == [])
    }

    /// A default the docs show must be what the loader starts with, or the docs would lie.
    @Test("table defaults are the values the loader starts with") func tableDefaultsAreTheValuesTheLoaderStartsWith() {
        let problems = Self.defaultProblems(ConfigSchema.sections, untouched: ConfigDraft())
            + Self.defaultProblems([ConfigSchema.pattern], untouched: PatternDraft())
            + Self.defaultProblems([ConfigSchema.hook], untouched: HookDraft())
        #expect(problems == [])
    }

    /// examples/themes/harbour: every image it names is there and decodes, and its
    /// messages pass the check (it is also the themed demo configuration).
    @Test("the themed example loads with every image") func theThemedExampleLoadsWithEveryImage() throws {
        let path = ConfigFixtures.root.appendingPathComponent("examples/themes/harbour/gridlock.conf").path
        let theme = try ConfigLoader.load(path: path).config.theme
        #expect(theme.imagePaths.count == 5)
        #expect(theme.text(for: .wrong(failures: 1, remaining: 4)) == "Wrong pattern (1) · 4 more before a pause")
    }

    @Test("every key has a one line doc") func everyKeyHasAOneLineDoc() {
        let undocumented = Self.tableKeys.filter { $0.doc.isEmpty || $0.doc.contains("\n") }
        #expect(undocumented.map { "[\($0.section)] \($0.name)" } == [])
    }

    // MARK: - Reading the table

    static func tableKeys<Target>(of section: ConfigSection<Target>) -> [TableKey] {
        section.keys.map { key in
            TableKey(
                section: section.name, name: key.name,
                described: Described(defaultText: normalised(key.defaultValue.text), allowed: normalised(key.allowed)),
                defaultValue: key.defaultValue, doc: key.doc)
        }
    }

    static func tableKey(_ section: String, _ name: String) -> TableKey? {
        tableKeys.first { $0.section == section && $0.name == name }
    }

    static func defaultProblems<Target: Equatable>(_ sections: [ConfigSection<Target>], untouched: Target) -> [String] {
        let source = ValueSource(file: "/etc/gridlock/gridlock.conf", currentDirectory: "/")
        var problems: [String] = []
        for section in sections {
            for key in section.keys {
                guard case .value(let text) = key.defaultValue else { continue }
                var draft = untouched
                do throws(ValueProblem) {
                    try key.store(&draft, text, source)
                    if draft != untouched { problems.append("[\(section.name)] \(key.name): the loader does not start with \(text)") }
                } catch {
                    problems.append("[\(section.name)] \(key.name): the default \(text) is refused: \(error.message)")
                }
            }
        }
        return problems
    }

    // MARK: - Reading the docs and the example

    /// The rows `| \`key\` | default | allowed | meaning |` under each ### `[section]` heading.
    static func documentedKeys() throws -> [String: [String: Described]] {
        var documented: [String: [String: Described]] = [:]
        var section: String? = nil
        var inCodeBlock = false
        for line in try String(contentsOfFile: docsPath, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("```") { inCodeBlock.toggle() }
            if inCodeBlock { continue }
            if line.hasPrefix("#") {
                section = line.hasPrefix("### `[") ? sectionName(inHeader: normalised(line.dropFirst(4))) : nil
                continue
            }
            guard let section, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(normalised)
            let cell = { (index: Int) in index < cells.count ? cells[index] : "" }
            documented[section, default: [:]][cell(1)] = Described(defaultText: cell(2), allowed: cell(3))
        }
        return documented
    }

    static func exampleLines() throws -> [ExampleLine] {
        var lines: [ExampleLine] = []
        var section: String? = nil
        let text = try String(contentsOfFile: ConfigFixtures.example, encoding: .utf8)
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let commentedOut = raw.hasPrefix("#")
            let line = commentedOut ? raw.dropFirst() : raw
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = sectionName(inHeader: String(line.dropFirst().dropLast()))
            } else if let equals = line.firstIndex(of: "="), isKeyName(line[..<equals]) {
                let value = normalised(line[line.index(after: equals)...])
                lines.append(ExampleLine(
                    number: index + 1, section: section, key: String(line[..<equals]), value: value, commentedOut: commentedOut))
            }
        }
        return lines
    }

    /// `[pattern door]` and the docs' `[pattern NAME]` are both the table's `pattern`.
    static func sectionName(inHeader header: String) -> String {
        let words = header.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: " ")
        let first = words.first.map(String.init)
        if first == ConfigSchema.pattern.name || first == ConfigSchema.hook.name { return first! }
        return words.joined(separator: " ")
    }

    static func isKeyName(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }

    /// Backticks dropped and white space folded: markup is not a disagreement.
    static func normalised(_ text: some StringProtocol) -> String {
        text.replacingOccurrences(of: "`", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// `ConfigIniReaderTests` lists [grid]'s names as `GridKey.allCases.map(\.rawValue)`, from when
/// keys were enums; this answers from the table, so that test reads as before and cannot drift.
enum GridKey {
    struct Name {
        var rawValue: String
    }

    static var allCases: [Name] { ConfigSchema.grid.keyNames.map(Name.init) }
}
