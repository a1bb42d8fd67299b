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

/// A fixed sequence of numbers (SplitMix64), so every run tries the same cases.
struct SeededNumbers {
    var state: UInt64

    mutating func next(_ range: ClosedRange<Int>) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return range.lowerBound + Int(z % UInt64(range.count))
    }

    /// Distinct nodes of a grid of `nodeCount`, in a shuffled order.
    mutating func stroke(nodeCount: Int) -> [Int] {
        var nodes = Array(0..<nodeCount)
        for index in stride(from: nodes.count - 1, to: 0, by: -1) { nodes.swapAt(index, next(0...index)) }
        return Array(nodes.prefix(next(1...nodeCount)))
    }
}
