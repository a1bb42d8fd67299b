import Testing
@testable import GridlockCore

/// Strokes from another face (`LockEvent.stroke`): the same way to a check as the panel's.
@Suite struct LockMachineStrokeTests {
    @Test("a stroke from another face is counted and persisted before it is verified, like a drawn one")
    func strokeIsCountedThenVerified() {
        var drawn = Harness()
        let drawnEffects = drawn.draw([1, 2, 3, 6, 9])
        var sent = Harness()
        let effects = sent.send(.stroke(nodes: [0, 1, 2, 5, 8]))
        #expect(effects.persisted == drawnEffects.persisted)
        #expect(effects.verified == drawnEffects.verified)
        #expect(sent.machine.phase == drawn.machine.phase)
        let persistIndex = effects.firstIndex { if case .persist = $0 { true } else { false } }
        let verifyIndex = effects.firstIndex { if case .verify = $0 { true } else { false } }
        #expect(persistIndex != nil && verifyIndex != nil && persistIndex! < verifyIndex!)
    }

    @Test("a stroke while a check runs, or while a finger is on the panel, is ignored and not counted")
    func busyStrokeIsIgnored() {
        var h = Harness()
        h.send(.stroke(nodes: [0, 1, 2, 5]))
        #expect(h.machine.strokeAdmission(at: h.now) == .busy)
        #expect(h.send(.stroke(nodes: [0, 1, 2, 5])).isEmpty)
        #expect(h.machine.attempts.failures == 1)

        var touching = Harness()
        touching.send(.touch(.down(touching.grid.center(of: 0))))
        #expect(touching.machine.strokeAdmission(at: touching.now) == .busy)
        #expect(touching.send(.stroke(nodes: [0, 1, 2, 5])).persisted.isEmpty)
        #expect(touching.machine.attempts.failures == 0)
    }

    @Test("the fifth wrong stroke locks out, and a stroke during the lockout is not checked")
    func lockoutHoldsStrokes() {
        var h = Harness()
        for _ in 1...5 {
            #expect(h.machine.strokeAdmission(at: h.now) == .ready)
            #expect(h.send(.stroke(nodes: [0, 1, 2, 5])).verified.count == 1)
            h.send(.verified(patternName: nil))
            h.fireTimer()
        }
        #expect(h.machine.strokeAdmission(at: h.now) == .lockedOut(seconds: 30))
        #expect(h.send(.stroke(nodes: [0, 1, 2, 5])).verified.isEmpty)
        #expect(h.machine.attempts.failures == 5)
        h.advance(.milliseconds(500))
        #expect(h.machine.strokeAdmission(at: h.now) == .lockedOut(seconds: 30))
        h.advance(.milliseconds(29_000))
        #expect(h.machine.strokeAdmission(at: h.now) == .lockedOut(seconds: 1))
    }

    @Test("a short stroke is refused as too short and not counted; nodes off the grid or repeated are ignored")
    func shortAndInvalidStrokes() {
        var h = Harness()
        #expect(h.send(.stroke(nodes: [0, 1])).persisted.isEmpty)
        #expect(h.reports == [.tooShort(nodes: 2)])
        #expect(h.machine.strokeAdmission(at: h.now) == .ready)
        #expect(h.send(.stroke(nodes: [0, 1, 1, 2])).isEmpty)
        #expect(h.send(.stroke(nodes: [0, 1, 2, 9])).isEmpty)
        #expect(h.send(.stroke(nodes: [])).isEmpty)
        #expect(h.machine.attempts.failures == 0)
        #expect(h.send(.stroke(nodes: [0, 1, 2, 3])).verified.count == 1)
    }

    @Test("enrollment takes no strokes from another face")
    func enrollmentRefusesStrokes() {
        var h = Harness(mode: .enroll)
        #expect(h.machine.strokeAdmission(at: h.now) == .busy)
        h.send(.stroke(nodes: [0, 1, 2, 5]))
        #expect(h.machine.phase == .enrollFirst)
    }
}
