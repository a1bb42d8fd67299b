import GridlockCore
import GridlockDisplay
import GridlockRendering
import Testing

@Suite struct SceneRendererTests {
    let theme = Theme()

    func rendered(_ scene: Scene, theme: Theme = Theme()) throws -> ShadowBuffer {
        let renderer = try SceneRenderer(size: scene.layout.frame.size, theme: theme)
        renderer.render(scene, damage: nil)
        return renderer.buffer
    }

    @Test("background far from everything", arguments: testSizes)
    func backgroundFarFromEverything(width: Double, height: Double) throws {
        let scenes = try Scenes(width: width, height: height)
        for scene in [scenes.ready, scenes.drawing, scenes.failed, scenes.succeeded] {
            let buffer = try rendered(scene)
            #expect(buffer.width == Int(width) && buffer.height == Int(height))
            for (x, y) in [(3, Int(height) - 4), (Int(width) - 4, Int(height) - 4)] {
                #expect(buffer.pixel(x: x, y: y) == theme.background, "(\(x), \(y)) in \(scene.message)")
            }
        }
    }

    @Test("idle rings in node colour", arguments: testSizes)
    func idleRingsInNodeColour(width: Double, height: Double) throws {
        let scenes = try Scenes(width: width, height: height)
        let metrics = scenes.ready.metrics
        for (scene, idle) in [(scenes.ready, 0..<9), (scenes.drawing, 3..<9)] {
            let buffer = try rendered(scene)
            for node in idle {
                let onRing = Point(x: scenes.center(node).x + metrics.ringRadius, y: scenes.center(node).y)
                #expect(isClose(pixel(buffer, at: onRing), theme.node, within: 8), "node \(node + 1)")
                // Inside the ring an idle node is hollow.
                #expect(pixel(buffer, at: scenes.center(node)) == theme.background, "node \(node + 1)")
            }
        }
    }

    @Test("chosen nodes have a dot and ring in their colour", arguments: testSizes)
    func chosenNodesHaveADotAndRingInTheirColour(width: Double, height: Double) throws {
        let scenes = try Scenes(width: width, height: height)
        let metrics = scenes.ready.metrics
        for (scene, color, nodes) in [
            (scenes.drawing, theme.selected, [0, 1, 2]),
            (scenes.failed, theme.error, [0, 1, 2, 5]),
            (scenes.succeeded, theme.success, [0, 1, 2, 5]),
        ] {
            let buffer = try rendered(scene)
            for node in nodes {
                let center = scenes.center(node)
                #expect(pixel(buffer, at: center) == color, "dot of node \(node + 1)")
                // Away from the path: up from the top row, right from node 6.
                let onRing = node == 5
                    ? Point(x: center.x + metrics.ringRadius, y: center.y)
                    : Point(x: center.x, y: center.y - metrics.ringRadius)
                #expect(isClose(pixel(buffer, at: onRing), color, within: 8), "ring of node \(node + 1)")
            }
        }
    }

    /// Rings are composited from masks placed on whole pixels, up to half a pixel off a
    /// centre that falls between pixels; damage only repaints `nodeBounds`, so nothing of a
    /// node may land outside it.
    @Test("a node's ring and dot stay inside its bounds wherever its centre falls", arguments: [(1001.0, 601.0), (997.0, 613.0), (803.0, 487.0)])
    func aNodesRingAndDotStayInsideItsBoundsWhereverItsCentreFalls(width: Double, height: Double) throws {
        let scenes = try Scenes(width: width, height: height)
        let scene = scenes.scene(Array(0..<9), showPath: false, message: .none)
        let metrics = scene.metrics
        let bounds = (0..<9).map { metrics.nodeBounds(center: scenes.center($0)) }
        #expect(bounds.contains { $0.minX.rounded() != $0.minX }, "no centre between pixels at \(width)x\(height)")
        let buffer = try rendered(scene)
        var outside = 0, inside = 0
        for y in 0..<buffer.height {
            for x in 0..<buffer.width where buffer.pixel(x: x, y: y) != theme.background {
                let point = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                if bounds.contains(where: { $0.contains(point) }) { inside += 1 } else { outside += 1 }
            }
        }
        #expect(outside == 0)
        #expect(inside > 9 * Int(metrics.dotRadius * metrics.dotRadius * 3))
    }

    @Test("path is the look colour at path alpha", arguments: testSizes)
    func pathIsTheLookColourAtPathAlpha(width: Double, height: Double) throws {
        let scenes = try Scenes(width: width, height: height)
        for (scene, color) in [
            (scenes.drawing, theme.selected), (scenes.failed, theme.error), (scenes.succeeded, theme.success),
        ] {
            let buffer = try rendered(scene)
            let expected = blend(color, over: theme.background, alpha: theme.pathAlpha)
            let between12 = scenes.midpoint(scenes.center(0), scenes.center(1))
            #expect(isClose(pixel(buffer, at: between12), expected, within: 3), "\(scene.message)")
            let between36 = scenes.midpoint(scenes.center(2), scenes.center(5))
            #expect(isClose(pixel(buffer, at: between36), expected, within: 3), "\(scene.message)")
        }
        // The finger segment of the drawing scene ends halfway between 3 and 6.
        let buffer = try rendered(scenes.drawing)
        let pastFinger = scenes.midpoint(scenes.midpoint(scenes.center(2), scenes.center(5)), scenes.center(5))
        #expect(pixel(buffer, at: pastFinger) == theme.background)
    }

