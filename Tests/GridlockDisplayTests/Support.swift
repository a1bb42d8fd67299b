import GridlockCore
import GridlockDisplay
import GridlockRendering

/// The scenes the pixel tests sample, built the way the lock machine will build them.
struct Scenes {
    let layout: GridLayout

    init(width: Double, height: Double) throws {
        layout = try GridLayout(frame: Rect(x: 0, y: 0, width: width, height: height))
    }

    func center(_ node: Int) -> Point { layout.center(of: node) }

    func midpoint(_ a: Point, _ b: Point) -> Point { Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }

    /// `nodes` (0-based) connected in order, each drawn with `look`.
    func scene(
        _ nodes: [Int], look: NodeLook = .selected, finger: Point? = nil, showPath: Bool = true,
        message: Message = .prompt
    ) -> Scene {
        var looks = Array(repeating: NodeLook.idle, count: layout.shape.nodeCount)
        for node in nodes { looks[node] = look }
        return Scene(
            layout: layout, nodes: looks, path: showPath ? nodes.map(center) : [],
            finger: showPath ? finger : nil, pathLook: look, message: message)
    }

    var ready: Scene { scene([]) }
    /// Nodes 1-2-3 selected, the finger halfway from 3 to 6.
    var drawing: Scene { scene([0, 1, 2], finger: midpoint(center(2), center(5))) }
    var failed: Scene { scene([0, 1, 2, 5], look: .error, message: .wrong(failures: 1, remaining: 4)) }
    var succeeded: Scene { scene([0, 1, 2, 5], look: .success, message: .success) }
}

let testSizes: [(Double, Double)] = [(800, 480), (480, 800)]

func pixel(_ buffer: ShadowBuffer, at point: Point) -> Color {
    buffer.pixel(x: Int(point.x.rounded(.down)), y: Int(point.y.rounded(.down)))
}

func isClose(_ a: Color, _ b: Color, within tolerance: Int) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
        && abs(Int(a.blue) - Int(b.blue)) <= tolerance
}

/// `top` at `alpha` over `bottom`, as cairo composites it (to within rounding).
func blend(_ top: Color, over bottom: Color, alpha: Double) -> Color {
    func mix(_ t: UInt8, _ b: UInt8) -> UInt8 { UInt8((alpha * Double(t) + (1 - alpha) * Double(b)).rounded()) }
    return Color(red: mix(top.red, bottom.red), green: mix(top.green, bottom.green), blue: mix(top.blue, bottom.blue))
}

/// Pixels inside `rect` within `tolerance` of `color`.
func count(_ color: Color, in rect: Rect, of buffer: ShadowBuffer, within tolerance: Int = 0) -> Int {
    let r = rect.integral.intersection(buffer.frame)!
    var found = 0
    for y in Int(r.minY)..<Int(r.maxY) {
        for x in Int(r.minX)..<Int(r.maxX) where isClose(buffer.pixel(x: x, y: y), color, within: tolerance) {
            found += 1
        }
    }
    return found
}

/// The first pixel where two equally sized buffers differ, for a readable failure.
func firstDifference(_ a: ShadowBuffer, _ b: ShadowBuffer) -> (x: Int, y: Int, Color, Color)? {
    precondition(a.width == b.width && a.height == b.height)
    if bytesEqual(a, b) { return nil }
    for y in 0..<a.height {
        for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
            return (x, y, a.pixel(x: x, y: y), b.pixel(x: x, y: y))
        }
    }
    return nil
}

func bytesEqual(_ a: ShadowBuffer, _ b: ShadowBuffer) -> Bool {
    a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.elementsEqual(y) } }
}

/// The first pixel outside `damage` that differs between `before` (a copy of an
/// earlier state of `buffer`) and `buffer` now.
func firstChange(from before: [UInt8], to buffer: ShadowBuffer, outside damage: Damage) -> (x: Int, y: Int)? {
    let rects = damage.rects.map(\.integral)
    return before.withUnsafeBytes { old in
        buffer.withUnsafeBytes { now -> (x: Int, y: Int)? in
            for y in 0..<buffer.height {
                for x in 0..<buffer.width {
                    let i = y * buffer.stride + x * 4
                    guard old.load(fromByteOffset: i, as: UInt32.self) != now.load(fromByteOffset: i, as: UInt32.self)
                    else { continue }
                    let center = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    if !rects.contains(where: { $0.contains(center) }) { return (x, y) }
                }
            }
            return nil
        }
    }
}
