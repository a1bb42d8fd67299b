import GridlockConfiguration
import GridlockDaemon
import LinuxSys

let usage = """
    Usage: gridlockd [--config FILE]

    The gridlock lock screen daemon: checks drawn patterns against the configured
    hashes, counts failures, locks out and runs the unlock action. Normally started by
    systemd (gridlockd.service).

    As the verifier alone ([display] and [touch] backend=none) it serves lock faces on
    its session socket (gridlock-panel on the panel, gridlock-lock in a Wayland session)
    and links no display, touch, font or image library. Given a display, a touchscreen
    or a beeper path of its own, or a --bench option, it runs gridlockd-single in its
    place (same process, same options), which also draws the grid and reads the touch
    panel, as root.
    """ + "\n\n" + DaemonCommandLine.options

func main() -> Int32 {
    let (configPath, role): (String, Daemon.Role)
    switch DaemonCommandLine.read(Array(CommandLine.arguments.dropFirst()), command: "gridlockd", usage: usage) {
    case .run(let path, let wanted): (configPath, role) = (path, wanted)
    case .exit(let status): return status
    }
    if role != .lock { return runSingleProcess(because: "a benchmark draws") }
    guard let loaded = DaemonCommandLine.verdict(configPath) else { return 78 }
    // Judged again there, with the look decoded: the verdict that decides is that one.
    if Daemon.needsItsOwnPanel(loaded.config, role: role) {
        return runSingleProcess(because: "the configuration gives it a display, a touchscreen or a beeper of its own")
    }
    for warning in loaded.warnings { Journal.log(.warning, warning.description) }
    do {
        let options = Daemon.Options(configPath: configPath, role: role)
        return try Daemon(options: options, config: loaded.config, parts: DaemonParts(verifierFor: loaded.config, options: options)).run()
    } catch {
        Journal.log(.error, error.description)
        return error.exitStatus
    }
}

/// gridlockd-single in this process's place, with the same options and name, where
/// `SingleProcessPath` finds it. Returns only when it cannot be run.
func runSingleProcess(because reason: String) -> Int32 {
    let candidates = SingleProcessPath.candidates(besides: (try? ProcessImage.executablePath()) ?? CommandLine.arguments[0])
    guard let single = candidates.first(where: PathLookup.exists) else {
        Journal.log(.critical, "\(reason), which takes gridlockd-single, and it is not installed (\(candidates.joined(separator: ", "))); nothing is checked: reinstall gridlock, or make gridlockd the verifier alone ([display] and [touch] backend=none)")
        return 69
    }
    Journal.log(.info, "\(reason): running \(single) in gridlockd's place")
    do {
        try ProcessImage.replace(with: single, arguments: CommandLine.arguments)
    } catch {
        Journal.log(.critical, "cannot run \(single): \(error); nothing is checked")
        return 69
    }
}

exitProcess(main())
