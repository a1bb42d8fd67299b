import Foundation
import GridlockConfiguration
import GridlockCore
import GridlockDisplay
import GridlockRendering
import LinuxSys
import Testing
@testable import GridlockPanel

/// SIGHUP in the panel's face (`gridlock-panel`, `systemctl reload gridlock-panel`): the face
/// file judged again off the loop; a good one changes the look and the grid's place, a bad
/// one changes nothing, and what needs a restart says so.
@Suite("the panel's face reloads its face file")
struct PanelFaceReloadTests {
    final class Face {
        let loop: EventLoop
        let screen: LockScreen
        let face: PanelFace
        let path: String
        private(set) var scenes: [Scene] = []
        private(set) var reloads: [String] = []

        init(folder: String, text: String) throws {
            path = folder + "/face.conf"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let settings = try ThemeFile.load(path: path, look: DecodingLookInspection())
            loop = try EventLoop(signals: [])
            let size = Size(width: 320, height: 200)
            let renderer = try SceneRenderer(size: size, theme: settings.theme)
            let clock: () -> Instant = { [unowned loop] in loop.time }
            screen = LockScreen(renderer: renderer, output: NullOutput(size: size), clock: clock)
            screen.coalescesFrames = false
            let parts = PanelParts(loop: loop, screen: screen, touch: ScriptedTouchSource(), settings: settings)
            // No gridlockd: the face says nothing can be checked, and draws.
            face = PanelFace(parts: parts, socket: folder + "/no-gridlockd.sock", faceFile: path)
            face.onPresent = { [unowned self] in scenes.append($0) }
            face.onReloading = { [unowned self] started in reloads.append(started == nil ? "ready" : "reloading") }
            face.start()
        }

        /// Writes the file, sends the face its SIGHUP and runs the loop until it took it up
        /// or refused it; what the journal said meanwhile.
        func reload(to text: String) throws -> [String] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let recorder = JournalRecorder()
            let before = reloads.count
            try Journal.$recorder.withValue(recorder) {
                face.reload()
                try loop.run(until: { [unowned self] in reloads.count == before + 2 }, afterEach: { [unowned self] in face.endRound() })
            }
            return recorder.messages
        }

        var theme: Theme? { screen.renderer?.theme }

        func end() { face.stopParts() }
    }

    @Test("a good file: the new colour and the grid's new size on the next frame, the journal says from where")
    func goodFileTakesEffect() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let face = try Face(folder: folder, text: "[theme]\nnode=#5A6270\n[grid]\nsize=0.8\n")
        defer { face.end() }
        let side = try #require(face.scenes.last).layout.cellWidth
        let journal = try face.reload(to: "[theme]\nnode=#FF00FF\n[grid]\nsize=0.4\n")
        #expect(face.reloads == ["reloading", "ready"])
        #expect(face.theme?.node == Color(hex: "#FF00FF"))
        let after = try #require(face.scenes.last).layout.cellWidth
        #expect(abs(after - side / 2) < 0.01, "cell \(side) then \(after)")
        #expect(journal.contains("face file reloaded from \(face.path)"), "\(journal)")
        #expect(!journal.contains { $0.contains("restart") }, "\(journal)")
    }

    @Test("a broken file: each problem at FILE:LINE, the running look kept")
    func brokenFileChangesNothing() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let face = try Face(folder: folder, text: "[theme]\nnode=#FF00FF\n")
        defer { face.end() }
        let frames = face.scenes.count
        let journal = try face.reload(to: "[theme]\nnode=#FF00FF\n[grid]\nsize=7\n")
        #expect(journal.contains { $0.hasPrefix("reload: \(face.path):4:") }, "\(journal)")
        #expect(journal.last == "reload failed; keeping the running face file", "\(journal)")
        #expect(face.theme?.node == Color(hex: "#FF00FF"))
        #expect(face.scenes.count == frames, "a refused file draws nothing new")
        // A hash handed to a face's file by mistake is refused at its line, as at a start.
        let secret = try face.reload(to: "[pattern door]\nhash=$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFzaA\n")
        #expect(secret.contains { $0.hasPrefix("reload: \(face.path):1:") && $0.contains("[pattern door]") }, "\(secret)")
        #expect(face.reloads == ["reloading", "ready", "reloading", "ready"])
    }

    @Test("a new display rotation or touchscreen: the rest taken up, the devices' change left to a restart")
    func devicesWaitForARestart() throws {
        let folder = try makeTemporaryDirectory()
        defer { removeDirectory(folder) }
        let face = try Face(folder: folder, text: "[display]\nblank-after=0\n")
        defer { face.end() }
        let journal = try face.reload(to: "[display]\nrotation=90\nblank-after=30\n[theme]\nnode=#00FF00\n")
        #expect(journal.contains {
            $0.hasPrefix("reload: changes to [display] and [touch]") && $0.contains("systemctl restart gridlock-panel")
        }, "\(journal)")
        #expect(face.theme?.node == Color(hex: "#00FF00"))
        #expect(face.screen.rotation == .none)
        let again = try face.reload(to: "[display]\nrotation=90\nblank-after=5\n[theme]\nnode=#00FF00\n")
        #expect(again.contains { $0.hasPrefix("reload: changes to [display]") }, "still not the face's rotation: \(again)")
        let quiet = try face.reload(to: "[display]\nblank-after=5\n[theme]\nnode=#00FF00\n")
        #expect(!quiet.contains { $0.contains("restart") }, "blank-after= alone is taken up: \(quiet)")
    }
}
