import GridlockArguments
import GridlockCore
import GridlockDaemon
import GridlockRendering
import LinuxSys

/// One `gridlock` subcommand: its name, one line for the overview, its help, and its body.
struct Command: Sendable {
    var name: String
    var summary: String
    var usage: String
    var run: @Sendable (inout Arguments) throws -> Int32
}

let commands: [Command] = [
    checkConfigCommand, hashCommand, replayCommand, renderCommand, benchCommand, demoCommand, pixelCommand,
    resetLockoutCommand, devicesCommand, recordCommand, enrollCommand, patternsCommand, calibrateCommand, latencyCommand,
]

let overview = """
    Usage: gridlock COMMAND [OPTIONS]

    The companion tool of gridlockd, the pattern lock screen for Linux touch panels.

    Commands:
    \(commands.map { "  " + $0.name.padding(15) + $0.summary }.joined(separator: "\n"))

    Run 'gridlock COMMAND --help' for a command's options.
    """

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(1, width - count)) }
}

func main() -> Int32 {
    // What gridlock loads it may draw (render, replay, demo, enroll, calibrate): its look is judged decoded.
    ConfigVerdict.judgeDrawnLooks(with: DecodingLookInspection())
    // As bytes: a value that is no UTF-8 is refused by its option, not read with U+FFFD.
    var rest = Arguments.processArguments()
    let name = rest.first.map { String(decoding: $0, as: UTF8.self) }
    guard let name, name != "--help", name != "-h", name != "help" else {
        printEscaped(overview)
        return rest.isEmpty ? 64 : 0
    }
    rest.removeFirst()
    guard let command = commands.first(where: { $0.name == name }) else {
        printError("gridlock: unknown command '\(name)'\nTry 'gridlock --help'.")
        return 64
    }
    var arguments = Arguments(bytes: rest, command: "gridlock \(name)")
    if arguments.flag("--help") || arguments.flag("-h") {
        printEscaped(command.usage)
        return 0
    }
    do {
        return try command.run(&arguments)
    } catch let error as UsageError {
        printError(error.description)
        return error.exitStatus
    } catch let error as FailureStatus {
        printError("gridlock \(name): \(error)")
        return error.exitStatus
    } catch {
        printError("gridlock \(name): \(error)")
        return 1
    }
}

/// `--name` of `hash` and `enroll`: a pattern's name by the config's own rule (it becomes
/// a section header, a drop-in's file name and a journal field).
func checkPatternName(_ name: String, command: String) throws(UsageError) {
    guard Enrollment.isValidName(name) else {
        throw UsageError(option: "--name", value: name, expected: "1 to 64 of A-Z a-z 0-9 _ . -", command: command)
    }
}

/// Everything gridlock prints to standard output: a device's name comes from its
/// firmware, a file name or a config value from anyone who could write one, and escape
/// sequences in them must not reach the terminal raw (lines and tabs are kept).
func printEscaped(_ item: Any = "", terminator: String = "\n") {
    print(Journal.escaped(String(describing: item), keepingLines: true), terminator: terminator)
}

/// A pattern typed on standard input (`--pattern-stdin`, or `hash` without `--pattern`): not
/// a pattern of `shape` is a usage error, as the same text in `--pattern` is.
func patternFromStandardInput(_ line: String, shape: GridShape, command: String) throws(UsageError) -> Pattern {
    do {
        return try Pattern(text: line, shape: shape)
    } catch {
        throw UsageError("the pattern on standard input: \(error)", command: command)
    }
}

/// Escape sequences in a value or file name must not reach the terminal raw.
func printError(_ message: String) {
    var text = Journal.escaped(message, keepingLines: true)
    if !text.hasSuffix("\n") { text += "\n" }
    try? FileDescriptor.standardError.writeAll(Array(text.utf8))
}

exitProcess(main())
