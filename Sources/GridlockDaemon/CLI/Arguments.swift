/// A small command-line reader for the two executables (no package from outside the
/// toolchain can be used, so no swift-argument-parser): `--name value`, `--name=value`,
/// flags, and positionals, with errors that say what was expected.
public struct Arguments {
    private var remaining: [String]
    public let command: String

    public init(_ arguments: [String], command: String) {
        self.remaining = arguments
        self.command = command
    }

    /// Removes and returns the value of `--name VALUE` or `--name=VALUE` (the last one wins).
    public mutating func option(_ name: String) throws(UsageError) -> String? {
        var value: String?
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == "--" { break }
            if argument == name {
                guard index + 1 < remaining.count else { throw UsageError("\(name) needs a value", command: command) }
                value = remaining[index + 1]
                remaining.removeSubrange(index...index + 1)
            } else if argument.hasPrefix(name + "=") {
                value = String(argument.dropFirst(name.count + 1))
                remaining.remove(at: index)
            } else {
                index += 1
            }
        }
        return value
    }

    /// Removes `--name VALUE` and hands VALUE to `check`; what `check` throws becomes a usage
    /// error naming the option. nil when the option is absent.
    public mutating func option<CheckError: Error>(
        _ name: String, checkedBy check: (String) throws(CheckError) -> Void
    ) throws(UsageError) -> String? {
        guard let text = try option(name) else { return nil }
        do {
            try check(text)
        } catch {
            throw UsageError(option: name, refusedBecause: error, command: command)
        }
        return text
    }

    /// Removes `--name N` and reads N as a whole number in `range`; nil when the option is absent.
    public mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                option: name, value: text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)",
                command: command)
        }
        return value
    }

    /// Removes `--name SECONDS` and reads it as a duration; fractions are allowed (`0.5`), and
    /// it must lie in `range`. nil when the option is absent.
    public mutating func seconds(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Duration? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(
                option: name, value: text,
                expected: "a number of seconds from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))",
                command: command)
        }
        return .saturating(seconds: value)
    }

    /// `60`, not `60.0`; `0.001` as it is.
    private static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }

    /// Removes `--name`, `--name CHOICE` or `--name=CHOICE`, where CHOICE is one of `choices`:
    /// nil when absent, `bare` when given alone. A word after a bare `--name` that is not a
    /// choice stays for the others (a positional); `--name=` with another value is an error.
    public mutating func optionalChoice(_ name: String, _ choices: [String], bare: String) throws(UsageError) -> String? {
        var value: String?
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == "--" { break }
            if argument == name {
                if index + 1 < remaining.count, choices.contains(remaining[index + 1]) {
                    value = remaining[index + 1]
                    remaining.removeSubrange(index...index + 1)
                } else {
                    value = bare
                    remaining.remove(at: index)
                }
            } else if argument.hasPrefix(name + "=") {
                let text = String(argument.dropFirst(name.count + 1))
                guard choices.contains(text) else {
                    throw UsageError(option: name, value: text, expected: "one of \(choices.joined(separator: ", "))", command: command)
                }
                value = text
                remaining.remove(at: index)
            } else {
                index += 1
            }
        }
        return value
    }

    /// Removes `--name` and says whether it was there.
    public mutating func flag(_ name: String) -> Bool {
        var found = false
        while let index = remaining.firstIndex(of: name), index < (remaining.firstIndex(of: "--") ?? remaining.count) {
            remaining.remove(at: index)
            found = true
        }
        return found
    }

    /// The rest, once every option has been taken; anything left that looks like an option is an error.
    public mutating func positionals(count range: ClosedRange<Int>, names: String) throws(UsageError) -> [String] {
        var result: [String] = []
        var afterDashes = false
        for argument in remaining {
            if !afterDashes, argument == "--" {
                afterDashes = true
            } else if !afterDashes, argument.hasPrefix("-"), argument != "-" {
                throw UsageError("unknown option \(argument)", command: command)
            } else {
                result.append(argument)
            }
        }
        remaining = []
        guard range.contains(result.count) else {
            if result.count < range.lowerBound { throw UsageError("missing \(names)", command: command) }
            throw UsageError("unexpected argument \(result[range.upperBound])", command: command)
        }
        return result
    }

    /// Fails on anything not taken.
    public mutating func finish() throws(UsageError) { _ = try positionals(count: 0...0, names: "") }
}

/// A mistake on the command line: printed with a pointer to `--help`, exit status 64 (EX_USAGE).
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public let command: String

    public init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }

    /// An option's value that is not of the kind it takes, worded as config diagnostics are:
    /// `--timeout: expected a whole number from 1 to 3600, got 'abc'`.
    public init(option: String, value: String, expected: String, command: String) {
        self.init("\(option): expected \(expected), got '\(value)'", command: command)
    }

    /// An option's value its parser refused, with the parser's reason. The value itself is
    /// left out: it may be a pattern, which is not echoed anywhere.
    public init(option: String, refusedBecause reason: some Error, command: String) {
        self.init("\(option): \(reason)", command: command)
    }

    public var description: String { "\(command): \(message)\nTry '\(command) --help'." }
}
