import Testing
@testable import GridlockCore

@Suite struct PatternTrackerTests {
    @Test("there are 389112 drawable patterns on three by three") func thereAre389112DrawablePatternsOnThreeByThree() {
        #expect(PatternRules.countDrawablePatterns(shape: .standard, lengths: 4...9) == 389_112)
        // Every length separately, as published for Android's lock screen.
        let perLength = (4...9).map { PatternRules.countDrawablePatterns(shape: .standard, lengths: $0...$0) }
        #expect(perLength == [1624, 7152, 26016, 72912, 140704, 140704])
    }

    /// Every valid pattern, dragged through its node centres at a quarter-cell sample spacing,
    /// comes back exactly.
    @Test("every three by three pattern is tracked exactly") func everyThreeByThreePatternIsTrackedExactly() {
        let grid = layout()
        var tracker = PatternTracker(layout: grid)
        var failures: [[Int]] = []
        var checked = 0
        let centres = (0..<9).map(grid.center(of:))
        PatternRules.forEachDrawablePattern(shape: .standard, lengths: 4...9) { nodes in
            checked += 1
            tracker.down(at: centres[nodes[0]])
            for (from, to) in zip(nodes, nodes.dropFirst()) {
                let a = centres[from], b = centres[to]
                let steps = max(1, Int((a.distance(to: b) / (grid.cell / 4)).rounded(.up)))
                for k in 1...steps {
                    let t = Double(k) / Double(steps)
                    tracker.move(to: Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
                }
            }
            let got = tracker.up()
            if got != nodes, failures.count < 5 { failures.append(nodes) }
        }
        #expect(checked == 389_112)
        #expect(failures.isEmpty, "patterns not tracked: \(failures)")
    }

    @Test("gap fill selects nodes on the segment", arguments: [
        // (rows, columns, dragged through, expected selection) — 1-based, row-major.
        (3, 3, [1, 3], [1, 2, 3]),
        (3, 3, [1, 9], [1, 5, 9]),
        (3, 3, [7, 3], [7, 5, 3]),
        (3, 3, [1, 8], [1, 8]),  // a knight's move passes no node
        (3, 3, [2, 8], [2, 5, 8]),
        (3, 3, [5, 1, 9], [5, 1, 9]),  // 5 is already selected when 1 -> 9 crosses it
        (4, 4, [1, 4], [1, 2, 3, 4]),
        (4, 4, [1, 16], [1, 6, 11, 16]),
        (4, 4, [1, 7], [1, 7]),  // (0,0) -> (1,2): no lattice point between, nothing crossed
        // (0,0) -> (2,3) has no lattice point between, but passes 0.28 cell from nodes 6 and 7,
        // inside their 0.3-cell hit circles: the finger really crosses them.
        (4, 4, [1, 12], [1, 6, 7, 12]),
        (4, 4, [13, 4], [13, 10, 7, 4]),
        (5, 5, [1, 25], [1, 7, 13, 19, 25]),
        (5, 5, [1, 15], [1, 8, 15]),  // (0,0) -> (2,4) passes (1,2)
        (5, 5, [21, 3], [21, 12, 3]),  // (4,0) -> (0,2) passes (2,1)
    ])
    func gapFillSelectsNodesOnTheSegment(rows: Int, columns: Int, through: [Int], expected: [Int]) {
        let grid = layout(rows, columns)
        // A sample spacing far larger than any hit circle: only the segment test can find the nodes.
        #expect(drag(through, on: grid, spacing: 10_000) == expected)
        #expect(drag(through, on: grid, spacing: grid.cell / 5) == expected)
    }

    @Test("a fast swipe selects crossed nodes in crossing order") func aFastSwipeSelectsCrossedNodesInCrossingOrder() {
        let grid = layout()
        var tracker = PatternTracker(layout: grid)
        // Start on node 4, then one sample far right of node 6 on the same row: crosses 5 then 6.
        tracker.down(at: grid.center(of: 3))
        tracker.move(to: Point(x: grid.bounds.maxX + 50, y: grid.center(of: 3).y + 10))
        #expect(tracker.selected == [3, 4, 5])
    }

    @Test("a swipe that grazes a hit circle selects it") func aSwipeThatGrazesAHitCircleSelectsIt() {
        let grid = layout()
        var tracker = PatternTracker(layout: grid)
        let c1 = grid.center(of: 0), c2 = grid.center(of: 1)
        tracker.down(at: c1)
        // Passes node 2 at 0.9 of its hit radius, between two samples well outside it.
        let y = c2.y + 0.9 * grid.hitRadius
        tracker.move(to: Point(x: c2.x - grid.cell * 0.45, y: y))
        tracker.move(to: Point(x: c2.x + grid.cell * 0.45, y: y))
        #expect(tracker.selected == [0, 1])
    }

    @Test("a touch between nodes starts nothing until it reaches one") func aTouchBetweenNodesStartsNothingUntilItReachesOne() {
        let grid = layout()
        var tracker = PatternTracker(layout: grid)
        let between = Point(x: (grid.center(of: 0).x + grid.center(of: 1).x) / 2, y: grid.center(of: 0).y - grid.cell / 2.2)
        tracker.down(at: between)
        #expect(tracker.selected.isEmpty)
        #expect(tracker.isTouching)
        tracker.move(to: grid.center(of: 4))
        // The first node is where the finger entered; no gap fill before it.
        #expect(tracker.selected == [4])
    }

    @Test("a node is selected only once") func aNodeIsSelectedOnlyOnce() {
        let grid = layout()
        #expect(drag([1, 2, 3, 2, 5], on: grid, spacing: 10) == [1, 2, 3, 5])
    }

    @Test("cancel discards the stroke") func cancelDiscardsTheStroke() {
        let grid = layout()
        var tracker = PatternTracker(layout: grid)
        tracker.down(at: grid.center(of: 0))
        tracker.move(to: grid.center(of: 1))
        tracker.cancel()
        #expect(!tracker.isTouching)
        let afterCancel = tracker.up()
        #expect(afterCancel.isEmpty)
        let moved = tracker.move(to: grid.center(of: 2))
        #expect(!moved)
    }

    @Test("move path keeps its reserved storage") func movePathKeepsItsReservedStorage() {
        let grid = layout()
        var tracker = PatternTracker(layout: grid)
        tracker.down(at: grid.center(of: 0))
        let before = tracker.selected.capacity
        for p in samples(along: [0, 1, 2, 5, 8, 7, 6, 3, 4].map(grid.center(of:)), spacing: 3) { tracker.move(to: p) }
        #expect(tracker.selected.count == 9)
        #expect(tracker.selected.capacity == before)
    }
}
