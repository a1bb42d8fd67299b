/// A buffer to draw a frame into: XRGB8888, native-endian `0x00RRGGBB` words, as
/// GridlockDisplay's ShadowBuffer holds them, so a frame drawn there is copied by rows.
///
/// It already holds the previous frame (the surface copies forward what changed since the
/// buffer was last shown), so only the damage need be drawn; unless `isFresh`: then it
/// holds nothing drawn yet (a first frame, a new size or scale) and all of it is shown.
public struct WaylandPixels {
    public let bytes: UnsafeMutableRawBufferPointer
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    public let isFresh: Bool

    public var everything: PixelRect { .full(width: width, height: height) }

    /// Copies `rects` (clipped to this buffer) of an image of the same size laid out with
    /// `sourceStride`.
    public func copy(from source: UnsafeRawPointer, sourceStride: Int, rects: [PixelRect]) {
        guard let base = bytes.baseAddress else { return }
        for rect in rects {
            guard let inside = rect.clipped(width: width, height: height) else { continue }
            copyPixels(inside, from: source, sourceStride: sourceStride, to: base, destinationStride: stride)
        }
    }

    /// Sets every pixel of `rect` (clipped) to `word` (`0x00RRGGBB`).
    public func fill(_ rect: PixelRect, with word: UInt32) {
        guard let base = bytes.baseAddress, let inside = rect.clipped(width: width, height: height) else { return }
        for row in inside.y..<(inside.y + inside.height) {
            let start = (base + row * stride + inside.x * 4).bindMemory(to: UInt32.self, capacity: inside.width)
            start.update(repeating: word, count: inside.width)
        }
    }
}
