/// The regions of the frame that differ between two scenes. Each rectangle already
/// includes stroke width and antialiasing, so every pixel that differs lies inside it.
/// (Redrawing only there gives exactly the pixels of a full redraw when the renderer
/// clips on a fixed grid of squares, as `SceneRenderer` does: clipping cairo straight to
/// arbitrary rectangles shifts antialiasing at the clip edges by a few levels.)
public struct Damage: Hashable, Sendable {
    public private(set) var rects: [Rect]

    public init(rects: [Rect] = []) {
        self.rects = []
        for rect in rects { add(rect) }
    }

    public static func full(_ frame: Rect) -> Damage { Damage(rects: [frame]) }

    public var isEmpty: Bool { rects.isEmpty }

    /// One rectangle holding all damage (for a buffer's bookkeeping, where one box is enough).
    public var bounds: Rect { rects.reduce(Rect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) } }

    /// Adds a rectangle, absorbing it into an existing one that contains it (and vice versa)
    /// so the list stays short without growing small regions into large ones.
    public mutating func add(_ rect: Rect) {
        guard !rect.isEmpty else { return }
        if rects.contains(where: { $0.contains(rect) }) { return }
        rects.removeAll { rect.contains($0) }
        rects.append(rect)
    }

    public mutating func formUnion(_ other: Damage) {
        for rect in other.rects { add(rect) }
    }

    /// Clipped to `frame`, on whole pixels.
    public func clipped(to frame: Rect) -> Damage {
        Damage(rects: rects.compactMap { $0.integral.intersection(frame) })
    }

    /// What must be redrawn to turn `old` into `new`, drawn with the sizes of `geometry`
    /// (the theme's: node images and rings of `nodeSize`, a path of `lineWidth`). A
    /// background image never changes between scenes, so it adds no damage.
    public static func between(_ old: Scene?, _ new: Scene, geometry: SceneGeometry = .standard) -> Damage {
        let frame = new.layout.frame
        // Showing or hiding the grid (calibration) changes everything.
        guard let old, old.layout == new.layout, (old.target == nil) == (new.target == nil) else { return .full(frame) }
        let metrics = new.metrics(geometry)
        var damage = Damage()
        if old.target != new.target {
            if let t = old.target { damage.add(metrics.targetBounds(center: t)) }
            if let t = new.target { damage.add(metrics.targetBounds(center: t)) }
        }

        for node in new.nodes.indices where old.nodes[node] != new.nodes[node] {
            damage.add(metrics.nodeBounds(center: new.layout.center(of: node)))
        }

        // Segments are equal up to the first differing path point; everything after it
        // changed in one scene or the other. A new look repaints the whole path.
        let common: Int
        if old.pathLook != new.pathLook {
            common = 0
        } else {
            common = zip(old.path, new.path).prefix { $0 == $1 }.count
        }
        for scene in [old, new] {
            let path = scene.path
            if path.count >= 2 {
                for i in max(1, common)..<path.count {
                    damage.add(metrics.segmentBounds(path[i - 1], path[i]))
                }
            }
            if common == 0, path.count == 1 {
                damage.add(metrics.segmentBounds(path[0], path[0]))
            }
        }

        let oldFinger = old.fingerSegment, newFinger = new.fingerSegment
        if oldFinger != newFinger || old.pathLook != new.pathLook {
            if let (a, b) = oldFinger { damage.add(metrics.segmentBounds(a, b)) }
            if let (a, b) = newFinger { damage.add(metrics.segmentBounds(a, b)) }
        }

        if old.message != new.message {
            damage.add(metrics.messageBand)
        }
        return damage.clipped(to: frame)
    }
}

extension Scene {
    /// The line from the last selected node to the finger, if one is drawn.
    var fingerSegment: (Point, Point)? {
        guard let finger, let last = path.last else { return nil }
        return (last, finger)
    }
}

private func != (a: (Point, Point)?, b: (Point, Point)?) -> Bool {
    switch (a, b) {
    case (nil, nil): false
    case let (x?, y?): x.0 != y.0 || x.1 != y.1
    default: true
    }
}
