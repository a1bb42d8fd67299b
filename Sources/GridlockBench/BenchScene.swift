import GridlockCore

/// The benchmark scene, "pattern-lock frame" (described in docs/performance.md): a finger
/// dragged from node 1 through 2, 3, 6 and 9 as 240 evenly spaced moves, one frame per move;
/// a node is selected when the finger comes within the ring radius r = 0.12 cell of its centre.
public enum BenchScene {
    public static let moves = 240
    public static let sizes = [Size(width: 800, height: 480), Size(width: 1280, height: 800), Size(width: 1920, height: 1080)]
    static let route = [0, 1, 2, 5, 8]

    /// The scene's grid: a square of 0.8 min(W, H); hit radius = r = 0.12 cell, i.e. 0.24 of half a cell.
    public static func layout(size: Size) -> GridLayout {
        try! GridLayout(frame: Rect(origin: .zero, size: size), sizeFraction: 0.8, hitRadiusFraction: 0.24)
    }

    /// The 240 scenes, in order. The first move's predecessor is the touch-down scene.
    public static func scenes(size: Size) -> (initial: Scene, frames: [Scene]) {
        let layout = layout(size: size)
        let corners = route.map(layout.center(of:))
        var tracker = PatternTracker(layout: layout)
        tracker.down(at: corners[0])
        let initial = scene(tracker, layout)
        let segmentLength = layout.cell  // every leg of the route is one cell long
        let total = segmentLength * Double(corners.count - 1)
        var frames: [Scene] = []
        frames.reserveCapacity(moves)
        for i in 1...moves {
            let distance = total * Double(i) / Double(moves)
            let leg = min(corners.count - 2, Int(distance / segmentLength))
            let t = (distance - Double(leg) * segmentLength) / segmentLength
            let a = corners[leg], b = corners[leg + 1]
            tracker.move(to: Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
            frames.append(scene(tracker, layout))
        }
        return (initial, frames)
    }

    private static func scene(_ tracker: PatternTracker, _ layout: GridLayout) -> Scene {
        var scene = Scene(layout: layout, message: .none)
        for node in tracker.selected { scene.nodes[node] = .selected }
        scene.path = tracker.selected.map(layout.center(of:))
        scene.finger = tracker.finger
        return scene
    }
}
