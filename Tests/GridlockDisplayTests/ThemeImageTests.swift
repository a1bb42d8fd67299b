import Foundation
import Glibc
import GridlockCore
@testable import GridlockDisplay
@testable import GridlockRendering
@testable import GridlockThemeFiles
import Testing

/// PNG files for themes, made in a scratch folder from solid blocks of colour.
struct ThemeImageFiles {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gridlock-theme-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// A `width`x`height` PNG, `left` in its left half and `right` (or `left`) in the rest.
    @discardableResult
    func png(_ name: String, width: Int, height: Int, _ left: Color, _ right: Color? = nil) throws -> String {
        let buffer = try ShadowBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { buffer.setPixel(x: x, y: y, to: x < width / 2 ? left : right ?? left) }
        }
        let path = "\(folder)/\(name)"
        try PNGFile.write(buffer, to: path)
        return path
    }

    /// A file of exactly these bytes.
    @discardableResult
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = "\(folder)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The PNG signature and an IHDR chunk claiming `width`x`height`, and nothing else.
    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        // In typed parts: Swift 6.0 gives up type-checking the literals in one long sum.
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr: [UInt8] = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        return signature + bigEndian(13) + Array("IHDR".utf8) + ihdr + bigEndian(0)
    }

    static let red = Color(red: 220, green: 30, blue: 30)
    static let green = Color(red: 30, green: 200, blue: 60)
    static let blue = Color(red: 30, green: 60, blue: 230)
    static let yellow = Color(red: 240, green: 210, blue: 20)

    /// A theme using every image key, with sizes other than the standard ones.
    func fullTheme() throws -> Theme {
        var theme = Theme()
        theme.nodeImage = try png("node.png", width: 10, height: 10, Self.red)
        theme.selectedImage = try png("selected.png", width: 40, height: 20, Self.blue)
        theme.errorImage = try png("error.png", width: 64, height: 64, Self.yellow)
        theme.successImage = try png("success.png", width: 3, height: 7, Self.green)
        theme.backgroundImage = try png("backdrop.png", width: 40, height: 20, Color(red: 40, green: 40, blue: 90), Color(red: 90, green: 40, blue: 40))
        theme.nodeSize = 0.4
        theme.lineWidth = 0.12
        theme.lineColor = Color(red: 0, green: 255, blue: 255)
        return theme
    }
}

@Suite struct ThemeImageTests {
    func rendered(_ scene: Scene, _ theme: Theme) throws -> ShadowBuffer {
        let renderer = try SceneRenderer(size: scene.layout.frame.size, theme: theme)
        renderer.render(scene, damage: nil)
        return renderer.buffer
    }

