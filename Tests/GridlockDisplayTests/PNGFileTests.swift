import Foundation
import GridlockCore
import GridlockDisplay
import GridlockRendering
import Testing

@Suite struct PNGFileTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gridlock-\(UUID().uuidString).png").path
    }

    @Test("rendered frame survives a round trip") func renderedFrameSurvivesARoundTrip() throws {
        let scenes = try Scenes(width: 480, height: 800)
        let renderer = try SceneRenderer(size: Size(width: 480, height: 800), theme: Theme())
        renderer.render(scenes.drawing, damage: nil)
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGFile.write(renderer.buffer, to: path)
        let back = try PNGFile.read(path)
        #expect(back.width == 480 && back.height == 800)
        #expect(firstDifference(back, renderer.buffer) == nil)
    }

    @Test("unwritable path is named") func unwritablePathIsNamed() throws {
        let buffer = try ShadowBuffer(width: 4, height: 4)
        let path = "/nonexistent-dir/gridlock/frame.png"
        #expect {
            try PNGFile.write(buffer, to: path)
        } throws: { error in
            guard case let .pngUnwritable(named, reason) = error as? RenderError else { return false }
            return named == path && reason.contains("No such file") && "\(error)".contains(path)
        }
    }

    @Test("missing file is named") func missingFileIsNamed() {
        let path = "/nonexistent-dir/gridlock/frame.png"
        #expect {
            _ = try PNGFile.read(path)
        } throws: { error in
            guard case let .pngUnreadable(named, reason) = error as? RenderError else { return false }
            return named == path && reason.contains("file not found")
        }
    }

    @Test("file that is not APNG is refused") func fileThatIsNotAPNGIsRefused() {
        #expect {
            _ = try PNGFile.read("/etc/passwd")
        } throws: { error in
            guard case .pngUnreadable("/etc/passwd", _) = error as? RenderError else { return false }
            return true
        }
    }
}
