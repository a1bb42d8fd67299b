import Testing
@testable import GridlockCore

extension Array where Element == LockEffect {
    var answers: [(check: CheckID, verdict: CheckVerdict)] {
        compactMap { if case .answer(let check, let verdict) = $0 { (check, verdict) } else { nil } }
    }
}

/// Strokes from another face (`LockEvent.stroke`): the same way to a check as the panel's,
/// and every one answered once, to the id it came with.
@Suite struct LockMachineStrokeTests {
    @Test("a stroke from another face is counted and persisted before it is verified, like a drawn one")
    func strokeIsCountedThenVerified() {
        var drawn = Harness()
        let drawnEffects = drawn.draw([1, 2, 3, 6, 9])
        var sent = Harness()
        let effects = sent.send(.stroke(nodes: [0, 1, 2, 5, 8], check: CheckID(7)))
        #expect(effects.persisted == drawnEffects.persisted)
        #expect(effects.verified == drawnEffects.verified)
        #expect(sent.machine.phase == .verifying(nodes: [0, 1, 2, 5, 8], check: CheckID(7)))
        #expect(effects.answers.isEmpty)
        let persistIndex = effects.firstIndex { if case .persist = $0 { true } else { false } }
        let verifyIndex = effects.firstIndex { if case .verify = $0 { true } else { false } }
        #expect(persistIndex != nil && verifyIndex != nil && persistIndex! < verifyIndex!)
    }

    @Test("the verdict goes to the id the stroke came with: accepted, or rejected with what remains before a lockout")
    func verdictCarriesTheID() {
        var h = Harness()
        h.send(.stroke(nodes: [0, 1, 2, 5], check: CheckID(3)))
        #expect(h.send(.verified(patternName: "door")).answers.map(\.check) == [CheckID(3)])
        #expect(h.effects.answers.map(\.verdict) == [.accepted])

        var wrong = Harness()
        wrong.send(.stroke(nodes: [0, 1, 2, 5], check: CheckID(4)))
        #expect(wrong.send(.verified(patternName: nil)).answers.map(\.verdict) == [.rejected(failures: 1, remainingBeforeLockout: 4)])
        #expect(wrong.effects.answers.map(\.check) == [CheckID(4)])
    }

    @Test("the panel's own stroke is answered to nobody")
    func panelStrokeHasNoAsker() {
        var h = Harness()
        h.draw([1, 2, 3, 6])
        #expect(h.send(.verified(patternName: nil)).answers.isEmpty)
        #expect(h.reports == [.rejected(nodes: 4, failures: 1)])
    }

    @Test("a stroke while a check runs, or while a finger is on the panel, is answered busy and not counted")
    func busyStrokeIsAnsweredBusy() {
        var h = Harness()
        h.send(.stroke(nodes: [0, 1, 2, 5], check: CheckID(1)))
        #expect(h.machine.strokeAdmission(at: h.now) == .busy)
        let second = h.send(.stroke(nodes: [0, 1, 2, 5], check: CheckID(2)))
        #expect(second.answers.map(\.check) == [CheckID(2)])
        #expect(second.answers.map(\.verdict) == [.busy])
        #expect(second.persisted.isEmpty && second.verified.isEmpty)
        #expect(h.machine.attempts.failures == 1)
        // The first check is still the one being verified, and its verdict still goes to it.
        #expect(h.send(.verified(patternName: nil)).answers.map(\.check) == [CheckID(1)])

        var touching = Harness()
        touching.send(.touch(.down(touching.grid.center(of: 0))))
        #expect(touching.machine.strokeAdmission(at: touching.now) == .busy)
        #expect(touching.send(.stroke(nodes: [0, 1, 2, 5], check: CheckID(9))).answers.map(\.verdict) == [.busy])
        #expect(touching.effects.persisted.isEmpty)
        #expect(touching.machine.attempts.failures == 0)
    }

    @Test("the fifth wrong stroke locks out, and a stroke during the lockout is answered so, not checked")
    func lockoutHoldsStrokes() {
        var h = Harness()
        for attempt in 1...5 {
            #expect(h.machine.strokeAdmission(at: h.now) == .ready)
            #expect(h.send(.stroke(nodes: [0, 1, 2, 5], check: CheckID(attempt))).verified.count == 1)
            h.send(.verified(patternName: nil))
            h.fireTimer()
        }
        #expect(h.machine.strokeAdmission(at: h.now) == .lockedOut(seconds: 30))
        let during = h.send(.stroke(nodes: [0, 1, 2, 5], check: CheckID(6)))
        #expect(during.verified.isEmpty)
        #expect(during.answers.map(\.verdict) == [.lockedOut(seconds: 30)])
        #expect(h.machine.attempts.failures == 5)
        h.advance(.milliseconds(500))
        #expect(h.machine.strokeAdmission(at: h.now) == .lockedOut(seconds: 30))
        h.advance(.milliseconds(29_000))
        #expect(h.machine.strokeAdmission(at: h.now) == .lockedOut(seconds: 1))
    }

