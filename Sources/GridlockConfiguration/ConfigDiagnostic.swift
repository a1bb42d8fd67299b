/// A place in a config file. Line 0 stands for the file as a whole (it could not be read,
/// or the problem has no single line).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `FILE:LINE`, or just `FILE` for whole-file problems: the form compilers use, so editors
    /// and `grep -n` habits jump straight to it.
    public var description: String { line > 0 ? "\(file):\(line)" : file }
}

/// One problem in the configuration, worded for the person who has to fix the file.
public struct ConfigDiagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    public init(file: String, line: Int, message: String) {
        self.init(location: SourceLocation(file: file, line: line), message: message)
    }

    public var description: String { "\(location): \(message)" }
}

/// Every problem found, not only the first: fixing a kiosk config one restart at a time is slow.
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public var diagnostics: [ConfigDiagnostic]

    public init(diagnostics: [ConfigDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One diagnostic per line, ready for stderr.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
