import GridlockCore
import GridlockWayland
import Testing

@Suite struct PrimaryStrokeTests {
    static let one = SurfaceID(rawValue: 1)
    static let two = SurfaceID(rawValue: 2)
    static func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    @Test("the first finger draws; a second finger is ignored until the first lifts")
    func firstFingerOwnsTheStroke() {
        var stroke = PrimaryStroke()
        #expect(stroke.step(for: .touchDown(Self.one, touch: 4, at: Self.p(1, 2), timeMilliseconds: 0))! == (Self.one, .down(Self.p(1, 2))))
        #expect(stroke.step(for: .touchDown(Self.one, touch: 5, at: Self.p(9, 9), timeMilliseconds: 1)) == nil)
        #expect(stroke.step(for: .touchMotion(Self.one, touch: 5, at: Self.p(8, 8), timeMilliseconds: 2)) == nil)
        #expect(stroke.step(for: .touchMotion(Self.one, touch: 4, at: Self.p(3, 4), timeMilliseconds: 3))! == (Self.one, .move(Self.p(3, 4))))
        #expect(stroke.step(for: .touchUp(Self.one, touch: 5, timeMilliseconds: 4)) == nil)
        #expect(stroke.step(for: .touchUp(Self.one, touch: 4, timeMilliseconds: 5))! == (Self.one, .up))
        #expect(stroke.step(for: .touchDown(Self.two, touch: 5, at: Self.p(7, 7), timeMilliseconds: 6))! == (Self.two, .down(Self.p(7, 7))))
    }

    @Test("a touch cancel discards the stroke, as the evdev path does")
    func cancelDiscards() {
        var stroke = PrimaryStroke()
        _ = stroke.step(for: .touchDown(Self.one, touch: 1, at: Self.p(1, 1), timeMilliseconds: 0))
        #expect(stroke.step(for: .touchCancel([Self.one]))! == (Self.one, .cancel(.inputTakenOver)))
        #expect(stroke.step(for: .touchUp(Self.one, touch: 1, timeMilliseconds: 1)) == nil)
        #expect(stroke.step(for: .touchCancel([Self.one])) == nil, "nothing to cancel")
    }

    @Test("the pointer draws only with its left button held; leaving the surface mid-drag discards it")
    func pointerDrag() {
        var stroke = PrimaryStroke()
        #expect(stroke.step(for: .pointerEnter(Self.one, at: Self.p(5, 5))) == nil)
        #expect(stroke.step(for: .pointerMotion(Self.one, at: Self.p(6, 6), timeMilliseconds: 0)) == nil, "hovering draws nothing")
        #expect(stroke.step(for: .pointerButton(Self.one, pressed: true, at: Self.p(6, 6), timeMilliseconds: 1))! == (Self.one, .down(Self.p(6, 6))))
        #expect(stroke.step(for: .pointerMotion(Self.one, at: Self.p(7, 8), timeMilliseconds: 2))! == (Self.one, .move(Self.p(7, 8))))
        #expect(stroke.step(for: .pointerButton(Self.one, pressed: false, at: Self.p(7, 8), timeMilliseconds: 3))! == (Self.one, .up))
        _ = stroke.step(for: .pointerButton(Self.one, pressed: true, at: Self.p(1, 1), timeMilliseconds: 4))
        #expect(stroke.step(for: .pointerLeave(Self.one))! == (Self.one, .cancel(.inputTakenOver)))
        #expect(stroke.step(for: .pointerButton(Self.one, pressed: false, at: Self.p(1, 1), timeMilliseconds: 5)) == nil)
    }

    @Test("a finger and the pointer never mix: whichever starts first draws the stroke")
    func touchAndPointerDoNotMix() {
        var stroke = PrimaryStroke()
        _ = stroke.step(for: .touchDown(Self.one, touch: 1, at: Self.p(1, 1), timeMilliseconds: 0))
        #expect(stroke.step(for: .pointerButton(Self.one, pressed: true, at: Self.p(2, 2), timeMilliseconds: 1)) == nil)
        #expect(stroke.step(for: .pointerMotion(Self.one, at: Self.p(3, 3), timeMilliseconds: 2)) == nil)
        #expect(stroke.step(for: .touchUp(Self.one, touch: 1, timeMilliseconds: 3))! == (Self.one, .up))
    }

    @Test("unplugging the output under a stroke discards it; another surface's loss changes nothing")
    func surfaceRemoved() {
        var stroke = PrimaryStroke()
        _ = stroke.step(for: .touchDown(Self.one, touch: 1, at: Self.p(1, 1), timeMilliseconds: 0))
        #expect(stroke.surfaceRemoved(Self.two) == nil)
        #expect(stroke.surfaceRemoved(Self.one) == .cancel(.displayLost))
        #expect(stroke.step(for: .touchUp(Self.one, touch: 1, timeMilliseconds: 1)) == nil)
    }
}
