import Foundation
import GridlockCore
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// `[feedback] beeper=` and the sounds: what is accepted, and FILE:LINE for what is not.
struct ConfigFeedbackSoundTests {
    @Test("sounds and a path are read") func soundsAndAPathAreRead() throws {
        let folder = try ConfigFixtures.scratch([
            "g.conf": "[feedback]\nbeeper=dev/beep\ntick=off\nsuccess=880:80,0:40,1760:160\nlockout=20:5000\n"
        ])
        defer { ConfigFixtures.remove(folder) }
        let feedback = try ConfigLoader.load(path: folder + "/g.conf").config.feedback
        #expect(feedback.beeper == .path(folder + "/dev/beep"))
        #expect(feedback.sounds.tick == [])
        #expect(feedback.sounds.success == [
            ToneStep(hertz: 880, duration: .milliseconds(80)), ToneStep(hertz: 0, duration: .milliseconds(40)),
            ToneStep(hertz: 1760, duration: .milliseconds(160)),
        ])
        #expect(feedback.sounds.lockout == [ToneStep(hertz: 20, duration: .milliseconds(5000))])
        #expect(feedback.sounds.wrong == FeedbackSounds.standard.wrong)
    }

    @Test("predict= is read as on or off, and is on when absent") func predictIsReadAsOnOrOff() throws {
        let folder = try ConfigFixtures.scratch(["off.conf": "[feedback]\npredict=off\n", "on.conf": "[feedback]\npredict=on\n", "none.conf": ""])
        defer { ConfigFixtures.remove(folder) }
        #expect(try ConfigLoader.load(path: folder + "/off.conf").config.feedback.predictsTip == false)
        #expect(try ConfigLoader.load(path: folder + "/on.conf").config.feedback.predictsTip == true)
        #expect(try ConfigLoader.load(path: folder + "/none.conf").config.feedback.predictsTip == true)
    }

    @Test("off and auto are words") func offAndAutoAreWords() throws {
        let folder = try ConfigFixtures.scratch(["g.conf": "[feedback]\nbeeper=off\n"])
        defer { ConfigFixtures.remove(folder) }
        #expect(try ConfigLoader.load(path: folder + "/g.conf").config.feedback.beeper == .off)
        #expect(GridlockConfig().feedback.beeper == .auto)
    }

    @Test("a step without its length names the line") func aStepWithoutItsLengthNamesTheLine() {
        let path = ConfigFixtures.path("broken/bad-sound.conf")
        #expect(ConfigFixtures.diagnostics(path) == [
            "\(path):3: [feedback] wrong: expected off or HZ:MS steps separated by commas (HZ 0 for a rest or 20 to 20000, MS 1 to 5000), e.g. 1047:90,1568:140, got '220' ('220' is not a step)"
        ])
    }

    @Test("refused values", arguments: [
        ("tick=19:10", "'19:10' is not a step"), ("tick=20001:10", "'20001:10' is not a step"),
        ("tick=2000:0", "'2000:0' is not a step"), ("tick=2000:5001", "'2000:5001' is not a step"),
        ("tick=2000:10,", "'' is not a step"), ("tick=-5:10", "'-5:10' is not a step"),
        ("tick=2000:10:5", "'2000:10:5' is not a step"), ("tick=", "'' is not a step"),
        ("tick=1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1", "at most 8 steps, got 9"),
        ("beeper=", "expected auto, off or the path of an input device with EV_SND, got nothing"),
    ])
    func refusedValues(_ line: String, _ words: String) throws {
        let folder = try ConfigFixtures.scratch(["g.conf": "[feedback]\n\(line)\n"])
        defer { ConfigFixtures.remove(folder) }
        let diagnostics = ConfigFixtures.diagnostics(folder + "/g.conf")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("\(folder)/g.conf:2: [feedback] ") == true)
        #expect(diagnostics.first?.contains(words) == true, "\(diagnostics)")
    }
}
