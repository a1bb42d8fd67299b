import GridlockCore
import GridlockWayland
import Testing

@Suite struct PixelRectTests {
    @Test("a renderer's rectangle covers every pixel it touches")
    func covering() {
        #expect(PixelRect(covering: Rect(x: 1.5, y: 2.25, width: 3, height: 1)) == PixelRect(x: 1, y: 2, width: 4, height: 2))
        #expect(PixelRect(covering: Rect(x: 2, y: 3, width: 4, height: 5)) == PixelRect(x: 2, y: 3, width: 4, height: 5))
    }

    @Test("clipping keeps the part inside the buffer, nil when there is none")
    func clipping() {
        #expect(PixelRect(x: -2, y: 5, width: 6, height: 10).clipped(width: 8, height: 8) == PixelRect(x: 0, y: 5, width: 4, height: 3))
        #expect(PixelRect(x: 8, y: 0, width: 2, height: 2).clipped(width: 8, height: 8) == nil)
    }

    @Test("copying a rectangle moves its rows and leaves every other pixel alone")
    func copyMovesOnlyTheRectangle() {
        let width = 6, height = 4, sourceStride = 6 * 4, destinationStride = 8 * 4
        let source = (0..<(width * height)).map { UInt32($0 + 1) }
        var destination = [UInt32](repeating: 0, count: 8 * height)
        let rect = PixelRect(x: 2, y: 1, width: 3, height: 2)
        source.withUnsafeBytes { from in
            destination.withUnsafeMutableBytes { to in
                copyPixels(rect, from: from.baseAddress!, sourceStride: sourceStride, to: to.baseAddress!, destinationStride: destinationStride)
            }
        }
        for y in 0..<height {
            for x in 0..<8 {
                let inside = x >= 2 && x < 5 && y >= 1 && y < 3
                #expect(destination[y * 8 + x] == (inside ? source[y * width + x] : 0), "pixel (\(x), \(y))")
            }
        }
    }
}
