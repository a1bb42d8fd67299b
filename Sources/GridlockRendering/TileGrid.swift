import GridlockCore

/// The frame cut into fixed squares that are always drawn whole, each with a clip of
/// exactly that square, whether the frame is redrawn in full or only where damaged.
///
/// Why: cairo's antialiased coverage next to a clip depends on the clip. It splits a
/// shape's edges where they cross the clip rectangle, which shifts the coverage of
/// nearby pixels; clipping straight to the damage rectangles left up to 10/255 of
/// difference from a full redraw. With fixed squares a pixel's value depends on the
/// scene and its square only, so a damage-only frame is byte-identical to a full one.
struct TileGrid {
    /// Larger squares redraw more pixels around small damage; smaller ones repeat
    /// per-square work (clip setup, re-stroking the whole path) more often. Measured on
    /// the benchmark drag at 1920x1080, 128 beat 32, 64 and 256 for both full and
    /// damage-only frames.
    static let side = 128

    let width: Int
    let height: Int
    let columns: Int
    let rows: Int
    /// Which squares the current frame redraws; kept between frames so a frame allocates nothing.
    private var marked: [Bool]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        columns = (width + Self.side - 1) / Self.side
        rows = (height + Self.side - 1) / Self.side
        marked = Array(repeating: false, count: columns * rows)
    }

    mutating func markAll() {
        for i in marked.indices { marked[i] = true }
    }

    /// Marks every square `rect` touches, after snapping it outwards to whole pixels.
    mutating func mark(_ rect: Rect) {
        let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        guard let pixels = rect.integral.intersection(frame) else { return }
        let column0 = Int(pixels.minX) / Self.side, column1 = (Int(pixels.maxX) - 1) / Self.side
        let row0 = Int(pixels.minY) / Self.side, row1 = (Int(pixels.maxY) - 1) / Self.side
        for row in row0...row1 {
            for column in column0...column1 { marked[row * columns + column] = true }
        }
    }

    /// Calls `body` with each marked square, clipped to the frame.
    func forEachMarked(_ body: (Rect) -> Void) {
        for row in 0..<rows {
            for column in 0..<columns where marked[row * columns + column] { body(square(row, column)) }
        }
    }

    /// Calls `body` with each marked square, clipped to the frame, and unmarks it.
    mutating func drain(_ body: (Rect) -> Void) {
        for row in 0..<rows {
            for column in 0..<columns where marked[row * columns + column] {
                marked[row * columns + column] = false
                body(square(row, column))
            }
        }
    }

    private func square(_ row: Int, _ column: Int) -> Rect {
        let x = column * Self.side, y = row * Self.side
        return Rect(
            x: Double(x), y: Double(y),
            width: Double(min(Self.side, width - x)), height: Double(min(Self.side, height - y)))
    }
}
