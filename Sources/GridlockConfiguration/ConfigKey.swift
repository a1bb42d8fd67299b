/// One key of a section: all the loader and the docs need to know about it. `Target` is what
/// the section's values are written into (`ConfigDraft`, or `PatternDraft` for `[pattern NAME]`).
package struct ConfigKey<Target>: Sendable {
    package let name: String
    /// The docs' "allowed" column.
    package let allowed: String
    package let defaultValue: KeyDefault
    /// What the key is for, in one line.
    package let doc: String
    /// Parses the text and writes the value into its field; a refused value writes nothing.
    package let store: @Sendable (inout Target, String, ValueSource) throws(ValueProblem) -> Void
    /// What kind of file or device the value names, if it names one (`ConfigVerdict` checks it).
    package let namedFile: NamedFileKind?
    /// The paths the value in effect names (none for `auto`, a family, or a key without a file).
    package let namedPaths: @Sendable (Target) -> [String]

    package init<Value>(
        _ name: String, _ type: ValueType<Value>, _ field: WritableKeyPath<Target, Value> & Sendable,
        default defaultValue: KeyDefault, _ doc: String
    ) {
        self.name = name
        self.allowed = type.allowed
        self.defaultValue = defaultValue
        self.doc = doc
        self.store = { target, text, source throws(ValueProblem) in target[keyPath: field] = try type.parse(text, source) }
        namedFile = type.namedFile?.kind
        let paths = type.namedFile?.paths
        namedPaths = { target in paths?(target[keyPath: field]) ?? [] }
    }

    /// For a field that is nil until the key is set.
    package init<Value>(
        _ name: String, _ type: ValueType<Value>, _ field: WritableKeyPath<Target, Value?> & Sendable,
        default defaultValue: KeyDefault, _ doc: String
    ) {
        self.init(name, type.optional, field, default: defaultValue, doc)
    }
}

/// A key's default, as the docs' "default" column shows it.
package enum KeyDefault: Sendable, Hashable {
    /// A value the key accepts, and the one the draft already holds (the docs test checks both).
    case value(String)
    /// Words for what happens without the key, e.g. `none` or `required`.
    case unset(String)

    package var text: String {
        switch self {
        case .value(let text), .unset(let text): text
        }
    }
}

/// A `[section]` and its keys, in the order the docs list them.
package struct ConfigSection<Target>: Sendable {
    package let name: String
    package let keys: [ConfigKey<Target>]

    package init(_ name: String, _ keys: [ConfigKey<Target>]) {
        self.name = name
        self.keys = keys
    }

    package var keyNames: [String] { keys.map(\.name) }

    package func key(named name: String) -> ConfigKey<Target>? { keys.first { $0.name == name } }
}
