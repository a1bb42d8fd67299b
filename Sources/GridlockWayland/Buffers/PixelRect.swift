import GridlockCore

/// A rectangle of whole buffer pixels.
public struct PixelRect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole pixels `rect` touches (a renderer's damage, antialiasing included).
    public init(covering rect: Rect) {
        let minX = Int(rect.minX.rounded(.down)), minY = Int(rect.minY.rounded(.down))
        let maxX = Int(rect.maxX.rounded(.up)), maxY = Int(rect.maxY.rounded(.up))
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    public static func full(width: Int, height: Int) -> PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part inside a `width` x `height` buffer, nil when none is.
    public func clipped(width bufferWidth: Int, height bufferHeight: Int) -> PixelRect? {
        let minX = max(x, 0), minY = max(y, 0)
        let maxX = min(x + width, bufferWidth), maxY = min(y + height, bufferHeight)
        guard maxX > minX, maxY > minY else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    public func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }

    public func union(_ other: PixelRect) -> PixelRect {
        let minX = min(x, other.x), minY = min(y, other.y)
        let maxX = max(x + width, other.x + other.width), maxY = max(y + height, other.y + other.height)
        return PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// Copies `rect` of one 32-bit-per-pixel image into another, row by row (one memmove per
/// row, nothing per pixel): how a frame drawn elsewhere (a ShadowBuffer) reaches a
/// compositor's buffer, and how a buffer is brought up to date from the newer one.
/// `rect` must lie inside both images.
public func copyPixels(
    _ rect: PixelRect, from source: UnsafeRawPointer, sourceStride: Int,
    to destination: UnsafeMutableRawPointer, destinationStride: Int
) {
    guard !rect.isEmpty else { return }
    let rowBytes = rect.width * 4
    for row in rect.y..<(rect.y + rect.height) {
        (destination + row * destinationStride + rect.x * 4)
            .copyMemory(from: source + row * sourceStride + rect.x * 4, byteCount: rowBytes)
    }
}
