/// Where in a recording something went wrong: enough for a person to open the file there.
public struct RecordingLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based, as editors count.
    public var line: Int
    /// The offending line as written (without its line break).
    public var text: String

    public init(file: String, line: Int, text: String) {
        self.file = file
        self.line = line
        self.text = text
    }

    public var description: String { "\(file):\(line)" }
}

public enum RecordingError: Error, Hashable, CustomStringConvertible {
    /// A line that evemu would also reject; `problem` says what was expected.
    case malformedLine(RecordingLocation, problem: String)
    /// The file ended (or events began) before the `N:` and `I:` lines evemu requires.
    case missingDescription(file: String, line: Int, problem: String)
    /// The writer was given something the text format cannot hold.
    case unwritable(problem: String)
    /// The file could not be opened or read.
    case unreadable(file: String, reason: String)

    public var location: RecordingLocation? {
        if case .malformedLine(let location, _) = self { location } else { nil }
    }

    public var description: String {
        switch self {
        case .malformedLine(let location, let problem):
            "\(location): \(problem): \(location.text)"
        case .missingDescription(let file, let line, let problem):
            "\(file):\(line): \(problem)"
        case .unwritable(let problem):
            "cannot write evemu recording: \(problem)"
        case .unreadable(let file, let reason):
            "recording \(file): \(reason)"
        }
    }
}
