import Testing
@testable import GridlockCore

@Suite("A face's devices watched between rounds")
struct PanelDeviceWatchTests {
    @Test("a device that was there and went is news, once; back is news once; one never there is not")
    func transitions() {
        var watch = PanelDeviceWatch()
        #expect(watch.observe(touchscreen: nil, display: nil) == [])
        #expect(watch.observe(touchscreen: "/dev/input/event3", display: "/dev/dri/card0 HDMI-A-1") == [])
        #expect(watch.observe(touchscreen: "/dev/input/event3", display: "/dev/dri/card0 HDMI-A-1") == [])
        #expect(watch.observe(touchscreen: nil, display: "/dev/dri/card0 HDMI-A-1") == [.touchscreenGone])
        #expect(watch.observe(touchscreen: nil, display: nil) == [.displayGone])
        #expect(watch.observe(touchscreen: nil, display: nil) == [])
        // Back on another node: the same touchscreen as far as the lock is concerned.
        #expect(watch.observe(touchscreen: "/dev/input/event4", display: "/dev/dri/card0 HDMI-A-1") == [.touchscreenBack, .displayBack])
        #expect(watch.observe(touchscreen: nil, display: nil) == [.touchscreenGone, .displayGone])
    }

    @Test("a device going and coming back in one look's time is never both at once")
    func oneEventPerDevicePerLook() {
        var watch = PanelDeviceWatch()
        _ = watch.observe(touchscreen: "a", display: "b")
        for _ in 0..<5 {
            let gone = watch.observe(touchscreen: nil, display: nil)
            let back = watch.observe(touchscreen: "a", display: "b")
            #expect(gone.allSatisfy(\.isAlarm) && gone.count == 2)
            #expect(back.allSatisfy { !$0.isAlarm } && back.count == 2)
        }
    }
}
