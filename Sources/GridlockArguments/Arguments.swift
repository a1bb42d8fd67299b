import GridlockCore

/// A small command-line reader for the two executables (no package from outside the
/// toolchain can be used, so no swift-argument-parser): `--name value`, `--name=value`,
/// flags, and positionals, with errors that say what was expected.
///
/// Arguments are taken as bytes (`init(bytes:command:)`, what `gridlock` does with its argv):
/// one that is not well-formed UTF-8 is refused when it is taken, naming its option, rather
/// than read with U+FFFD in place of its bytes, which would make a value (or a path) that was
/// never given.
public struct Arguments {
    private var remaining: [String]
    /// Where each of `remaining` stopped being UTF-8, for those that did.
    private var illFormed: [(offset: Int, byte: UInt8)?]
    public let command: String

    public init(_ arguments: [String], command: String) {
        self.remaining = arguments
        self.illFormed = arguments.map { _ in nil }
        self.command = command
    }

    /// The arguments as the kernel passed them.
    public init(bytes arguments: [[UInt8]], command: String) {
        self.remaining = arguments.map { String(decoding: $0, as: UTF8.self) }
        self.illFormed = arguments.map { StrictUTF8.firstProblem(in: $0) }
        self.command = command
    }

    /// This process's arguments after the program name, as bytes (`CommandLine.arguments`
    /// has them decoded already, ill-formed sequences replaced).
    public static func processArguments() -> [[UInt8]] {
        (0..<Int(CommandLine.argc)).dropFirst().map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            var bytes: [UInt8] = []
            var next = argument
            while next.pointee != 0 {
                bytes.append(UInt8(bitPattern: next.pointee))
                next += 1
            }
            return bytes
        }
    }

    private mutating func remove(_ indices: ClosedRange<Int>) {
        remaining.removeSubrange(indices)
        illFormed.removeSubrange(indices)
    }

    private func refuseIllFormed(_ index: Int, option name: String) throws(UsageError) {
        guard let problem = illFormed[index] else { return }
        throw UsageError(
            "\(name): is not valid UTF-8 (at \(StrictUTF8.describe(problem)) of the argument); give it as UTF-8 text",
            command: command)
    }

    /// Removes and returns the value of `--name VALUE` or `--name=VALUE` (the last one wins).
    /// A value that is not well-formed UTF-8 is refused, wherever it comes.
    public mutating func option(_ name: String) throws(UsageError) -> String? {
        var value: String?
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == "--" { break }
            if argument == name {
                guard index + 1 < remaining.count else { throw UsageError("\(name) needs a value", command: command) }
                try refuseIllFormed(index + 1, option: name)
                value = remaining[index + 1]
                remove(index...index + 1)
            } else if argument.hasPrefix(name + "=") {
                try refuseIllFormed(index, option: name)
                value = String(argument.dropFirst(name.count + 1))
                remove(index...index)
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
                if index + 1 < remaining.count, illFormed[index + 1] == nil, choices.contains(remaining[index + 1]) {
                    value = remaining[index + 1]
                    remove(index...index + 1)
                } else {
                    value = bare
                    remove(index...index)
                }
            } else if argument.hasPrefix(name + "=") {
                try refuseIllFormed(index, option: name)
                let text = String(argument.dropFirst(name.count + 1))
                guard choices.contains(text) else {
                    throw UsageError(option: name, value: text, expected: "one of \(choices.joined(separator: ", "))", command: command)
                }
                value = text
                remove(index...index)
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
            remove(index...index)
            found = true
        }
        return found
    }

    /// The rest, once every option has been taken; anything left that looks like an option is an error.
    public mutating func positionals(count range: ClosedRange<Int>, names: String) throws(UsageError) -> [String] {
        var result: [String] = []
        var afterDashes = false
        for (argument, problem) in zip(remaining, illFormed) {
            if !afterDashes, argument == "--" {
                afterDashes = true
            } else if !afterDashes, argument.hasPrefix("-"), argument != "-" {
                throw UsageError("unknown option \(argument)", command: command)
            } else if let problem {
                throw UsageError(
                    "\(names.isEmpty ? "an argument" : names) is not valid UTF-8 (at \(StrictUTF8.describe(problem))); give it as UTF-8 text",
                    command: command)
            } else {
                result.append(argument)
            }
        }
        remaining = []
        illFormed = []
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
