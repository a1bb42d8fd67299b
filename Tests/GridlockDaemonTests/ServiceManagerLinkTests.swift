import Testing
@testable import GridlockDaemon

/// What systemd is told about readiness and what the panel shows.
@Suite struct ServiceManagerLinkTests {
    final class Sent {
        var states: [String] = []
    }

    /// `frameDrawn` outside `#expect`, whose closure cannot mutate.
    func draw(_ link: inout ServiceManagerLink, _ onScreen: Bool) -> Bool {
        link.frameDrawn(onScreen: onScreen)
    }

    @Test("with a display: READY once, with the lock screen showing, and nothing more while nothing changes")
    func readyOnceWithTheFirstFrameOnScreen() {
        let sent = Sent()
        var link = ServiceManagerLink { sent.states.append($0) }
        #expect(draw(&link, true) == true)
        #expect(draw(&link, true) == false)
        #expect(draw(&link, true) == false)
        #expect(sent.states == ["READY=1\n" + ServiceManagerLink.showing])
    }

    @Test("with no display yet: READY says so, and the status follows the display as it comes and goes")
    func statusFollowsTheDisplay() {
        let sent = Sent()
        var link = ServiceManagerLink { sent.states.append($0) }
        #expect(draw(&link, false) == true)
        #expect(draw(&link, false) == false)
        #expect(draw(&link, true) == false)
        #expect(draw(&link, true) == false)
        #expect(draw(&link, false) == false)
        #expect(sent.states == [
            "READY=1\n" + ServiceManagerLink.waiting, ServiceManagerLink.showing, ServiceManagerLink.waiting,
        ])
    }

    @Test("the verifier alone: READY once, saying it checks its faces' strokes, never waiting for a display")
    func verifierAloneSaysWhatItDoes() {
        let sent = Sent()
        var link = ServiceManagerLink { sent.states.append($0) }
        link.drawsNothing = true
        #expect(draw(&link, false) == true)
        #expect(draw(&link, false) == false)
        #expect(sent.states == ["READY=1\n" + ServiceManagerLink.serving])
    }

    @Test("the other messages") func theOtherMessages() {
        let sent = Sent()
        let link = ServiceManagerLink { sent.states.append($0) }
        link.watchdog()
        link.reloading(at: .milliseconds(12_345))
        link.reloaded()
        link.stopping()
        #expect(sent.states.count == 4)
        #expect(sent.states[0] == "WATCHDOG=1" && sent.states[2] == "READY=1" && sent.states[3] == "STOPPING=1")
        #expect(sent.states[1] == "RELOADING=1\nMONOTONIC_USEC=12345000")
    }
}
