import GridlockArguments
import GridlockConfiguration
import GridlockCore
import GridlockDaemon
import GridlockDisplay
import GridlockRendering

let renderCommand = Command(
    name: "render",
    summary: "draw one frame of the lock screen to a PNG (docs, theme checks)",
    usage: """
        Usage: gridlock render --out FILE.png [--config FILE] [--pattern 1-2-3]
                               [--state ready|drawing|verifying|error|too-short|success|locked-out]
                               [--size WxH]

        Draws the screen as gridlockd would show it in that state, with the config's grid,
        theme and show-path setting (defaults without --config). --size defaults to the
        config's [display] size (800x480), turned by its rotation.
        """
) { arguments in
    guard let out = try arguments.option("--out") else {
        throw UsageError("--out FILE.png is required", command: arguments.command)
    }
    let configPath = try arguments.option("--config")
    let patternText = try arguments.option("--pattern")
    let stateText = try arguments.option("--state") ?? (patternText == nil ? "ready" : "drawing")
    let sizeText = try arguments.option("--size")
    try arguments.finish()

    let config = try configPath.map { try ConfigVerdict.loadSkippingFileSafety(path: $0).config } ?? GridlockConfig()
    guard let state = PreviewState(rawValue: stateText) else {
        throw UsageError(
            option: "--state", value: stateText,
            expected: "one of " + PreviewState.allCases.map(\.rawValue).joined(separator: ", "), command: arguments.command)
    }
    var frame: Size
    if let sizeText {
        guard let size = parsePixelSize(sizeText) else {
            throw UsageError(option: "--size", value: sizeText, expected: "WxH from 1x1 to 16384x16384 (e.g. 800x480)", command: arguments.command)
        }
        frame = size
    } else {
        frame = config.display.logicalFrame
    }
    var nodes: [Int] = []
    if let patternText {
        do {
            nodes = try Pattern(text: patternText, shape: config.grid.shape).nodes
        } catch {
            throw UsageError(option: "--pattern", refusedBecause: error, command: arguments.command)
        }
    }
    let scene = Scene.preview(state, nodes: nodes, layout: config.gridLayout(frame: frame), settings: config.lockSettings)
    let renderer = try SceneRenderer(size: frame, theme: config.theme)
    renderer.render(scene, damage: nil)
    try PNGFile.write(renderer.buffer, to: out)
    printEscaped("\(out): \(Int(frame.width))x\(Int(frame.height)), \(state.rawValue)")
    return 0
}

func parsePixelSize(_ text: String) -> Size? {
    let parts = text.split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w), (1...16384).contains(h) else {
        return nil
    }
    return Size(width: Double(w), height: Double(h))
}
