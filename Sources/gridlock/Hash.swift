import GridlockArguments
import GridlockConfiguration
import GridlockCore
import GridlockDaemon
import LinuxSys

let hashCommand = Command(
    name: "hash",
    summary: "hash a pattern into a ready-to-paste [pattern NAME] section",
    usage: """
        Usage: gridlock hash [--name NAME] [--pattern 1-2-3-6-9] [--config FILE]
                             [--rows N --columns N] [--exec ARGV] [--benchmark]

        Reads a pattern (node numbers 1.. row by row, joined by '-') from --pattern or
        the first line of standard input, and prints a [pattern NAME] section with its
        argon2id hash (libsodium), to paste into a drop-in such as
        /etc/gridlock/gridlock.conf.d/50-NAME.conf.

        The hashed message is ROWSxCOLUMNS:PATTERN (e.g. 3x3:1-2-3-6-9), so any libsodium
        binding can make compatible hashes. The grid shape and the argon2 cost come from
        --config ([grid] rows/columns, [security] argon2-ops/argon2-mem) or the defaults;
        --rows and --columns override the shape.

        --rows N, --columns N   the grid shape, 2 to 8 each; one given alone keeps the
                                other from --config (or 3)
        --exec ARGV             adds the exec= line (systemd-style quoting); refused when
                                the config reader would read it otherwise than given (a
                                line break or another control character, whitespace at
                                either end, any Unicode space included, ';' after
                                whitespace) and when it is not UTF-8
        --benchmark             also print how long one verification takes on this
                                machine with these settings (what each attempt on the
                                panel costs)

        Exit status: 0, 64 for a bad option or pattern (also one on standard input), 78 when
        --config has errors.
        """
) { arguments in
    let name = try arguments.option("--name") ?? "main"
    let patternText = try arguments.option("--pattern")
    let configPath = try arguments.option("--config")
    let rows = try arguments.integer("--rows", in: GridShape.allowedDimensions)
    let columns = try arguments.integer("--columns", in: GridShape.allowedDimensions)
    let exec = try arguments.patternValue("--exec", key: "exec")
    let benchmark = arguments.flag("--benchmark")
    try arguments.finish()
    try checkPatternName(name, command: arguments.command)

    var config = GridlockConfig()
    if let configPath { config = try ConfigVerdict.loadSkippingFileSafety(path: configPath).config }
    if rows != nil || columns != nil {
        config.grid.shape = try GridShape(rows: rows ?? config.grid.shape.rows, columns: columns ?? config.grid.shape.columns)
    }

    let pattern: Pattern
    if let patternText {
        do {
            pattern = try Pattern(text: patternText, shape: config.grid.shape)
        } catch {
            throw UsageError(option: "--pattern", refusedBecause: error, command: arguments.command)
        }
    } else {
        guard let line = readLine(strippingNewline: true) else {
            throw UsageError("no pattern: give --pattern or write it on standard input", command: arguments.command)
        }
        pattern = try patternFromStandardInput(line, shape: config.grid.shape, command: arguments.command)
    }
    if pattern.count < config.grid.minNodes {
        printError("warning: \(pattern.count) nodes is fewer than min-nodes=\(config.grid.minNodes); the panel will refuse it as too short")
    }
    let hasher = try PatternHasher()
    let cost = config.argon2Cost
    let message = pattern.hashMessage(shape: config.grid.shape)
    let hash = try hasher.hash(message: message, cost: cost)

    printEscaped("[pattern \(name)]")
    printEscaped("grid=\(config.grid.shape)")
    printEscaped("hash=\(hash)")
    if let exec { printEscaped("exec=\(exec)") }
    if benchmark {
        var samples: [Double] = []
        for _ in 0..<5 {
            let watch = Stopwatch()
            _ = hasher.verify(hash: hash, message: message)
            samples.append(watch.elapsedMilliseconds)
        }
        samples.sort()
        printError("verify: median \(fixedDecimal(samples[2], decimals: 1)) ms, min \(fixedDecimal(samples[0], decimals: 1)) ms over 5 runs (argon2id, ops \(cost.opsLimit), memory \(cost.memoryKiB) KiB)")
    }
    return 0
}
