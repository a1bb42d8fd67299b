import GridlockCore
import GridlockRendering
import GridlockFace
import GridlockWayland

/// One lock surface's picture: the shared renderer's scene drawn at this surface's size
/// into a canvas of its own, and only what changed copied into the compositor's buffer.
final class SurfaceDrawer {
    let surface: LockSurface
    let layout: GridLayout
    private let renderer: SceneRenderer
    private var drawn: Scene?
    /// The scene changed since the last frame (or the surface could not draw then).
    private(set) var isDirty = true

    /// Nil when the surface has no size yet or the grid does not fit it.
    init?(surface: LockSurface, theme: Theme, controller: FaceController) throws(RenderError) {
        guard let pixels = surface.pixelSize else { return nil }
        let frame = Rect(x: 0, y: 0, width: Double(pixels.width), height: Double(pixels.height))
        guard let layout = controller.layout(for: frame) else { return nil }
        self.surface = surface
        self.layout = layout
        renderer = try SceneRenderer(size: Size(width: Double(pixels.width), height: Double(pixels.height)), theme: theme)
    }

    func markDirty() { isDirty = true }

    /// Canvas rectangles drawn but not yet in a committed buffer; nil: all of it.
    private var uncommitted: [PixelRect]? = nil

    /// Draws the scene now if the compositor lets it; else it stays dirty for the next
    /// `surfaceReadyToDraw`. True when a frame was committed.
    @discardableResult
    func drawIfDirty(_ scene: Scene) throws(WaylandError) -> Bool {
        guard isDirty, surface.canDraw else { return false }
        let canvas = renderer.buffer
        if drawn != scene {
            let damage = drawn.map { Damage.between($0, scene, geometry: renderer.theme.geometry).clipped(to: canvas.frame) }
            renderer.render(scene, damage: damage)
            drawn = scene
            if let damage {
                uncommitted? += damage.rects.map(PixelRect.init(covering:))
            } else {
                uncommitted = nil
            }
        }
        guard uncommitted?.isEmpty != true else {
            isDirty = false
            return false
        }
        let changed = uncommitted
        let committed = try surface.draw { pixels in
            let rects = pixels.isFresh ? [pixels.everything] : (changed ?? [pixels.everything])
            canvas.withUnsafeBytes { pixels.copy(from: $0.baseAddress!, sourceStride: canvas.stride, rects: rects) }
            return rects
        }
        if committed {
            isDirty = false
            uncommitted = []
        }
        return committed
    }
}
