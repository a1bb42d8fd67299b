import GridlockArguments
import GridlockCore
import GridlockDaemon
import GridlockDisplay
import GridlockRendering

let pixelCommand = Command(
    name: "pixel",
    summary: "print the colours of a PNG (a frame or a screenshot) at given points",
    usage: """
        Usage: gridlock pixel FILE.png X,Y [X,Y ...]

        Prints one line per point: X,Y #RRGGBB. For checking frames written by the png
        backend and screenshots of a panel in scripts, by sampling rather than comparing
        whole images.
        """
) { arguments in
    let values = try arguments.positionals(count: 2...1_000, names: "FILE.png X,Y")
    let image = try PNGFile.read(values[0])
    for point in values.dropFirst() {
        let parts = point.split(separator: ",")
        guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]) else {
            throw UsageError("'\(point)' is not X,Y", command: arguments.command)
        }
        guard (0..<image.width).contains(x), (0..<image.height).contains(y) else {
            throw CommandError("\(point) is outside the \(image.width)x\(image.height) image")
        }
        printEscaped("\(x),\(y) \(image.pixel(x: x, y: y))")
    }
    return 0
}
