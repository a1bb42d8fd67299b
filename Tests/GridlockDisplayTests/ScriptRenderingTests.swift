import GridlockCore
import GridlockDisplay
import GridlockRendering
import Testing

/// Messages in scripts other than Latin, checked by their pixels: the font the config names
/// lacks these characters (DejaVu Sans has Arabic but no Chinese or Thai), so what appears
/// comes from fontconfig's fallback (the test packages install WenQuanYi Micro Hei, Loma and Lohit Devanagari;
/// with another Chinese or Thai font installed as well, fontconfig may prefer that one, and
/// the "same pixels as naming the font" checks name the wrong one).
@Suite struct ScriptRenderingTests {
    static let dejaVu = FontChoice.file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    static let chineseFont = FontChoice.file("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
    static let thaiFont = FontChoice.file("/usr/share/fonts/truetype/tlwg/Loma.ttf")
    static let devanagariFont = FontChoice.file("/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf")

    /// The prompt `text` drawn on an 800x480 ready scene.
    struct Drawn {
        let buffer: ShadowBuffer
        let band: Rect
        let layout: (fontSize: Double, lines: Int, missingGlyphs: Int)
        let background: Color

        init(_ text: String, font: FontChoice = .standard, fallback: Bool = true) throws {
            var theme = Theme()
            theme.prompt = text
            theme.font = font
            let scene = try Scenes(width: 800, height: 480).ready
            let renderer = try SceneRenderer(size: scene.layout.frame.size, theme: theme, fontFallback: fallback)
            renderer.render(scene, damage: nil)
            buffer = renderer.buffer
            band = scene.metrics.messageBand.integral
            layout = renderer.messageLayout(for: .prompt, in: scene.metrics)
            background = theme.background
        }

        /// A pixel of text: far enough from the background that antialiasing's faint edge is left out.
        func isInk(_ x: Int, _ y: Int) -> Bool { !isClose(buffer.pixel(x: x, y: y), background, within: 60) }

        var inkColumns: [Int] {
            (Int(band.minX)..<Int(band.maxX)).filter { x in (Int(band.minY)..<Int(band.maxY)).contains { isInk(x, $0) } }
        }

        /// Runs of empty columns between the first and the last column with ink.
        var gapsInTheInk: Int {
            let columns = inkColumns
            return zip(columns, columns.dropFirst()).filter { $1 - $0 > 1 }.count
        }

        /// The x of the highest ink pixel (the top of the tallest letter).
        var columnOfTheTallestInk: Int? {
            for y in Int(band.minY)..<Int(band.maxY) {
                if let x = (Int(band.minX)..<Int(band.maxX)).first(where: { isInk($0, y) }) { return x }
            }
            return nil
        }

        func differingPixels(from other: Drawn) -> Int {
            var differing = 0
            for y in Int(band.minY)..<Int(band.maxY) {
                for x in Int(band.minX)..<Int(band.maxX) where buffer.pixel(x: x, y: y) != other.buffer.pixel(x: x, y: y) {
                    differing += 1
                }
            }
            return differing
        }
    }

    @Test("chinese prompt is drawn from the fallback font") func chinesePromptIsDrawnFromTheFallbackFont() throws {
        let prompt = "请画出解锁图案"
        let drawn = try Drawn(prompt)
        #expect(drawn.layout.missingGlyphs == 0)
        // Every character came from the one installed font with Chinese: the same pixels as
        // naming that font outright.
        let named = try Drawn(prompt, font: Self.chineseFont)
        #expect(drawn.differingPixels(from: named) == 0)
        // A font without them draws boxes instead: clearly other pixels.
        let boxes = try Drawn(prompt, font: Self.dejaVu, fallback: false)
        #expect(boxes.layout.missingGlyphs == 7)
        #expect(drawn.differingPixels(from: boxes) > 500)
        #expect(drawn.inkColumns.count > 100)
    }

    @Test("arabic letters are joined") func arabicLettersAreJoined() throws {
        // Beh, yeh, teh: each joins its neighbours, so the word is one unbroken stroke.
        let joined = try Drawn("بيت")
        #expect(joined.layout.missingGlyphs == 0)
        #expect(!joined.inkColumns.isEmpty)
        #expect(joined.gapsInTheInk == 0)
        // The same letters kept apart by zero-width non-joiners stand in their isolated forms.
        let apart = try Drawn("ب\u{200C}ي\u{200C}ت")
        #expect(apart.gapsInTheInk >= 1)
        #expect(joined.differingPixels(from: apart) > 100)
    }

    @Test("arabic runs right to left") func arabicRunsRightToLeft() throws {
        // Alef (tall) then beh (low): read from the right, the alef stands on the right.
        let drawn = try Drawn("اب")
        let columns = drawn.inkColumns
        let tallest = try #require(drawn.columnOfTheTallestInk)
        let middle = (columns.first! + columns.last!) / 2
        #expect(tallest > middle)
        // Forced left to right (U+202D ... U+202C), the alef comes first on the left: the
        // check above tells the two orders apart.
        let forced = try Drawn("\u{202D}اب\u{202C}")
        let forcedColumns = forced.inkColumns
        #expect(try #require(forced.columnOfTheTallestInk) < (forcedColumns.first! + forcedColumns.last!) / 2)
    }

    @Test("latin and thai in one message") func latinAndThaiInOneMessage() throws {
        let prompt = "Draw รูปแบบ"
        let drawn = try Drawn(prompt)
        #expect(drawn.layout.missingGlyphs == 0)
        #expect(drawn.layout.lines == 1)
        let boxes = try Drawn(prompt, font: Self.dejaVu, fallback: false)
        #expect(boxes.layout.missingGlyphs == 6)
        #expect(drawn.differingPixels(from: boxes) > 300)
        // Thai alone comes from the one installed font with Thai: the same pixels as naming it.
        let thai = try Drawn("รูปแบบ")
        #expect(thai.differingPixels(from: try Drawn("รูปแบบ", font: Self.thaiFont)) == 0)
        #expect(thai.inkColumns.count > 40)
    }

    @Test("hindi prompt is drawn from the fallback font") func hindiPromptIsDrawnFromTheFallbackFont() throws {
        let prompt = "पैटर्न बनाएं"
        let drawn = try Drawn(prompt)
        #expect(drawn.layout.missingGlyphs == 0)
        #expect(drawn.differingPixels(from: try Drawn(prompt, font: Self.devanagariFont)) == 0)
        let boxes = try Drawn(prompt, font: Self.dejaVu, fallback: false)
        #expect(boxes.layout.missingGlyphs > 0)
        #expect(drawn.differingPixels(from: boxes) > 300)
    }

    @Test("text longer than the screen is wrapped and shrunk inside the band", arguments: [
        String(repeating: "Draw your unlock pattern to open the door. ", count: 12),
        String(repeating: "W", count: 300),
        String(repeating: "请画出解锁图案", count: 20),
    ])
    func textLongerThanTheScreenIsWrappedAndShrunkInsideTheBand(_ prompt: String) throws {
        let drawn = try Drawn(prompt)
        #expect(drawn.layout.lines > 1)
        #expect(drawn.layout.fontSize < 21.6)
        // Nothing reaches the band's edges, where the clip would cut it.
        let band = drawn.band
        for x in Int(band.minX)..<Int(band.maxX) {
            #expect(!drawn.isInk(x, Int(band.minY)) && !drawn.isInk(x, Int(band.maxY) - 1), "ink at the band's edge, x \(x)")
        }
        for y in Int(band.minY)..<Int(band.maxY) {
            #expect(!drawn.isInk(Int(band.minX) + 4, y) && !drawn.isInk(Int(band.maxX) - 5, y), "ink at the band's side, y \(y)")
        }
        #expect(drawn.inkColumns.count > 500)
    }

    @Test("a slightly long message shrinks onto one line") func aSlightlyLongMessageShrinksOntoOneLine() throws {
        let drawn = try Drawn("Draw your unlock pattern to open the front door of building number seventeen")
        #expect(drawn.layout.lines == 1)
        #expect(drawn.layout.fontSize < 21.6)
        #expect(drawn.layout.fontSize > 21.6 * 0.75)
    }

    @Test("an empty message draws nothing") func anEmptyMessageDrawsNothing() throws {
        let drawn = try Drawn("")
        #expect(drawn.inkColumns.isEmpty)
    }
}
