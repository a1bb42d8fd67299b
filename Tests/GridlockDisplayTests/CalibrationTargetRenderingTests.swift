import GridlockCore
import Testing
@testable import GridlockDisplay
@testable import GridlockRendering

@Suite struct CalibrationTargetRenderingTests {
    @Test("a cross replaces the grid") func aCrossReplacesTheGrid() throws {
        let size = Size(width: 800, height: 480)
        let layout = try GridLayout(frame: Rect(origin: .zero, size: size))
        let theme = Theme()
        let renderer = try SceneRenderer(size: size, theme: theme)
        let target = Point(x: 80, y: 48)
        renderer.render(Scene(layout: layout, message: .calibrate(step: 1, count: 5), target: target), damage: nil)
        let buffer = renderer.buffer
        // The horizontal arm, 18 px right of the centre (outside the small ring), in the text colour.
        #expect(isClose(pixel(buffer, at: Point(x: target.x + 18.5, y: target.y + 0.5)), theme.text, within: 40))
        #expect(isClose(pixel(buffer, at: Point(x: target.x + 0.5, y: target.y - 18.5)), theme.text, within: 40))
        // No grid: where node 1's ring would be is background.
        let ring = layout.center(of: 0)
        let r = SceneMetrics(layout: layout).ringRadius
        #expect(pixel(buffer, at: Point(x: ring.x + r, y: ring.y)) == theme.background)
        // The instruction is drawn.
        #expect(count(theme.text, in: SceneMetrics(layout: layout).messageBand, of: buffer, within: 10) > 50)
    }
}
