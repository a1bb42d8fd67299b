import GridlockCore
import GridlockDisplay
import GridlockRendering
import Testing

@Suite("Two-buffer damage bookkeeping")
struct BufferDamageTests {
    static let frame = Rect(x: 0, y: 0, width: 100, height: 60)
    static func r(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

    @Test("each buffer gets exactly the damage since it was last shown")
    func unionSinceLastShown() {
        var state = BufferDamage(frame: Self.frame, count: 2)
        #expect(!state.canPresent)  // nothing to show yet

        state.add(Damage(rects: [Self.r(0, 0, 10, 10)]))
        var (buffer, rects) = state.beginFrame()
        #expect(buffer == 0)
        #expect(rects == [Self.frame])  // a fresh dumb buffer holds nothing of ours
        state.shown(0, flipping: true)

        state.add(Damage(rects: [Self.r(20, 20, 5, 5)]))
        #expect(!state.canPresent)  // never a second flip while one is pending
        state.flipCompleted()
        #expect(state.canPresent)
        (buffer, rects) = state.beginFrame()
        #expect(buffer == 1)
        #expect(rects == [Self.frame])  // buffer 1 was never written either
        state.shown(1, flipping: true)
        state.flipCompleted()

        state.add(Damage(rects: [Self.r(40, 0, 10, 10)]))
        (buffer, rects) = state.beginFrame()
        #expect(buffer == 0)
        // Buffer 0 missed what went into buffer 1 as well as the newest damage.
        #expect(Set(rects) == [Self.r(20, 20, 5, 5), Self.r(40, 0, 10, 10)])
        state.shown(0, flipping: true)
        state.flipCompleted()

        state.add(Damage(rects: [Self.r(0, 50, 10, 10)]))
        (buffer, rects) = state.beginFrame()
        #expect(buffer == 1)
        #expect(Set(rects) == [Self.r(40, 0, 10, 10), Self.r(0, 50, 10, 10)])
    }

    @Test("frames presented during a flip coalesce into one")
    func coalesces() {
        var state = BufferDamage(frame: Self.frame, count: 2)
        state.add(.full(Self.frame))
        _ = state.beginFrame()
        state.shown(0, flipping: true)
        for i in 0..<5 { state.add(Damage(rects: [Self.r(Double(i) * 10, 0, 5, 5)])) }
        state.flipCompleted()
        let (buffer, _) = state.beginFrame()
        state.shown(buffer, flipping: true)
        #expect(!state.canPresent)
        state.flipCompleted()
        #expect(!state.canPresent)  // all five went out in that one frame
    }

    @Test("damage outside the frame is clipped; empty damage asks for nothing")
    func clipping() {
        var state = BufferDamage(frame: Self.frame, count: 2)
        for buffer in 0..<2 {
            _ = state.beginFrame()
            state.shown(buffer, flipping: false)
        }
        state.add(Damage(rects: [Self.r(200, 200, 10, 10)]))
        #expect(!state.canPresent)
        state.add(Damage(rects: [Self.r(95, 55, 10, 10)]))
        #expect(state.beginFrame().rects == [Self.r(95, 55, 5, 5)])
    }

    @Test("a long list of small rectangles collapses into its bounding box")
    func collapses() {
        var state = BufferDamage(frame: Self.frame, count: 2)
        _ = state.beginFrame()
        state.shown(0, flipping: false)
        _ = state.beginFrame()
        state.shown(1, flipping: false)
        for i in 0..<20 { state.add(Damage(rects: [Self.r(Double(i * 4), Double(i), 2, 2)])) }
        let rects = state.beginFrame().rects
        #expect(rects.count < 20)
        for i in 0..<20 { #expect(rects.contains { $0.contains(Self.r(Double(i * 4), Double(i), 2, 2)) }) }
    }

    @Test("after the picture is lost every buffer is wholly stale")
    func invalidate() {
        var state = BufferDamage(frame: Self.frame, count: 2)
        _ = state.beginFrame()
        state.shown(0, flipping: false)
        state.invalidateAll()
        #expect(state.canPresent)
        #expect(state.beginFrame() == (1, [Self.frame]))
    }

    @Test("one buffer (DirtyFB): always the same buffer, only the new damage")
    func singleBuffer() {
        var state = BufferDamage(frame: Self.frame, count: 1)
        _ = state.beginFrame()
        state.shown(0, flipping: false)
        state.add(Damage(rects: [Self.r(1, 1, 2, 2)]))
        #expect(state.beginFrame() == (0, [Self.r(1, 1, 2, 2)]))
    }
}

/// A small deterministic generator, so a failure reproduces.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
}

@Suite("Damage-limited scan-out")
struct ScanOutSimulationTests {
    /// Two scan-out buffers fed only damaged rectangles, with flips completing at random
    /// times: whenever a buffer is put on screen it must equal the whole shadow frame.
    @Test("the shown buffer always equals the newest frame", arguments: Rotation.allCases)
    func shownBufferIsComplete(rotation: Rotation) throws {
        let (w, h) = (23, 17)
        let shadow = try ShadowBuffer(width: w, height: h)
        let physical = rotation.swapsAxes ? (h, w) : (w, h)
        let stride = physical.0 * 4 + 8
        var scanOut = [[UInt8]](repeating: [UInt8](repeating: 0xEE, count: stride * physical.1), count: 2)
        var state = BufferDamage(frame: shadow.frame, count: 2)
        var random = SplitMix(state: UInt64(rotation.degrees) + 1)
        var shownFrames = 0

        for step in 0..<300 {
            // Draw a small rectangle of one colour into the shadow; damage is exactly it.
            let x = random.int(0..<w), y = random.int(0..<h)
            let rw = random.int(1..<6), rh = random.int(1..<6)
            let colour = Color(red: UInt8(step & 0xFF), green: UInt8(random.int(0..<256)), blue: 7)
            for yy in y..<min(h, y + rh) { for xx in x..<min(w, x + rw) { shadow.setPixel(x: xx, y: yy, to: colour) } }
            state.add(Damage(rects: [Rect(x: Double(x), y: Double(y), width: Double(rw), height: Double(rh))]))

            if state.flipPending, random.int(0..<3) == 0 { state.flipCompleted() }
            guard state.canPresent else { continue }
            let (index, rects) = state.beginFrame()
            scanOut[index].withUnsafeMutableBytes {
                shadow.copy(rects: rects, to: $0.baseAddress!, destinationStride: stride, rotation: rotation)
            }
            state.shown(index, flipping: true)
            shownFrames += 1

            // The reference: the whole shadow copied into a fresh buffer.
            var full = [UInt8](repeating: 0xEE, count: stride * physical.1)
            full.withUnsafeMutableBytes {
                shadow.copy(rects: [shadow.frame], to: $0.baseAddress!, destinationStride: stride, rotation: rotation)
            }
            #expect(scanOut[index] == full, "step \(step): buffer \(index) differs from the frame")
            if scanOut[index] != full { return }
        }
        #expect(shownFrames > 50)  // the flips really interleaved with drawing
    }