    @Test("node images replace the rings centred and scaled to node size", arguments: testSizes)
    func nodeImagesReplaceTheRingsCentredAndScaledToNodeSize(width: Double, height: Double) throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        var theme = Theme()
        theme.nodeImage = try files.png("node.png", width: 10, height: 10, ThemeImageFiles.red)
        theme.selectedImage = try files.png("selected.png", width: 40, height: 20, ThemeImageFiles.blue)
        theme.nodeSize = 0.3
        let scenes = try Scenes(width: width, height: height)
        let buffer = try rendered(scenes.drawing, theme)
        let side = theme.nodeSize * scenes.layout.cell
        for node in 3..<9 {
            let c = scenes.center(node)
            // A 10-pixel image scaled up to the node's diameter: the same colour out to near its edge.
            for (dx, dy) in [(0.0, 0.0), (side / 2 - 3, 0), (0, -(side / 2 - 3)), (-(side / 2 - 3), side / 2 - 3)] {
                let p = Point(x: c.x + dx, y: c.y + dy)
                #expect(isClose(pixel(buffer, at: p), ThemeImageFiles.red, within: 2), "node \(node + 1) at \(dx),\(dy)")
            }
            #expect(pixel(buffer, at: Point(x: c.x + side / 2 + 4, y: c.y)) == theme.background, "node \(node + 1)")
        }
        for node in 0..<3 {
            let c = scenes.center(node)
            // Twice as wide as high, proportions kept: the full width, half the height.
            #expect(isClose(pixel(buffer, at: Point(x: c.x, y: c.y - side / 4 + 3)), ThemeImageFiles.blue, within: 2))
            #expect(pixel(buffer, at: Point(x: c.x, y: c.y - side / 4 - 4)) == theme.background, "node \(node + 1)")
        }
    }

    @Test("error and success images follow the look") func errorAndSuccessImagesFollowTheLook() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        let theme = try files.fullTheme()
        let scenes = try Scenes(width: 800, height: 480)
        let failed = try rendered(scenes.failed, theme)
        let succeeded = try rendered(scenes.succeeded, theme)
        // Node 9 is away from the path 1-2-3-6; the centre of node 1 is under the path's start.
        let away = scenes.center(8)
        #expect(isClose(pixel(failed, at: away), ThemeImageFiles.red, within: 2))
        let corner = Point(x: scenes.center(0).x, y: scenes.center(0).y - theme.nodeSize * scenes.layout.cell / 2 + 3)
        #expect(isClose(pixel(failed, at: corner), ThemeImageFiles.yellow, within: 2))
        // 3x7 scaled to 0.4 of a cell high: narrow, so the sides show the backdrop.
        #expect(isClose(pixel(succeeded, at: corner), ThemeImageFiles.green, within: 2))
        let beside = Point(x: scenes.center(5).x + theme.nodeSize * scenes.layout.cell * 3 / 7 / 2 + 4, y: scenes.center(5).y)
        #expect(!isClose(pixel(succeeded, at: beside), ThemeImageFiles.green, within: 40))
    }

    @Test("line colour and width replace the looks path") func lineColourAndWidthReplaceTheLooksPath() throws {
        var theme = Theme()
        theme.lineColor = Color(red: 0, green: 255, blue: 255)
        theme.lineWidth = 0.2
        let scenes = try Scenes(width: 800, height: 480)
        let a = scenes.center(0), b = scenes.center(1)
        let buffer = try rendered(scenes.scene([0, 1]), theme)
        let expected = blend(theme.lineColor!, over: theme.background, alpha: theme.pathAlpha)
        // 0.08 of a cell off the line: inside a 0.2 line, outside the standard 0.06.
        let offLine = Point(x: (a.x + b.x) / 2, y: a.y + 0.08 * scenes.layout.cell)
        #expect(isClose(pixel(buffer, at: offLine), expected, within: 3))
        let standard = try rendered(scenes.scene([0, 1]), Theme())
        #expect(pixel(standard, at: offLine) == Theme().background)
    }

    /// `fill`, `fit`, `stretch`, `tile` and `centre` of a 40x20 image, left half one colour
    /// and right half another, on an 800x480 frame (5:3, wider than high but less than 2:1).
    @Test("background fit places the image") func backgroundFitPlacesTheImage() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        let left = ThemeImageFiles.red, right = ThemeImageFiles.green
        var theme = Theme()
        theme.backgroundImage = try files.png("backdrop.png", width: 40, height: 20, left, right)
        // Tiny nodes, out of the way of the points sampled.
        theme.nodeSize = 0.05
        let scene = Scene(layout: try GridLayout(frame: Rect(x: 0, y: 0, width: 800, height: 480)), message: .none)
        func at(_ fit: BackgroundFit, _ points: [(Int, Int, Color)]) throws {
            theme.backgroundFit = fit
            let buffer = try rendered(scene, theme)
            for (x, y, color) in points {
                #expect(isClose(buffer.pixel(x: x, y: y), color, within: 2), "\(fit) at \(x),\(y): \(buffer.pixel(x: x, y: y))")
            }
        }
        let plain = theme.background
        // Scaled 24 times to 960x480, 80 pixels cut off each side.
        // Away from the middle, where the scaled-up halves blend over about one source pixel.
        try at(.fill, [(5, 5, left), (795, 475, right), (370, 40, left), (430, 40, right)])
        // Scaled 20 times to 800x400, bands of background colour above and below.
        try at(.fit, [(5, 45, left), (795, 435, right), (400, 20, plain), (400, 460, plain)])
        try at(.stretch, [(5, 5, left), (370, 475, left), (430, 5, right), (795, 475, right)])
        try at(.tile, [(5, 5, left), (25, 5, right), (45, 25, left), (785, 465, right)])
        // 40x20 at its own size, in the middle (380...420, 230...250).
        try at(.centre, [(385, 235, left), (415, 245, right), (375, 235, plain), (5, 5, plain)])
    }

    @Test("unusable images are refused with the reason") func unusableImagesAreRefusedWithTheReason() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        let good = try files.png("good.png", width: 4, height: 3, ThemeImageFiles.red)
        let size = try ThemeImageHead(path: good).header
        #expect(size.width == 4 && size.height == 3)
        let cases: [(String, ThemeImageProblem)] = [
            (try files.file("text.png", Array("not an image\n".utf8)), .notPNG),
            (try files.file("zero.png", ThemeImageFiles.header(width: 0, height: 10)), .empty(width: 0, height: 10)),
            (try files.file("wide.png", ThemeImageFiles.header(width: 20000, height: 10)), .tooLarge(width: 20000, height: 10)),
            (try files.file("high.png", ThemeImageFiles.header(width: 16, height: 16385)), .tooLarge(width: 16, height: 16385)),
        ]
        for (path, problem) in cases {
            #expect(throws: problem) { try ThemeImageHead(path: path).header }
        }
        // Cut short: the header is fine, the pixels are missing.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let cut = try files.file("cut.png", Array(bytes.prefix(bytes.count - 20)))
        #expect(problem(cut).map { if case .undecodable = $0 { true } else { false } } == true, "\(String(describing: problem(cut)))")
        let missing = problem("\(files.folder)/missing.png")
        #expect(missing.map { if case .unreadable(let reason) = $0 { reason.contains("No such file") } else { false } } == true,
                "\(String(describing: missing))")
    }

    @Test("a 32 KB PNG declaring 16384x16384 is refused from its header, before its image data is looked at")
    func aDecompressionBombIsRefusedFromItsHeader() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        let bomb = try files.file("bomb.png", PNGBytes.bomb)
        // Its image data is a 4-byte stub: had it been inflated, the reason would be that it is short.
        #expect(problem(bomb) == .overBudget(width: 16384, height: 16384, total: 16384 * 16384))
        #expect("\(ThemeImageProblem.overBudget(width: 16384, height: 16384, total: 16384 * 16384))"
                == "the image is 16384x16384 pixels, more than the 4194304 (2048x2048) all theme images together may have")
        var theme = Theme()
        theme.backgroundImage = bomb
        #expect(throws: RenderError.imageUnusable(path: bomb, reason: "\(ThemeImageProblem.overBudget(width: 16384, height: 16384, total: 16384 * 16384))")) {
            try SceneRenderer(size: Size(width: 320, height: 240), theme: theme)
        }
    }

    @Test("the pixel budget is for all theme images together: the image that goes over it is named, with the total")
    func theBudgetIsSummedOverAllImages() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        // 1024x1024 at 1 bit of grey: a quarter of the budget each.
        let quarter = PNGBytes.png(width: 1024, height: 1024, depth: 1, colour: 0, imageData: PNGBytes.zlib(
            (0..<1024).flatMap { _ in [0] + Array(repeating: 0xAA, count: 128) }))
        let paths = try (1...5).map { try files.file("quarter-\($0).png", quarter) }
        #expect(ThemeImageCheck.problems(of: Array(paths.prefix(4))).isEmpty)
        let over = ThemeImageCheck.problems(of: paths)
        #expect(over.map(\.index) == [4])
        #expect(over.first?.problem == .overBudget(width: 1024, height: 1024, total: 5 << 20))
        var theme = Theme()
        (theme.nodeImage, theme.selectedImage, theme.errorImage, theme.successImage) = (paths[0], paths[1], paths[2], paths[3])
        #expect(throws: Never.self) { try SceneRenderer(size: Size(width: 320, height: 240), theme: theme) }
        theme.backgroundImage = paths[4]
        #expect(throws: RenderError.self) { try SceneRenderer(size: Size(width: 320, height: 240), theme: theme) }
    }

    @Test("a reload naming a FIFO as the font or an image is refused at once, and the old theme stays")
    func aFIFOInAReloadIsRefusedWithoutBlocking() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        let fifo = "\(files.folder)/named.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reasons = withoutHanging("a reload naming a FIFO", releasing: [fifo]) { () -> [String] in
            guard let renderer = try? SceneRenderer(size: Size(width: 320, height: 240), theme: Theme()) else { return ["no renderer"] }
            var font = Theme(), image = Theme()
            font.font = .file(fifo)
            image.nodeImage = fifo
            var reasons: [String] = []
            for theme in [font, image] {
                do throws(RenderError) { try renderer.setTheme(theme) } catch { reasons.append("\(error)") }
            }
            return reasons + [renderer.theme == Theme() ? "old theme kept" : "theme changed"]
        }
        #expect(reasons == [
            "cannot load font \(fifo): it is a FIFO, not a regular file", "cannot use image \(fifo): it is a FIFO, not a regular file",
            "old theme kept",
        ])
    }

    @Test("the renderer takes an image the config check decoded only while the file holds the same chunks")
    func aCheckedImageIsDecodedOnceUnlessItsFileChanged() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        let path = try files.png("backdrop.png", width: 40, height: 20, ThemeImageFiles.red)
        let checked = ThemeImageCheck.load([path], stoppingAtFirst: false)
        let kept = try #require(checked.images.first)
        let shelf = [path: kept]
        #expect(ThemeImageCheck.load([path], stoppingAtFirst: true, shelved: shelf).images.first?.image === kept.image)
        // Rewritten in place, same size: its chunks' CRCs differ, so it is decoded anew.
        try files.png("backdrop.png", width: 40, height: 20, ThemeImageFiles.green)
        let reloaded = ThemeImageCheck.load([path], stoppingAtFirst: true, shelved: shelf).images
        #expect(reloaded.first.map { $0.image !== kept.image } == true)
        #expect(reloaded.first?.layout != kept.layout)
    }

    /// What loading it as the one image of a theme says: the whole file checked and decoded.
    func problem(_ path: String) -> ThemeImageProblem? {
        ThemeImageCheck.problems(of: [path]).first?.problem
    }

    @Test("a renderer refuses an unusable image and a reload keeps the old theme") func aRendererRefusesAnUnusableImageAndAReloadKeepsTheOldTheme() throws {
        let files = try ThemeImageFiles()
        defer { files.remove() }
        var broken = Theme()
        broken.nodeImage = try files.file("text.png", Array("no".utf8))
        #expect(throws: RenderError.imageUnusable(path: broken.nodeImage!, reason: "\(ThemeImageProblem.notPNG)")) {
            try SceneRenderer(size: Size(width: 320, height: 240), theme: broken)
        }
        let good = try files.fullTheme()
        let renderer = try SceneRenderer(size: Size(width: 320, height: 240), theme: good)
        #expect(throws: RenderError.self) { try renderer.setTheme(broken) }
        #expect(renderer.theme == good)
    }

    @Test("a new display size reads no file again: the decoded images are scaled anew")
    func resizingKeepsTheDecodedImages() throws {
        let files = try ThemeImageFiles()
        let theme = try files.fullTheme()
        let small = try SceneRenderer(size: Size(width: 320, height: 240), theme: theme)
        files.remove()
        let large = try small.resized(to: Size(width: 800, height: 480))
        let scenes = try Scenes(width: 800, height: 480)
        large.render(scenes.ready, damage: nil)
        #expect(isClose(pixel(large.buffer, at: scenes.center(8)), ThemeImageFiles.red, within: 2))
        // Both keep drawing their own size's background.
        let smallScenes = try Scenes(width: 320, height: 240)
        small.render(smallScenes.ready, damage: nil)
        large.render(scenes.ready, damage: nil)
        #expect(isClose(pixel(small.buffer, at: smallScenes.center(8)), ThemeImageFiles.red, within: 2))
        #expect(isClose(large.buffer.pixel(x: 2, y: 470), Color(red: 40, green: 40, blue: 90), within: 3))
        #expect(isClose(small.buffer.pixel(x: 2, y: 230), Color(red: 40, green: 40, blue: 90), within: 3))
    }
}