    @Test("hidden path draws no line", arguments: testSizes)
    func hiddenPathDrawsNoLine(width: Double, height: Double) throws {
        let scenes = try Scenes(width: width, height: height)
        let hidden = scenes.scene([0, 1, 2], finger: scenes.center(5), showPath: false)
        let buffer = try rendered(hidden)
        #expect(pixel(buffer, at: scenes.midpoint(scenes.center(0), scenes.center(1))) == theme.background)
        #expect(pixel(buffer, at: scenes.midpoint(scenes.center(1), scenes.center(2))) == theme.background)
        #expect(pixel(buffer, at: scenes.center(0)) == theme.selected)
    }

    @Test("message band holds the message in its colour", arguments: testSizes)
    func messageBandHoldsTheMessageInItsColour(width: Double, height: Double) throws {
        let scenes = try Scenes(width: width, height: height)
        let band = scenes.ready.metrics.messageBand
        let prompt = try rendered(scenes.ready)
        #expect(count(theme.text, in: band, of: prompt, within: 24) > 50)
        let wrong = try rendered(scenes.failed)
        #expect(count(theme.error, in: band, of: wrong, within: 24) > 50)
        #expect(count(theme.text, in: band, of: wrong, within: 24) == 0)

        var silent = scenes.ready
        silent.message = .none
        let none = try rendered(silent)
        let pixels = Int(band.integral.width * band.integral.height)
        #expect(count(theme.background, in: band, of: none) == pixels)
    }

    @Test("non ASCII text draws", arguments: ["Entsperrmuster — ÄÖÜ", "ÄÖÜ — ß"])
    func nonASCIITextDraws(text: String) throws {
        var theme = Theme()
        theme.prompt = text
        let scenes = try Scenes(width: 800, height: 480)
        let buffer = try rendered(scenes.ready, theme: theme)
        #expect(count(theme.text, in: scenes.ready.metrics.messageBand, of: buffer, within: 24) > 20)
    }

    @Test("long message shrinks to stay inside the band") func longMessageShrinksToStayInsideTheBand() throws {
        var theme = Theme()
        theme.prompt = String(repeating: "Draw your unlock pattern, ", count: 6)
        let scenes = try Scenes(width: 480, height: 800)
        let buffer = try rendered(scenes.ready, theme: theme)
        let band = scenes.ready.metrics.messageBand
        #expect(count(theme.text, in: band, of: buffer, within: 24) > 50)
        for edge in [Rect(x: 0, y: band.minY, width: 8, height: band.height),
                     Rect(x: band.maxX - 8, y: band.minY, width: 8, height: band.height)] {
            #expect(count(theme.background, in: edge, of: buffer) == Int(edge.width * edge.height))
        }
    }

    @Test("missing font names the path and the reason") func missingFontNamesThePathAndTheReason() {
        var theme = Theme()
        theme.font = .file("/nonexistent/gridlock/NoSuchFont.ttf")
        #expect {
            _ = try SceneRenderer(size: Size(width: 800, height: 480), theme: theme)
        } throws: { error in
            guard case let .fontUnloadable(path, reason) = error as? RenderError else { return false }
            return path == "/nonexistent/gridlock/NoSuchFont.ttf" && reason.contains("No such file")
                && "\(error)".contains(path)
        }
    }

    @Test("file that is not a font is refused") func fileThatIsNotAFontIsRefused() throws {
        var theme = Theme()
        theme.font = .file("/etc/passwd")
        #expect {
            _ = try SceneRenderer(size: Size(width: 800, height: 480), theme: theme)
        } throws: { error in
            guard case let .fontUnloadable(path, reason) = error as? RenderError else { return false }
            return path == "/etc/passwd" && reason.contains("unknown file format")
        }
    }

    @Test("theme reload changes colours and a bad font keeps the old theme") func themeReloadChangesColoursAndABadFontKeepsTheOldTheme() throws {
        let scenes = try Scenes(width: 800, height: 480)
        let renderer = try SceneRenderer(size: Size(width: 800, height: 480), theme: Theme())
        var light = Theme()
        light.background = Color(hex: "#F0F0F0")!
        light.font = .file("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
        try renderer.setTheme(light)
        renderer.render(scenes.ready, damage: nil)
        #expect(renderer.buffer.pixel(x: 3, y: 476) == light.background)

        var broken = Theme()
        broken.font = .family("No Such Family Anywhere")
        #expect(throws: RenderError.self) { try renderer.setTheme(broken) }
        #expect(renderer.theme == light)
        renderer.render(scenes.ready, damage: nil)
        #expect(count(light.text, in: scenes.ready.metrics.messageBand, of: renderer.buffer, within: 24) > 50)
    }

    @Test("empty damage leaves the frame alone") func emptyDamageLeavesTheFrameAlone() throws {
        let scenes = try Scenes(width: 800, height: 480)
        let renderer = try SceneRenderer(size: Size(width: 800, height: 480), theme: Theme())
        renderer.render(scenes.ready, damage: nil)
        renderer.render(scenes.failed, damage: Damage())
        #expect(renderer.buffer.pixel(x: Int(scenes.center(0).x), y: Int(scenes.center(0).y)) == theme.background)
    }
}
