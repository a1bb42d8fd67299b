import Testing
@testable import GridlockCore

@Suite struct DamageTests {
    let grid = layout()

    func drawing(_ nodes: [Int], finger: Point?) -> Scene {
        var scene = Scene(layout: grid)
        for node in nodes { scene.nodes[node] = .selected }
        scene.path = nodes.map(grid.center(of:))
        scene.finger = finger
        return scene
    }

    @Test("no change no damage") func noChangeNoDamage() {
        let scene = drawing([0, 1], finger: Point(x: 300, y: 200))
        #expect(Damage.between(scene, scene).isEmpty)
    }

    @Test("first frame or new layout is full damage") func firstFrameOrNewLayoutIsFullDamage() {
        let scene = Scene(layout: grid)
        #expect(Damage.between(nil, scene).rects == [panel])
        let other = Scene(layout: layout(4, 4))
        #expect(Damage.between(scene, other).rects == [panel])
    }

    @Test("moving the finger a few pixels damages only the finger segment") func movingTheFingerAFewPixelsDamagesOnlyTheFingerSegment() {
        let c = grid.center(of: 4)
        let old = drawing([0, 4], finger: Point(x: c.x + 20, y: c.y + 3))
        let new = drawing([0, 4], finger: Point(x: c.x + 23, y: c.y + 4))
        let damage = Damage.between(old, new)
        #expect(!damage.isEmpty)
        let bounds = damage.bounds
        // Only around the short segment from node 5 to the finger; far less than the screen.
        #expect(bounds.area < panel.area / 100)
        #expect(bounds.contains(Point(x: c.x + 22, y: c.y + 3.5)))
        #expect(!bounds.contains(grid.center(of: 0)))
    }

    @Test("selecting a node damages its ring and the new segments") func selectingANodeDamagesItsRingAndTheNewSegments() {
        let old = drawing([0], finger: grid.center(of: 1))
        let new = drawing([0, 1], finger: grid.center(of: 1))
        let damage = Damage.between(old, new)
        let metrics = new.metrics
        let ring = metrics.nodeBounds(center: grid.center(of: 1)).integral
        #expect(damage.rects.contains { $0.contains(ring) })
        #expect(!damage.bounds.intersects(metrics.nodeBounds(center: grid.center(of: 8))))
    }

    @Test("a changed message damages the message band") func aChangedMessageDamagesTheMessageBand() {
        var new = Scene(layout: grid)
        new.message = .wrong(failures: 1, remaining: 4)
        let damage = Damage.between(Scene(layout: grid), new)
        #expect(damage.rects == [new.metrics.messageBand.integral])
    }

    @Test("a new look repaints the whole path") func aNewLookRepaintsTheWholePath() {
        let old = drawing([0, 1, 2, 5], finger: nil)
        var new = old
        new.pathLook = .error
        for node in [0, 1, 2, 5] { new.nodes[node] = .error }
        let damage = Damage.between(old, new)
        let metrics = new.metrics
        let middle = Point(x: (grid.center(of: 1).x + grid.center(of: 2).x) / 2, y: grid.center(of: 1).y)
        #expect(damage.rects.contains { $0.contains(metrics.segmentBounds(middle, middle).integral) })
    }

    @Test("damage is clipped to the frame") func damageIsClippedToTheFrame() {
        let old = drawing([0], finger: Point(x: -50, y: -50))
        let new = drawing([0], finger: Point(x: -60, y: -40))
        for rect in Damage.between(old, new).rects { #expect(panel.contains(rect)) }
    }

    @Test("adding a contained rectangle keeps the list short") func addingAContainedRectangleKeepsTheListShort() {
        var damage = Damage(rects: [Rect(x: 0, y: 0, width: 10, height: 10)])
        damage.add(Rect(x: 2, y: 2, width: 3, height: 3))
        #expect(damage.rects.count == 1)
        damage.add(Rect(x: -1, y: -1, width: 20, height: 20))
        #expect(damage.rects == [Rect(x: -1, y: -1, width: 20, height: 20)])
    }
}

@Suite struct CalibrationTargetDamageTests {
    let grid = layout()

    @Test("moving the cross damages its old and new place only") func movingTheCrossDamagesItsOldAndNewPlaceOnly() {
        let old = Scene(layout: grid, message: .calibrate(step: 1, count: 5), target: Point(x: 80, y: 48))
        var new = old
        new.target = Point(x: 720, y: 48)
        new.message = .calibrate(step: 2, count: 5)
        let damage = Damage.between(old, new)
        let metrics = new.metrics
        #expect(damage.rects.contains { $0.contains(metrics.targetBounds(center: Point(x: 80, y: 48)).integral) })
        #expect(damage.rects.contains { $0.contains(metrics.targetBounds(center: Point(x: 720, y: 48)).integral) })
        #expect(!damage.bounds.contains(Point(x: 400, y: 300)))
    }

    @Test("showing or hiding the grid is full damage") func showingOrHidingTheGridIsFullDamage() {
        let grid = Scene(layout: self.grid)
        let cross = Scene(layout: self.grid, target: Point(x: 400, y: 240))
        #expect(Damage.between(grid, cross).rects == [panel])
        #expect(Damage.between(cross, grid).rects == [panel])
    }
}
