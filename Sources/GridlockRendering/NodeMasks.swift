import CCairo
import GridlockCore

/// A node's ring, and its ring with the centre dot, rasterized once per node size into
/// alpha masks, so that a frame composites prepared coverage instead of stroking arcs.
///
/// Why: stroking an antialiased ring is most of what a damage-only frame costs (about
/// 220,000 instructions a ring at 1920x1080, against a few thousand to composite the same
/// pixels through a mask). A mask placed on whole pixels also has the same coverage in every
/// square of the tile grid, so damage-only and full frames stay identical.
///
/// The masks hold coverage only; the colour is the look's, given as the source when
/// compositing, so one pair serves every look and every theme colour.
final class NodeMasks {
    /// The ring alone (an idle node).
    let ring: OpaquePointer
    /// The ring and the dot inside it (a node that is selected, wrong or right).
    let ringAndDot: OpaquePointer
    /// The masks' side in pixels.
    let side: Int
    /// The sizes they were drawn for.
    let key: Key

    struct Key: Equatable {
        var ringRadius: Double, ringWidth: Double, dotRadius: Double

        init(_ metrics: SceneMetrics) {
            ringRadius = metrics.ringRadius
            ringWidth = metrics.ringWidth
            dotRadius = metrics.dotRadius
        }
    }

    /// Masks for the node sizes of `metrics`. The square reaches one pixel beyond the
    /// ring's outer edge (antialiasing touches no more) and is placed at most half a pixel
    /// off the node's centre, which `SceneMetrics.nodeBounds` allows for.
    init(for metrics: SceneMetrics) throws(RenderError) {
        key = Key(metrics)
        side = Int((2 * (metrics.ringRadius + metrics.ringWidth / 2 + 1)).rounded(.up))
        ring = try Self.draw(side: side, metrics: metrics, dot: false)
        do {
            ringAndDot = try Self.draw(side: side, metrics: metrics, dot: true)
        } catch {
            cairo_surface_destroy(ring)
            throw error
        }
    }

    deinit {
        cairo_surface_destroy(ring)
        cairo_surface_destroy(ringAndDot)
    }

    /// Where a mask goes for a node at `center`: on whole pixels, so compositing copies
    /// coverage 1:1 and never resamples it.
    func origin(for center: Point) -> (x: Double, y: Double) {
        let half = Double(side) / 2
        return ((center.x - half).rounded(), (center.y - half).rounded())
    }

    private static func draw(side: Int, metrics: SceneMetrics, dot: Bool) throws(RenderError) -> OpaquePointer {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(side), Int32(side)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw .cairo(operation: "make a \(side)x\(side) node mask", status: "no surface") }
        guard let cr = cairo_create(surface), cairo_status(cr) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .cairo(operation: "draw a node mask", status: "no context")
        }
        defer { cairo_destroy(cr) }
        let center = Double(side) / 2
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_GRAY)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(cr, metrics.ringWidth)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_arc(cr, center, center, metrics.ringRadius, 0, 2 * Double.pi)
        // Closed, the ring has a join where it meets itself instead of two caps.
        cairo_close_path(cr)
        cairo_stroke(cr)
        if dot {
            cairo_arc(cr, center, center, metrics.dotRadius, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        cairo_surface_flush(surface)
        return surface
    }
}
