import GridlockCore
import GridlockDisplay
import GridlockRendering
import Testing

/// Rendering only `Damage.between(old, new)` over the old frame must give the very
/// bytes a full redraw of the new scene gives; otherwise stale pixels stay on screen.
@Suite struct DamageEquivalenceTests {
    /// A stroke 1 -> 2 -> 3 -> 6 with the finger wandering a few pixels at a time, into
    /// the message band and back over the drawn line, then verification, an error, a
    /// lockout message and a reset.
    func sequence(_ scenes: Scenes) -> [Scene] {
        let c = scenes.center
        func toward(_ a: Point, _ b: Point, _ t: Double) -> Point {
            Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
        }
        var out = [scenes.ready]
        out.append(scenes.scene([0], finger: c(0)))
        for step in 1...4 { out.append(scenes.scene([0], finger: Point(x: c(0).x + 3.3 * Double(step), y: c(0).y + 0.7))) }
        for t in [0.3, 0.6, 0.97] { out.append(scenes.scene([0], finger: toward(c(0), c(1), t))) }
        out.append(scenes.scene([0, 1], finger: c(1)))
        // Up into the message band, and back down.
        let band = scenes.ready.metrics.messageBand
        out.append(scenes.scene([0, 1], finger: Point(x: c(1).x + 5, y: band.center.y)))
        out.append(scenes.scene([0, 1], finger: Point(x: c(1).x - 9, y: band.center.y + 2)))
        // Back across the drawn line: the alpha must not double where it overlaps.
        out.append(scenes.scene([0, 1], finger: toward(c(1), c(0), 0.5)))
        out.append(scenes.scene([0, 1], finger: toward(c(1), c(2), 0.5)))
        out.append(scenes.scene([0, 1, 2], finger: c(2)))
        for t in [0.2, 0.5, 0.51, 0.9] { out.append(scenes.scene([0, 1, 2], finger: toward(c(2), c(5), t))) }
        out.append(scenes.scene([0, 1, 2, 5], finger: c(5)))
        out.append(scenes.scene([0, 1, 2, 5], message: .verifying))
        out.append(scenes.scene([0, 1, 2, 5], look: .error, message: .wrong(failures: 1, remaining: 4)))
        out.append(scenes.scene([], message: .lockedOut(seconds: 30)))
        out.append(scenes.scene([], message: .lockedOut(seconds: 29)))
        out.append(scenes.scene([], message: .none))
        out.append(scenes.ready)
        out.append(scenes.scene([4], finger: c(4)))
        out.append(scenes.scene([4, 8], look: .success, message: .success))
        out.append(scenes.ready)
        return out
    }

    @Test("damage only render equals full redraw", arguments: testSizes + [(1280, 800), (1001, 601)])
    func damageOnlyRenderEqualsFullRedraw(width: Double, height: Double) throws {
        let scenes = try Scenes(width: width, height: height)
        let size = Size(width: width, height: height)
        let incremental = try SceneRenderer(size: size, theme: Theme())
        let full = try SceneRenderer(size: size, theme: Theme())
        let frames = sequence(scenes)
        incremental.render(frames[0], damage: nil)
        full.render(frames[0], damage: nil)
        for (old, new) in zip(frames, frames.dropFirst()) {
            let damage = Damage.between(old, new)
            #expect(!damage.isEmpty, "consecutive scenes differ, so something must be redrawn")
            incremental.render(new, damage: damage)
            let before = full.buffer.withUnsafeBytes { Array($0) }
            full.render(new, damage: nil)
            // The display copies only the damage to the screen, so nothing may change outside it.
            let outside = firstChange(from: before, to: full.buffer, outside: damage)
            #expect(outside == nil, "\(old.message) -> \(new.message), finger \(String(describing: new.finger))")
            let difference = firstDifference(incremental.buffer, full.buffer)
            #expect(difference == nil, "\(old.message) -> \(new.message), finger \(String(describing: new.finger))")
            if difference != nil { return }
        }
        #expect(bytesEqual(incremental.buffer, full.buffer))
    }

    /// The same with every image of a theme, larger nodes and a wider line of its own
    /// colour: damage must cover the images' extents and the theme's sizes.
    @Test("themed damage only render equals full redraw", arguments: [(800.0, 480.0), (1001.0, 601.0)])
    func themedDamageOnlyRenderEqualsFullRedraw(width: Double, height: Double) throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        var theme = try files.fullTheme()
        theme.nodeSize = 0.9
        let scenes = try Scenes(width: width, height: height)
        let size = Size(width: width, height: height)
        let incremental = try SceneRenderer(size: size, theme: theme)
        let full = try SceneRenderer(size: size, theme: theme)
        var frames = sequence(scenes)
        frames.append(scenes.failed)
        frames.append(scenes.ready)
        incremental.render(frames[0], damage: nil)
        for (old, new) in zip(frames, frames.dropFirst()) {
            incremental.render(new, damage: Damage.between(old, new, geometry: theme.geometry))
            full.render(new, damage: nil)
            let difference = firstDifference(incremental.buffer, full.buffer)
            #expect(difference == nil, "\(old.message) -> \(new.message), finger \(String(describing: new.finger))")
            if difference != nil { return }
        }
    }

    /// The check above can fail: damage computed with the standard sizes misses most of a
    /// large node image (at 1920x1080 a cell is 288 pixels, far wider than a tile).
    @Test("damage without the themes sizes is noticed") func damageWithoutTheThemesSizesIsNoticed() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        var theme = try files.fullTheme()
        theme.nodeSize = 0.9
        let scenes = try Scenes(width: 1920, height: 1080)
        let size = Size(width: 1920, height: 1080)
        let stale = try SceneRenderer(size: size, theme: theme)
        let full = try SceneRenderer(size: size, theme: theme)
        let new = scenes.scene([4], look: .error)
        stale.render(scenes.ready, damage: nil)
        stale.render(new, damage: Damage.between(scenes.ready, new))
        full.render(new, damage: nil)
        #expect(firstDifference(stale.buffer, full.buffer) != nil)
        stale.render(new, damage: Damage.between(scenes.ready, new, geometry: theme.geometry))
        #expect(firstDifference(stale.buffer, full.buffer) == nil)
    }

    /// The comparison above is only worth something if skipping damage shows up.
    @Test("skipping the damage is noticed") func skippingTheDamageIsNoticed() throws {
        let scenes = try Scenes(width: 800, height: 480)
        let size = Size(width: 800, height: 480)
        let stale = try SceneRenderer(size: size, theme: Theme())
        let full = try SceneRenderer(size: size, theme: Theme())
        let old = scenes.scene([0], finger: scenes.center(0))
        let new = scenes.scene([0], finger: Point(x: scenes.center(0).x + 40, y: scenes.center(0).y))
        stale.render(old, damage: nil)
        stale.render(new, damage: Damage())
        full.render(new, damage: nil)
        #expect(firstDifference(stale.buffer, full.buffer) != nil)
    }
}
