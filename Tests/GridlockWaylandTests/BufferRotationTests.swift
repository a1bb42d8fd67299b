@testable import GridlockWayland
import Testing

@Suite struct BufferRotationTests {
    @Test("the first frame is fresh; frames alternate buffers and each waits for the previous one's done")
    func alternatesAndWaitsForDone() {
        var rotation = BufferRotation(count: 2, width: 10, height: 10)
        #expect(rotation.isFresh)
        #expect(rotation.next == 0)
        rotation.committed(0, damage: [.full(width: 10, height: 10)])
        #expect(!rotation.isFresh)
        #expect(rotation.next == nil, "no frame before the previous one's done")
        rotation.frameDone()
        #expect(rotation.next == 1)
        rotation.committed(1, damage: [PixelRect(x: 1, y: 1, width: 2, height: 2)])
        rotation.frameDone()
        #expect(rotation.next == nil, "buffer 0 is still the compositor's until released, and 1 is newest")
        rotation.released(0)
        #expect(rotation.next == 0)
    }

    @Test("a buffer is brought up to date with the damage of the frames drawn since it was last drawn into")
    func staleRegionIsCopiedForward() {
        var rotation = BufferRotation(count: 2, width: 10, height: 10)
        #expect(rotation.toCopy(into: 0) == nil, "nothing to copy from before the first frame")
        rotation.committed(0, damage: [.full(width: 10, height: 10)])
        rotation.frameDone()
        // Buffer 1 was never drawn into: all of it is copied from the first frame.
        #expect(rotation.toCopy(into: 1)?.from == 0)
        #expect(rotation.toCopy(into: 1)?.rects == [.full(width: 10, height: 10)])
        let a = PixelRect(x: 1, y: 1, width: 2, height: 2)
        rotation.committed(1, damage: [a])
        rotation.frameDone()
        rotation.released(0)
        #expect(rotation.toCopy(into: 0)?.from == 1)
        #expect(rotation.toCopy(into: 0)?.rects == [a])
        let b = PixelRect(x: 5, y: 5, width: 1, height: 1)
        rotation.committed(0, damage: [b])
        #expect(rotation.toCopy(into: 1)?.rects == [b], "buffer 1 holds a already")
    }

    @Test("a long stale list becomes its bounding box")
    func longStaleListBecomesItsBounds() {
        var rotation = BufferRotation(count: 2, width: 100, height: 100)
        let full = PixelRect.full(width: 100, height: 100)
        for index in [0, 1, 0] {
            rotation.committed(index, damage: [full])
            rotation.frameDone()
            rotation.released(index)
        }
        // Buffer 0 is up to date; then it falls behind by many small frames drawn into buffer 1.
        for index in 0..<(BufferRotation.maximumRects + 1) {
            rotation.committed(1, damage: [PixelRect(x: index * 5, y: 0, width: 2, height: 2)])
            rotation.frameDone()
            rotation.released(1)
        }
        #expect(rotation.toCopy(into: 0)?.rects == [PixelRect(x: 0, y: 0, width: BufferRotation.maximumRects * 5 + 2, height: 2)])
    }
}
