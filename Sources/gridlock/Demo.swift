import GridlockArguments
import GridlockCore
import GridlockDaemon
import GridlockDaemonPanel
import GridlockDisplay
import GridlockRendering
import LinuxSys

let demoCommand = Command(
    name: "demo",
    summary: "the whole pipeline on a recorded gesture, no hardware needed",
    usage: """
        Usage: gridlock demo [--out DIR] [--data DIR]

        Replays a recording of a finger on a 7" panel (a wrong pattern, then the right
        one) through gridlockd's pipeline with the bundled example configuration, and
        writes into DIR (default ./demo-out):
          frames/frame-NNNNN.png   every frame the panel would have shown
          outcomes.jsonl           the outcome lines also printed here
          summary.png              key frames on one page
        The demo's unlock action prints what a door relay action would do.

        --data DIR   where gridlock.conf and the recording are (default: examples/demo
                     in the current folder, else the installed share/gridlock/demo);
                     examples/themes/harbour is the themed example, the same gesture
                     drawn with theme images
        """
) { arguments in
    let out = try arguments.option("--out") ?? "demo-out"
    let data = try arguments.option("--data") ?? findDemoData()
    try arguments.finish()

    let configPath = "\(data)/gridlock.conf"
    let config = try ConfigVerdict.loadSkippingFileSafety(path: configPath).config
    guard case .path(let recordingPath) = config.touch.device else {
        throw CommandError("\(configPath): the demo needs [touch] device=FILE.evemu")
    }
    let recording = try DaemonParts.loadRecording(recordingPath)
    let framesDirectory = "\(out)/frames"
    try Directory.create(framesDirectory)
    removeFrames(in: framesDirectory)

    printEscaped("gridlock demo: replaying \(recordingPath)")
    printEscaped("  with \(configPath) (\(config.patterns.count) enrolled pattern(s), grid \(config.grid.shape))")
    var lines: [String] = []
    var scenes: [Scene] = []
    var options = ReplayRunner.Options(config: config, recording: recording, framesDirectory: framesDirectory) { line in
        printEscaped(line)
        lines.append(line)
    }
    options.onPresent = { scenes.append($0) }
    let runner = try ReplayRunner(options)
    try runner.run()
    try AtomicFile.write(Array(lines.map { $0 + "\n" }.joined().utf8), to: "\(out)/outcomes.jsonl", mode: 0o644)

    let keys = keyFrames(scenes)
    let entries = try keys.map { index, caption in
        ContactSheet.Entry(frame: try PNGFile.read(PNGOutput.framePath(in: framesDirectory, index: index)), caption: caption)
    }
    let sheet = try ContactSheet(columns: 4, thumbnailSize: 300).compose(entries)
    try PNGFile.write(sheet, to: "\(out)/summary.png")
    printEscaped("wrote \(scenes.count) frames to \(framesDirectory)/, \(out)/outcomes.jsonl and \(out)/summary.png (\(keys.count) key frames)")
    return 0
}

func findDemoData() -> String {
    let candidates = ["examples/demo", siblingExecutable("../share/gridlock/demo")]
    return candidates.first { (try? AtomicFile.read("\($0)/gridlock.conf")) != nil } ?? candidates[0]
}

/// Frames from an earlier run would mix with this one's.
func removeFrames(in directory: String) {
    var index = 0
    while unlinkIfPresent(PNGOutput.framePath(in: directory, index: index)) { index += 1 }
}

/// The frames worth a look: the first, and around every change of message, the last frame
/// before it (the fullest drawing) and the first after it.
func keyFrames(_ scenes: [Scene]) -> [(Int, String)] {
    guard !scenes.isEmpty else { return [] }
    var picked: [(Int, String)] = [(0, caption(scenes[0]))]
    for i in scenes.indices.dropFirst() where scenes[i].message != scenes[i - 1].message {
        if !scenes[i - 1].path.isEmpty, picked.last?.0 != i - 1 { picked.append((i - 1, caption(scenes[i - 1]))) }
        picked.append((i, caption(scenes[i])))
    }
    return picked.enumerated().map { n, entry in (entry.0, "\(n + 1). \(entry.1) (frame \(entry.0 + 1))") }
}

func caption(_ scene: Scene) -> String {
    switch scene.message {
    case .prompt, .none: scene.path.isEmpty ? "ready" : "drawing"
    case .verifying: "checking"
    case .wrong: "wrong pattern"
    case .tooShort: "too short"
    case .lockedOut(let s): "locked out (\(s) s)"
    case .cannotRecord: "out of service"
    case .serviceUnavailable: "no service"
    case .busy: "busy"
    case .success: "unlocked"
    case .enrollDraw, .enrollConfirm, .enrollMismatch, .enrollSaved: "enrolling"
    case .calibrate: "calibrating"
    }
}
