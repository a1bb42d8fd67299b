/// Turns one finger's down / move / up into the ordered nodes it selected.
///
/// Rules (Android's, generalised to any grid):
/// - a stroke starts at the first node the finger enters; touching between nodes selects nothing;
/// - a node is selected at most once; crossing a selected node again changes nothing;
/// - reaching a new node first selects the unselected nodes lying exactly on the straight
///   segment from the previous node to it, in order (on 3 x 3, 1 -> 3 selects 2);
/// - the segment between consecutive samples is tested against every hit circle, so a fast
///   swipe that jumps over a circle between two samples still selects it, in crossing order.
///
/// The move path does not allocate: buffers are reserved once for the grid's node count.
public struct PatternTracker: Sendable {
    public private(set) var layout: GridLayout
    /// Selected nodes in order. Capacity is reserved for every node of the grid.
    public private(set) var selected: [Int]
    /// The finger's last position while it is down.
    public private(set) var finger: Point?

    private var selectedMask: UInt64 = 0
    /// Scratch for the hit circles one segment crosses: (entry parameter along the segment, node).
    private var crossings: [(t: Double, node: Int)]

    public init(layout: GridLayout) {
        self.layout = layout
        selected = []
        selected.reserveCapacity(layout.shape.nodeCount)
        crossings = []
        crossings.reserveCapacity(layout.shape.nodeCount)
    }

    public var isTouching: Bool { finger != nil }

    public func isSelected(_ node: Int) -> Bool { selectedMask & (1 << UInt64(node)) != 0 }

    /// The selection so far as a pattern (nil while nothing is selected).
    public var pattern: Pattern? {
        selected.isEmpty ? nil : try? Pattern(nodes: selected, shape: layout.shape)
    }

    /// Starts a stroke. Returns true when the selection changed.
    @discardableResult
    public mutating func down(at point: Point) -> Bool {
        clear()
        finger = point
        return sweep(from: point, to: point)
    }

    /// Follows the finger. Returns true when the selection changed. Ignored without a `down`.
    @discardableResult
    public mutating func move(to point: Point) -> Bool {
        guard let last = finger else { return false }
        finger = point
        return sweep(from: last, to: point)
    }

    /// Ends the stroke and returns the selected nodes (possibly empty).
    public mutating func up() -> [Int] {
        let result = selected
        clear()
        return result
    }

    /// Discards the stroke.
    public mutating func cancel() { clear() }

    /// Moves the grid (a new display mode or config); any stroke is discarded.
    public mutating func relayout(_ layout: GridLayout) {
        self.layout = layout
        selected.reserveCapacity(layout.shape.nodeCount)
        crossings.reserveCapacity(layout.shape.nodeCount)
        clear()
    }

    private mutating func clear() {
        selected.removeAll(keepingCapacity: true)
        selectedMask = 0
        finger = nil
    }

    /// Selects every unselected node whose hit circle the segment a -> b enters, in entry order.
    private mutating func sweep(from a: Point, to b: Point) -> Bool {
        crossings.removeAll(keepingCapacity: true)
        let r = layout.hitRadius
        let box = Rect(enclosing: a, b).outset(by: r)
        for node in 0..<layout.shape.nodeCount where !isSelected(node) {
            let c = layout.center(of: node)
            guard c.x >= box.minX, c.x <= box.maxX, c.y >= box.minY, c.y <= box.maxY else { continue }
            if let t = Self.entryParameter(from: a, to: b, center: c, radius: r) {
                // Insertion keeps the scratch sorted without allocating.
                var i = crossings.count
                crossings.append((t, node))
                while i > 0, crossings[i - 1].t > t {
                    crossings.swapAt(i - 1, i)
                    i -= 1
                }
            }
        }
        guard !crossings.isEmpty else { return false }
        let before = selected.count
        for i in crossings.indices {
            select(crossings[i].node)
        }
        return selected.count != before
    }

    private mutating func select(_ node: Int) {
        guard !isSelected(node) else { return }
        if let previous = selected.last {
            PatternRules.forEachNodeBetween(previous, node, shape: layout.shape) { between in
                if !isSelected(between) { mark(between) }
            }
        }
        mark(node)
    }

    private mutating func mark(_ node: Int) {
        selected.append(node)
        selectedMask |= 1 << UInt64(node)
    }

    /// Where along a -> b (0...1) the segment first comes within `radius` of `center`, or nil.
    static func entryParameter(from a: Point, to b: Point, center: Point, radius: Double) -> Double? {
        let fx = a.x - center.x, fy = a.y - center.y
        let c = fx * fx + fy * fy - radius * radius
        if c <= 0 { return 0 }  // starts inside
        let dx = b.x - a.x, dy = b.y - a.y
        let qa = dx * dx + dy * dy
        guard qa > 0 else { return nil }
        let qb = 2 * (fx * dx + fy * dy)
        let discriminant = qb * qb - 4 * qa * c
        guard discriminant >= 0 else { return nil }
        let t = (-qb - discriminant.squareRoot()) / (2 * qa)
        return (0...1).contains(t) ? t : nil
    }
}