    @Test("a short stroke is answered too short and not counted; nodes off the grid, repeated or none are answered so")
    func shortAndInvalidStrokes() {
        var h = Harness()
        let short = h.send(.stroke(nodes: [0, 1], check: CheckID(1)))
        #expect(short.persisted.isEmpty)
        #expect(short.answers.map(\.verdict) == [.tooShort])
        #expect(h.reports == [.tooShort(nodes: 2)])
        #expect(h.machine.strokeAdmission(at: h.now) == .ready)
        for (index, nodes) in [[0, 1, 1, 2], [0, 1, 2, 9], []].enumerated() {
            let effects = h.send(.stroke(nodes: nodes, check: CheckID(10 + index)))
            #expect(effects.answers.map(\.check) == [CheckID(10 + index)])
            #expect(effects.answers.map(\.verdict) == [.notOnGrid])
            #expect(effects.persisted.isEmpty && effects.verified.isEmpty)
        }
        #expect(h.machine.attempts.failures == 0)
        #expect(h.send(.stroke(nodes: [0, 1, 2, 3], check: CheckID(20))).verified.count == 1)
    }

    @Test("a failure that cannot be written answers not recorded, to the id that asked")
    func unrecordedStrokeIsAnswered() {
        var h = Harness()
        h.send(.stroke(nodes: [0, 1, 2, 5], check: CheckID(5)))
        let effects = h.send(.persistFailed)
        #expect(effects.answers.map(\.check) == [CheckID(5)])
        #expect(effects.answers.map(\.verdict) == [.notRecorded])
    }

    @Test("enrollment takes no strokes from another face: each is answered busy")
    func enrollmentRefusesStrokes() {
        var h = Harness(mode: .enroll)
        #expect(h.machine.strokeAdmission(at: h.now) == .busy)
        #expect(h.send(.stroke(nodes: [0, 1, 2, 5], check: CheckID(1))).answers.map(\.verdict) == [.busy])
        #expect(h.machine.phase == .enrollFirst)
    }

    /// Random interleavings of the panel's finger, faces' strokes, verdicts, failed writes,
    /// timers, reloads and resets: every stroke is answered exactly once, and the only one
    /// not yet answered is the one the machine is verifying. So no asker is forgotten, and
    /// no lost answer can leave every later check `busy`.
    @Test("every stroke is answered exactly once, whatever comes between", arguments: 0..<40)
    func everyStrokeAnsweredOnce(seed: UInt64) {
        var random = SeededNumbers(state: seed)
        var h = Harness()
        var sent: Set<CheckID> = []
        var answered: [CheckID: Int] = [:]
        var nextID = 1
        for _ in 0..<300 {
            let effects: [LockEffect]
            switch random.next(0...8) {
            case 0, 1:
                let nodes = Array([0, 1, 2, 5, 8, 7, 4, 3, 6].prefix(random.next(0...5)))
                let id = CheckID(nextID)
                nextID += 1
                sent.insert(id)
                effects = h.send(.stroke(nodes: nodes, check: id))
            case 2: effects = h.send(.verified(patternName: random.next(0...3) == 0 ? "door" : nil))
            case 3: effects = h.send(.persistFailed)
            case 4: effects = h.send(.actionFinished)
            case 5:
                h.advance(.milliseconds(Int64(random.next(0...2999))))
                effects = h.send(.timerFired)
            case 6: effects = h.draw([1, 2, 3, 6, 9].prefix(random.next(2...5)).map { $0 })
            case 7: effects = h.machine.clearFailures(at: h.now)
            default: effects = h.machine.reconfigure(layout: h.grid, settings: h.machine.settings, at: h.now, reason: .gridChanged)
            }
            for answer in effects.answers { answered[answer.check, default: 0] += 1 }
        }
        #expect(answered.values.allSatisfy { $0 == 1 })
        #expect(Set(answered.keys).isSubset(of: sent))
        let unanswered = sent.subtracting(answered.keys)
        if case .verifying(_, let check?) = h.machine.phase {
            #expect(unanswered == [check])
        } else {
            #expect(unanswered.isEmpty)
        }
    }
}
