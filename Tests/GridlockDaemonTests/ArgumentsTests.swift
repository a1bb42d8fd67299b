import GridlockConfiguration
import GridlockArguments
import GridlockDaemon
import Testing

/// The command-line reader of `gridlock` and `gridlockd`: a bad option is a usage error (exit
/// status 64) that names the option and, where there is one, the value given.
struct ArgumentsTests {
    private func arguments(_ words: String...) -> Arguments {
        Arguments(words, command: "gridlock calibrate")
    }

    private func usageError(_ message: String) -> UsageError {
        UsageError(message, command: "gridlock calibrate")
    }

    @Test("a whole number is read from --name N and --name=N; an absent option is nil")
    func integerValue() throws {
        var spaced = arguments("--timeout", "30", "--dry-run")
        let timeout = try spaced.integer("--timeout", in: 1...3600)
        let dryRun = spaced.flag("--dry-run")
        try spaced.finish()
        #expect(timeout == 30)
        #expect(dryRun)

        var joined = arguments("--timeout=3600")
        let longest = try joined.integer("--timeout", in: 1...3600)
        #expect(longest == 3600)
        var absent = arguments()
        let none = try absent.integer("--timeout", in: 1...3600)
        #expect(none == nil)
    }

    @Test("--timeout abc is a usage error naming the option and the value, not the default")
    func integerNotANumber() {
        var words = arguments("--timeout", "abc")
        #expect(throws: usageError("--timeout: expected a whole number from 1 to 3600, got 'abc'")) {
            _ = try words.integer("--timeout", in: 1...3600)
        }
    }

    @Test("--timeout with no value is a usage error naming the option")
    func integerMissingValue() {
        var words = arguments("--timeout")
        #expect(throws: usageError("--timeout needs a value")) {
            _ = try words.integer("--timeout", in: 1...3600)
        }
    }

    @Test("a number outside the range is a usage error naming the option, the value and the range",
          arguments: ["0", "3601", "-5", "1.5", ""])
    func integerOutOfRange(value: String) {
        var words = arguments("--timeout=\(value)")
        #expect(throws: usageError("--timeout: expected a whole number from 1 to 3600, got '\(value)'")) {
            _ = try words.integer("--timeout", in: 1...3600)
        }
    }

    @Test("seconds may have a fraction and must lie in the range")
    func secondsValue() throws {
        var half = arguments("--duration", "0.5")
        let duration = try half.seconds("--duration", in: 0.001...86_400)
        #expect(duration == .milliseconds(500))
        for bad in ["0", "-1", "nan", "inf", "1e6", "soon"] {
            var words = arguments("--duration", bad)
            #expect(throws: usageError("--duration: expected a number of seconds from 0.001 to 86400, got '\(bad)'")) {
                _ = try words.seconds("--duration", in: 0.001...86_400)
            }
        }
    }

    @Test("a value its checker refuses is a usage error naming the option and the reason")
    func checkedValue() throws {
        var good = arguments("--exec", "/bin/true")
        let exec = try good.option("--exec") { text throws(ArgvError) in _ = try ArgvSplitter.split(text) }
        #expect(exec == "/bin/true")

        var bad = arguments("--exec", "/bin/echo 'open")
        #expect(throws: usageError("--exec: \(ArgvError.unbalancedQuote("'"))")) {
            _ = try bad.option("--exec") { text throws(ArgvError) in _ = try ArgvSplitter.split(text) }
        }
    }

    @Test("an unknown option and a stray argument are usage errors naming them")
    func leftovers() {
        var unknown = arguments("--timout", "5")
        #expect(throws: usageError("unknown option --timout")) { try unknown.finish() }
        var stray = arguments("extra")
        #expect(throws: usageError("unexpected argument extra")) { try stray.finish() }
    }

    @Test("an option with an optional choice: alone is the bare value, a choice after it is taken, another word is left")
    func optionalChoice() throws {
        let choices = ["auto", "perf", "callgrind"]
        var alone = arguments("--instructions", "--json")
        let bare = try alone.optionalChoice("--instructions", choices, bare: "auto")
        let json = alone.flag("--json")
        try alone.finish()
        #expect(bare == "auto")
        #expect(json)
        var spaced = arguments("--instructions", "callgrind")
        let named = try spaced.optionalChoice("--instructions", choices, bare: "auto")
        try spaced.finish()
        #expect(named == "callgrind")
        var joined = arguments("--instructions=perf")
        let joinedValue = try joined.optionalChoice("--instructions", choices, bare: "auto")
        #expect(joinedValue == "perf")
        var absent = arguments("--json")
        let none = try absent.optionalChoice("--instructions", choices, bare: "auto")
        #expect(none == nil)
        var other = arguments("--instructions", "cycles")
        let beforeOther = try other.optionalChoice("--instructions", choices, bare: "auto")
        #expect(beforeOther == "auto")
        #expect(throws: usageError("unexpected argument cycles")) { try other.finish() }
        var wrong = arguments("--instructions=cycles")
        #expect(throws: usageError("--instructions: expected one of auto, perf, callgrind, got 'cycles'")) {
            _ = try wrong.optionalChoice("--instructions", choices, bare: "auto")
        }
    }

    @Test("the printed form names the command and points to --help")
    func description() {
        #expect(usageError("--timeout needs a value").description
            == "gridlock calibrate: --timeout needs a value\nTry 'gridlock calibrate --help'.")
    }
}