    /// `physicalRect` names exactly the pixels `ShadowBuffer.copy` writes for a rectangle,
    /// so DirtyFB clips cover what changed and nothing else.
    @Test("rotated damage rectangles match the pixels the copy writes", arguments: Rotation.allCases)
    func physicalRects(rotation: Rotation) throws {
        let (w, h) = (13, 9)
        let shadow = try ShadowBuffer(width: w, height: h)
        let physical = rotation.swapsAxes ? (h, w) : (w, h)
        let stride = physical.0 * 4
        var random = SplitMix(state: 99)
        for _ in 0..<60 {
            let x = random.int(0..<w), y = random.int(0..<h)
            let rect = Rect(x: Double(x), y: Double(y), width: Double(random.int(1..<(w - x + 1))), height: Double(random.int(1..<(h - y + 1))))
            var out = [UInt8](repeating: 0xEE, count: stride * physical.1)
            out.withUnsafeMutableBytes { shadow.copy(rects: [rect], to: $0.baseAddress!, destinationStride: stride, rotation: rotation) }
            let expected = rotation.physicalRect(rect, logical: Size(width: Double(w), height: Double(h)))
            for py in 0..<physical.1 {
                for px in 0..<physical.0 {
                    let written = out[py * stride + px * 4 + 3] != 0xEE  // X byte of XRGB: 0 when written
                    let inside = expected.contains(Point(x: Double(px) + 0.5, y: Double(py) + 0.5))
                    #expect(written == inside, "\(rotation) \(rect): physical (\(px), \(py))")
                }
            }
        }
    }
}
