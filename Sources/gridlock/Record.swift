import GridlockArguments
import GridlockCore
import GridlockDaemon
import GridlockInput
import GridlockEvdev
import LinuxSys

let recordCommand = Command(
    name: "record",
    summary: "record a touch device's events as an evemu file for replay and bug reports",
    usage: """
        Usage: gridlock record [--device PATH] [--duration SECONDS] OUT.evemu

        Writes the device's description and then its events, as they arrive, in the
        evemu text format: `evemu-play` plays it into a uinput device and
        `gridlock replay --config FILE OUT.evemu` runs the daemon's logic on it.
        Stops on Ctrl-C (SIGINT), SIGTERM, after --duration, or when the device goes away.

          --device PATH       the device node or a by-path/by-id link; default: the one
                              [touch] device=auto would choose (see gridlock devices)
          --duration SECONDS  stop after this long (0.001 to 86400; fractions allowed)

        gridlockd grabs its device: stop it first (systemctl stop gridlockd), or
        nothing reaches the recording.
        """
) { arguments in
    let devicePath = try arguments.option("--device")
    let duration = try arguments.seconds("--duration", in: 0.001...86_400)
    let out = try arguments.positionals(count: 1...1, names: "OUT.evemu")[0]

    let path: String
    if let devicePath {
        path = try PathLookup.resolve(devicePath)
    } else {
        let selection = DeviceSelection(.auto, among: try InputDeviceDirectory.scan(InputDeviceDirectory.defaultPath))
        guard let chosen = selection.chosen else {
            let skipped = selection.logLines.dropFirst().joined(separator: "\n")
            throw CommandError(
                "no touchscreen in \(InputDeviceDirectory.defaultPath); name one with --device PATH (see gridlock devices)"
                    + (skipped.isEmpty ? "" : "\n" + skipped))
        }
        path = chosen.path
    }
    // Ctrl-C and SIGTERM end the recording cleanly from here on.
    let recorder = try TouchRecorder(path: path, stopSignals: [.interrupt, .terminate])
    if recorder.grabbedElsewhere {
        printError("warning: another process holds \(path) (EVIOCGRAB): no events will arrive; stop gridlockd first (find the holder with `fuser -v \(path)`)")
    }
    let output = try FileDescriptor.open(out, [.writeOnly, .create, .truncate], mode: 0o644)
    defer { output.close() }
    printError("recording \(path) \"\(recorder.device.description.name)\" to \(out); Ctrl-C stops")
    let summary = try recorder.record(to: output, duration: duration)
    try output.fsync()
    var line = "recorded \(summary.events) events in \(summary.frames) frames"
    if summary.drops > 0 { line += "; events were dropped \(summary.drops) time(s) (SYN_DROPPED)" }
    if let lost = summary.lostWith { line += "; the device went away: \(lost)" }
    printError(line)
    return 0
}
