import GridlockArguments
import GridlockDaemon
import GridlockDaemonPanel
import GridlockInput
import GridlockEvdev
import LinuxSys

let replayCommand = Command(
    name: "replay",
    summary: "run the daemon on an evemu recording, with the config's real actions and hooks; outcomes as JSON",
    usage: """
        Usage: gridlock replay --config FILE RECORDING.evemu [--frames DIR] [--state FILE]

        Runs gridlockd on RECORDING (as written by evemu-record or gridlock record): the
        same daemon, with the recording as its touch device and the recording's own time
        as its clock. The events keep their spacing; timers and lockouts fire at their
        moments between them and run out at once after the last. Drawn patterns are
        checked against the config's hashes, and actions and [on EVENT] hooks run as
        real programs with gridlockd's environment, output limits and timeouts. A check
        and an action take none of the recording's time; a hook does not hold it, and
        the replay ends only when every hook has ended (timeout=0 counts as 30 s).

        What differs from gridlockd:
          - [display] and [touch] backends are not used: the display size and rotation,
            calibration, grid, theme, patterns, actions and hooks are;
          - no beeper, no systemd notification, no adoption of orphaned processes;
          - the state file is read and written only with --state (without it a replay
            starts with no failures and no uses, and keeps none);
          - what gridlockd would log goes to standard error.

        Prints one JSON object per line, for example:
          {"event":"attempt","result":"accepted","pattern":"door","nodes":5,"time":3.120}
          {"event":"attempt","result":"rejected","nodes":4,"failures":1,"time":1.200}
          {"event":"attempt","result":"too-short","nodes":3,"time":0.800}
          {"event":"lockout","seconds":30,"failures":5,"time":9.000}
          {"event":"action","pattern":"door","status":0,"time":3.120}
        The drawn pattern is never printed.

          --frames DIR   write every presented frame to DIR/frame-NNNNN.png
          --state FILE   read and write FILE as gridlockd's state file (failures, lockout,
                         uses), for example a copy of /var/lib/gridlock/attempts; a file
                         a running gridlockd holds is refused (exit 75): replay a copy
        """
) { arguments in
    guard let configPath = try arguments.option("--config") else {
        throw UsageError("--config FILE is required", command: arguments.command)
    }
    let frames = try arguments.option("--frames")
    let statePath = try arguments.option("--state")
    let recordingPath = try arguments.positionals(count: 1...1, names: "RECORDING.evemu")[0]
    let config = try ConfigVerdict.loadSkippingFileSafety(path: configPath).config
    // Streamed: a recording of millions of frames is replayed in constant memory.
    let events = try EvemuFileStream(path: recordingPath)
    if let frames { try Directory.create(frames) }
    var options = ReplayRunner.Options(config: config, events: events, framesDirectory: frames) { printEscaped($0) }
    options.configPath = configPath
    options.statePath = statePath
    let runner = try ReplayRunner(options)
    try runner.run()
    return 0
}

/// A failure a command reports in plain words.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
