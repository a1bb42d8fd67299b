import GridlockDaemon
import GridlockInput
import LinuxSys

let replayCommand = Command(
    name: "replay",
    summary: "run the daemon's logic on an evemu recording and print each outcome as JSON",
    usage: """
        Usage: gridlock replay --config FILE RECORDING.evemu [--frames DIR]

        Plays RECORDING (as written by evemu-record or gridlock record) through the same
        decoder, mapper, lock machine, verifier and actions as gridlockd, in virtual time:
        the recording's timestamps drive the clock, and timers and lockouts run out
        instantly. The [display] and [touch] backends of the config are ignored; the
        display size and rotation, calibration, grid, theme, patterns and actions are used.
        The state file is neither read nor written (a replay starts with no failures).

        Prints one JSON object per line, for example:
          {"event":"attempt","result":"accepted","pattern":"door","nodes":5,"time":3.120}
          {"event":"attempt","result":"rejected","nodes":4,"failures":1,"time":1.200}
          {"event":"attempt","result":"too-short","nodes":3,"time":0.800}
          {"event":"lockout","seconds":30,"failures":5,"time":9.000}
          {"event":"action","pattern":"door","status":0,"time":3.120}
        The drawn pattern is never printed.

          --frames DIR   write every presented frame to DIR/frame-NNNNN.png
        """
) { arguments in
    guard let configPath = try arguments.option("--config") else {
        throw UsageError("--config FILE is required", command: arguments.command)
    }
    let frames = try arguments.option("--frames")
    let recordingPath = try arguments.positionals(count: 1...1, names: "RECORDING.evemu")[0]
    let config = try ConfigVerdict.loadSkippingFileSafety(path: configPath).config
    // Streamed: a recording of millions of frames is replayed in constant memory.
    let events = try EvemuFileStream(path: recordingPath)
    if let frames { try Directory.create(frames) }
    let runner = try ReplayRunner(.init(config: config, events: events, framesDirectory: frames) { printEscaped($0) })
    try runner.run()
    return 0
}

/// A failure a command reports in plain words.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
