import GridlockDaemon

let checkConfigCommand = Command(
    name: "check-config",
    summary: "check a configuration and its drop-ins, as gridlockd would load them",
    usage: """
        Usage: gridlock check-config [--config FILE | FILE]

        Loads FILE (default /etc/gridlock/gridlock.conf) and FILE.d/*.conf exactly as
        gridlockd does and prints every problem as FILE:LINE: message.
        Exit status: 0 when the configuration is valid, 78 (EX_CONFIG) when it is not.
        """
) { arguments in
    let option = try arguments.option("--config")
    let positional = try arguments.positionals(count: 0...1, names: "FILE").first
    if option != nil, positional != nil {
        throw UsageError("give the file once, with --config or as an argument", command: arguments.command)
    }
    let path = option ?? positional ?? ConfigLoader.defaultPath
    let check = ConfigLoader.validateOnly(path: path)
    for diagnostic in check.diagnostics { printError(diagnostic.description) }
    if check.isValid {
        print("\(check.files.joined(separator: ", ")): OK")
        return 0
    }
    printError("\(check.diagnostics.count) problem(s) found")
    return 78
}
