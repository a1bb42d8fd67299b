@testable import GridlockCore

/// An 800 x 480 frame, the size of a typical 7-inch panel.
let panel = Rect(x: 0, y: 0, width: 800, height: 480)

func layout(_ rows: Int = 3, _ columns: Int = 3, frame: Rect = panel) -> GridLayout {
    try! GridLayout(shape: try! GridShape(rows: rows, columns: columns), frame: frame)
}

/// Samples along the polyline through `points`, no further apart than `spacing`,
/// as a touch controller reports a finger dragged along it.
func samples(along points: [Point], spacing: Double) -> [Point] {
    guard var previous = points.first else { return [] }
    var result = [previous]
    for next in points.dropFirst() {
        let steps = max(1, Int((previous.distance(to: next) / spacing).rounded(.up)))
        for k in 1...steps {
            let t = Double(k) / Double(steps)
            result.append(Point(x: previous.x + (next.x - previous.x) * t, y: previous.y + (next.y - previous.y) * t))
        }
        previous = next
    }
    return result
}

/// Drags a finger through the centres of `nodes` (1-based) and returns the tracker's selection (1-based).
func drag(_ nodes: [Int], on layout: GridLayout, spacing: Double) -> [Int] {
    var tracker = PatternTracker(layout: layout)
    let points = samples(along: nodes.map { layout.center(of: $0 - 1) }, spacing: spacing)
    tracker.down(at: points[0])
    for p in points.dropFirst() { tracker.move(to: p) }
    return tracker.up().map { $0 + 1 }
}
