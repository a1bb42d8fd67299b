/// The lattice rule that generalises Android's "1 -> 3 passes through 2" to any grid:
/// the nodes lying exactly on the straight segment between two nodes.
public enum PatternRules {
    /// Grid nodes strictly between `from` and `to` on the straight segment, in order from `from`.
    /// Calls `body` for each instead of returning an array, so the tracker's move path allocates nothing.
    @inlinable
    public static func forEachNodeBetween(_ from: Int, _ to: Int, shape: GridShape, _ body: (Int) -> Void) {
        let dr = shape.row(of: to) - shape.row(of: from)
        let dc = shape.column(of: to) - shape.column(of: from)
        let steps = greatestCommonDivisor(abs(dr), abs(dc))
        guard steps > 1 else { return }
        let r0 = shape.row(of: from), c0 = shape.column(of: from)
        for k in 1..<steps {
            body(shape.node(row: r0 + k * dr / steps, column: c0 + k * dc / steps))
        }
    }

    @inlinable
    static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// True when `pattern` could have been drawn: every node skipped over by a step is
    /// already selected earlier (otherwise the tracker would have selected it in between).
    public static func isDrawable(_ pattern: Pattern, shape: GridShape) -> Bool {
        var selected: UInt64 = 0
        var previous: Int?
        for node in pattern.nodes {
            if let previous {
                var ok = true
                forEachNodeBetween(previous, node, shape: shape) { if selected & (1 << UInt64($0)) == 0 { ok = false } }
                if !ok { return false }
            }
            selected |= 1 << UInt64(node)
            previous = node
        }
        return true
    }

    /// Counts drawable patterns of every length in `lengths` by depth-first search.
    /// For 3 x 3 and lengths 4...9 this is 389,112, the known number of Android unlock patterns.
    public static func countDrawablePatterns(shape: GridShape, lengths: ClosedRange<Int>) -> Int {
        var total = 0
        forEachDrawablePattern(shape: shape, lengths: lengths) { _ in total += 1 }
        return total
    }

    /// Visits every drawable pattern whose length is in `lengths`. The array passed to `body`
    /// is reused between calls; copy it to keep it.
    public static func forEachDrawablePattern(
        shape: GridShape, lengths: ClosedRange<Int>, _ body: ([Int]) -> Void
    ) {
        var path: [Int] = []
        path.reserveCapacity(shape.nodeCount)
        func extend(_ selected: UInt64) {
            if lengths.contains(path.count) { body(path) }
            guard path.count < lengths.upperBound else { return }
            for next in 0..<shape.nodeCount where selected & (1 << UInt64(next)) == 0 {
                if let last = path.last {
                    var blocked = false
                    forEachNodeBetween(last, next, shape: shape) { if selected & (1 << UInt64($0)) == 0 { blocked = true } }
                    if blocked { continue }
                }
                path.append(next)
                extend(selected | 1 << UInt64(next))
                path.removeLast()
            }
        }
        extend(0)
    }
}
