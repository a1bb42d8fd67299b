import GridlockCore

/// Where a value was written: relative paths follow the file that holds them.
package struct ValueSource: Sendable {
    package var file: String
    package var currentDirectory: String

    package init(file: String, currentDirectory: String) {
        self.file = file
        self.currentDirectory = currentDirectory
    }
}

/// What a key accepts: the parser of its text, and how the docs' "allowed" column says it.
/// One type serves every key of that kind, so its error messages read the same everywhere.
package struct ValueType<Value>: Sendable {
    /// As the docs' "allowed" column shows it, backticks left out (`0 to 60000 ms`, `drm, png`).
    package let allowed: String
    package let parse: @Sendable (String, ValueSource) throws(ValueProblem) -> Value
    /// For a value that names a file or a device: which kind, and the paths a parsed value names.
    private(set) var namedFile: NamedFile<Value>? = nil

    package init(allowed: String, parseWithSource: @escaping @Sendable (String, ValueSource) throws(ValueProblem) -> Value) {
        self.allowed = allowed
        self.parse = parseWithSource
    }

    /// For parsers that do not care where the value was written.
    package init(allowed: String, parse: @escaping @Sendable (String) throws(ValueProblem) -> Value) {
        self.init(allowed: allowed, parseWithSource: { text, _ throws(ValueProblem) in try parse(text) })
    }

    package func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> ValueType<T> {
        ValueType<T>(allowed: allowed, parseWithSource: { text, source throws(ValueProblem) in transform(try parse(text, source)) })
    }

    /// The same values, said in other words where the range alone would mislead.
    package func described(as words: String) -> Self {
        var type = Self(allowed: words, parseWithSource: parse)
        type.namedFile = namedFile
        return type
    }

    /// Adds `note` to every refusal, for a key whose name invites a mistake.
    package func withRefusalNote(_ note: String) -> Self {
        var type = Self(allowed: allowed, parseWithSource: { text, source throws(ValueProblem) in
            do throws(ValueProblem) { return try parse(text, source) } catch { throw ValueProblem(error.message + note) }
        })
        type.namedFile = namedFile
        return type
    }

    /// The same values, marked as naming a file or device of `kind` (`paths`: which ones a value names).
    package func naming(_ kind: NamedFileKind, paths: @escaping @Sendable (Value) -> [String]) -> Self {
        var type = self
        type.namedFile = NamedFile(kind: kind, paths: paths)
        return type
    }

    /// For an optional field: the same type whose nil names nothing.
    package var optional: ValueType<Value?> {
        var type = map { Optional($0) }
        if let named = namedFile {
            type.namedFile = NamedFile(kind: named.kind, paths: { value in value.map(named.paths) ?? [] })
        }
        return type
    }
}

// MARK: - Kinds shared by several keys
// A kind that only one key has is written out in its table entry instead.

extension ValueType where Value == Bool {
    package static var boolean: Self { Self(allowed: "boolean", parse: ConfigValues.boolean) }
}

extension ValueType where Value == Int {
    package static func integer(_ range: ClosedRange<Int>, unit: String = "") -> Self {
        let allowed = "\(range.lowerBound) to \(range.upperBound)" + (unit.isEmpty ? "" : " " + unit)
        return Self(allowed: allowed, parse: { text throws(ValueProblem) in try ConfigValues.integer(text, in: range) })
    }
}

extension ValueType where Value == Duration {
    package static func milliseconds(_ range: ClosedRange<Int>) -> Self {
        ValueType<Int>.integer(range, unit: "ms").map { .milliseconds($0) }
    }
}

extension ValueType where Value == Duration? {
    /// Where `0` turns the timer off (nil), as in "never blank" or "no time limit".
    package static func secondsOrNever(_ range: ClosedRange<Int>) -> Self {
        ValueType<Int>.integer(range, unit: "seconds").map { $0 == 0 ? nil : .seconds($0) }
    }
}

extension ValueType where Value == Double {
    package static func decimal(_ range: ClosedRange<Double>) -> Self {
        Self(allowed: "\(range.lowerBound) to \(range.upperBound)", parse: { text throws(ValueProblem) in
            try ConfigValues.decimal(text, in: range)
        })
    }
}

extension ValueType where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One of the enum's raw values, e.g. `drm` or `png`.
    package static func oneOf(_: Value.Type) -> Self {
        let options = Value.allCases.map { ($0.rawValue, $0) }
        return Self(allowed: options.map(\.0).joined(separator: ", "), parse: { text throws(ValueProblem) in
            try ConfigValues.choice(text, options)
        })
    }
}

extension ValueType where Value == Color {
    package static var colour: Self { Self(allowed: "#RRGGBB", parse: ConfigValues.color) }
}

extension ValueType where Value == String {
    /// A message on screen, with the values (`{name}`, and `%d` where it had a number) it may show.
    package static func message(_ values: MessageValues) -> Self {
        let names = values.names.map { "{\($0)}" }.joined(separator: ", ")
        let allowed = switch (names.isEmpty, values.percentD) {
        case (true, _): "text"
        case (false, nil): "text with \(names)"
        case (false, _?): "text with \(names) (or %d)"
        }
        return Self(allowed: allowed, parse: { text throws(ValueProblem) in try ConfigValues.template(text, values) })
    }

    /// A PNG file the renderer can decode and draw.
    package static var pngImage: Self {
        Self(allowed: "a PNG file", parseWithSource: ConfigValues.pngImage).naming(.themeImage) { [$0] }
    }

    package static var path: Self { Self(allowed: "a path", parseWithSource: ConfigValues.path) }
    package static var folder: Self { path.described(as: "a folder").naming(.folder) { [$0] } }
    package static var argon2Hash: Self { Self(allowed: "$argon2id$...", parse: ConfigValues.argon2Hash) }
}

extension ValueType where Value == [ToneStep] {
    /// `HZ:MS[,HZ:MS...]` or `off`.
    package static var sound: Self {
        Self(allowed: "off, HZ:MS[,HZ:MS...]", parse: ConfigValues.sound)
    }
}

extension ValueType where Value == FontChoice {
    package static var font: Self {
        Self(allowed: "a font family or a font file", parseWithSource: ConfigValues.font).naming(.font) { choice in
            if case .file(let path) = choice { [path] } else { [] }
        }
    }
}

extension ValueType where Value == [String] {
    /// systemd's `ExecStart=` rules, without a shell.
    package static var commandLine: Self { Self(allowed: "a command line", parse: ConfigValues.argv) }
}
