import GridlockCore
@testable import GridlockWayland
import Testing

@Suite struct InputTranslatorTests {
    // Two of the compositor's wl_surface objects: the first ours at scale 2, the second not ours.
    static var lockSurface: OpaquePointer { OpaquePointer(bitPattern: 0x1000)! }
    static var foreign: OpaquePointer { OpaquePointer(bitPattern: 0x2000)! }
    static let id = SurfaceID(rawValue: 1)

    func translator() -> InputTranslator {
        InputTranslator { $0 == Self.lockSurface ? (Self.id, 2) : nil }
    }

    @Test("touches are in buffer pixels, and later events of a touch go to the surface it went down on")
    func touchFollowsItsSurface() {
        var input = translator()
        #expect(input.touchDown(on: Self.lockSurface, touch: 3, x: 10.5, y: 20, time: 100)
            == .touchDown(Self.id, touch: 3, at: Point(x: 21, y: 40), timeMilliseconds: 100))
        #expect(input.touchMotion(touch: 3, x: 11, y: 21, time: 108) == .touchMotion(Self.id, touch: 3, at: Point(x: 22, y: 42), timeMilliseconds: 108))
        #expect(input.touchUp(touch: 3, time: 116) == .touchUp(Self.id, touch: 3, timeMilliseconds: 116))
        #expect(input.touchMotion(touch: 3, x: 1, y: 1, time: 120) == nil, "the touch is over")
    }

    @Test("a touch on a surface that is not a lock surface is ignored from down to up")
    func foreignSurfaceIgnored() {
        var input = translator()
        #expect(input.touchDown(on: Self.foreign, touch: 1, x: 1, y: 1, time: 1) == nil)
        #expect(input.touchMotion(touch: 1, x: 2, y: 2, time: 2) == nil)
        #expect(input.touchUp(touch: 1, time: 3) == nil)
    }

    @Test("a cancel ends every touch and names the surfaces they were on")
    func cancelEndsEveryTouch() {
        var input = translator()
        _ = input.touchDown(on: Self.lockSurface, touch: 1, x: 1, y: 1, time: 1)
        _ = input.touchDown(on: Self.lockSurface, touch: 2, x: 5, y: 5, time: 1)
        #expect(input.touchCancel() == .touchCancel([Self.id]))
        #expect(input.touchUp(touch: 1, time: 2) == nil)
        #expect(input.touchCancel() == .touchCancel([]))
    }

    @Test("the left button reports where the pointer is, scaled; other buttons are ignored")
    func pointerButtons() {
        var input = translator()
        #expect(input.pointerButton(PointerButton.left, pressed: true, time: 1) == nil, "no focus yet")
        #expect(input.pointerEnter(Self.lockSurface, x: 3, y: 4) == .pointerEnter(Self.id, at: Point(x: 6, y: 8)))
        #expect(input.pointerMotion(x: 5, y: 6, time: 10) == .pointerMotion(Self.id, at: Point(x: 10, y: 12), timeMilliseconds: 10))
        #expect(input.pointerButton(PointerButton.left, pressed: true, time: 11) == .pointerButton(Self.id, pressed: true, at: Point(x: 10, y: 12), timeMilliseconds: 11))
        #expect(input.pointerButton(0x111, pressed: true, time: 12) == nil, "BTN_RIGHT")
        #expect(input.pointerLeave() == .pointerLeave(Self.id))
        #expect(input.pointerMotion(x: 1, y: 1, time: 13) == nil)
    }

    @Test("a surface that goes away takes its touches and the pointer's focus with it")
    func forgottenSurface() {
        var input = translator()
        _ = input.touchDown(on: Self.lockSurface, touch: 1, x: 1, y: 1, time: 1)
        _ = input.pointerEnter(Self.lockSurface, x: 1, y: 1)
        input.forget(Self.id)
        #expect(input.touchUp(touch: 1, time: 2) == nil)
        #expect(input.pointerLeave() == nil)
    }
}
