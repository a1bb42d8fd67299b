import GridlockCore
import Testing
@testable import GridlockDaemon

/// gridlockd as the verifier alone shows its scenes to nobody, yet its first one still
/// marks start-up (systemd's READY) and each new one counts once.
@Suite struct UnseenScreenTests {
    let layout = try! GridLayout(frame: Rect(x: 0, y: 0, width: 800, height: 480))

    @Test("each new scene counts once, coalesced to the round's newest; a repeated one not at all; a redraw always")
    func eachNewSceneCountsOnce() {
        let screen = UnseenScreen(size: Size(width: 800, height: 480), rotation: .none)
        var shown: [Message] = []
        screen.onPresent = { shown.append($0.message) }
        screen.coalescesFrames = true
        let idle = Scene(layout: layout)
        var checking = Scene(layout: layout)
        checking.message = .verifying
        screen.show(idle)
        screen.show(checking)
        #expect(screen.framesPresented == 0, "nothing before the round ends")
        #expect(screen.endRound(answering: [], samples: []))
        #expect(screen.framesPresented == 1)
        screen.show(checking)
        #expect(!screen.endRound(answering: [], samples: []), "the same scene again is no new frame")
        screen.redraw(checking)
        #expect(screen.framesPresented == 2)
        #expect(screen.endRound(answering: [], samples: []), "a redraw in the round is its frame")
        #expect(shown == [.verifying, .verifying])
        #expect(screen.lookPreparation == nil && !screen.isShowingFrames && screen.connectedDisplay == nil)
    }
}
