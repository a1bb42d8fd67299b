import LinuxSys
import Synchronization

/// A theme image read whole (the bounded way: a FIFO or a device named instead fails at
/// once) with its header and chunks checked; not decoded yet, so a file whose header
/// claims more pixels than the budget costs only its reading.
struct ThemeImageFile {
    let path: String
    let bytes: [UInt8]
    let layout: PNGLayout

    init(path: String) throws(ThemeImageProblem) {
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.regularFileContents(of: path, limit: ThemeImage.largestFile)
        } catch {
            throw .unreadable(error.reason)
        }
        try Self.checkSize(bytes)
        self.path = path
        self.bytes = bytes
        layout = try PNGLayout(bytes)
    }

    /// Its header alone (the first 33 bytes, read the same bounded way): what the config
    /// checks where a value is written; the rest is read when the images in effect are.
    static func header(path: String) throws(ThemeImageProblem) -> PNGLayout.Header {
        let start: [UInt8]
        do {
            start = try AtomicFile.regularFileStart(of: path, count: PNGLayout.headerBytes, limit: ThemeImage.largestFile)
        } catch {
            throw .unreadable(error.reason)
        }
        try checkSize(start)
        return try PNGLayout.header(start)
    }

    /// The size the header claims, refused before anything else of the file is believed.
    private static func checkSize(_ bytes: [UInt8]) throws(ThemeImageProblem) {
        let (width, height) = try PNGLayout.claimedSize(bytes)
        guard width > 0, height > 0 else { throw .empty(width: width, height: height) }
        guard width <= ThemeImage.largestSide, height <= ThemeImage.largestSide else { throw .tooLarge(width: width, height: height) }
        guard width * height <= ThemeImageBudget.pixels else {
            throw .overBudget(width: width, height: height, total: width * height)
        }
    }
}

/// How many pixels all the theme's images may have together, decoded (4 bytes each).
///
/// 4 Mi pixels (16 MiB decoded): a full-screen background for a 1920x1080 panel (2.1 Mi)
/// and four node images of 512x512 (1 Mi) fit with room to spare, and a reload, which
/// holds the old images and the new ones for a moment, costs at most 32 MiB of a 1 GiB
/// board. Decoding and scaling that much takes tens of milliseconds (docs/configuration.md
/// gives the figures), which is what a reload may stall the loop for. A larger panel
/// takes a smaller picture scaled up by `background-fit`.
public enum ThemeImageBudget {
    public static let pixels = 4 << 20

    /// The first of `counts` that brings the running sum over the budget, and that sum.
    static func firstOver(_ counts: [Int]) -> (index: Int, total: Int)? {
        var total = 0
        for (index, count) in counts.enumerated() {
            total += count
            if total > pixels { return (index, total) }
        }
        return nil
    }
}

/// Why a theme image cannot be used, as the reason after its path.
public enum ThemeImageProblem: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(String)
    case notPNG
    case empty(width: Int, height: Int)
    case tooLarge(width: Int, height: Int)
    /// Over `ThemeImageBudget` on its own (`total` is its own pixels) or with the images before it.
    case overBudget(width: Int, height: Int, total: Int)
    case undecodable(String)

    public var description: String {
        switch self {
        case .unreadable(let reason): reason
        case .notPNG: "not a PNG file (it does not start with the PNG signature)"
        case let .empty(width, height): "the image is \(width)x\(height) pixels, nothing to draw"
        case let .tooLarge(width, height):
            "the image is \(width)x\(height) pixels; at most \(ThemeImage.largestSide) a side"
        case let .overBudget(width, height, total) where total == width * height:
            "the image is \(width)x\(height) pixels, more than the \(ThemeImageBudget.pixels) (2048x2048) all theme images together may have"
        case let .overBudget(width, height, total):
            "the image is \(width)x\(height) pixels and brings the theme's images to \(total); together they may have at most \(ThemeImageBudget.pixels) (2048x2048)"
        case .undecodable(let reason): "not a valid PNG: \(reason)"
        }
    }
}

/// The checks the config runs on the images it names, and the loading the renderer does.
public enum ThemeImageCheck {
    /// One image as its value is read: a readable regular file whose PNG header is sound,
    /// within the budget on its own. Its size in pixels, or why it cannot be drawn.
    public static func check(_ path: String) throws(ThemeImageProblem) -> (width: Int, height: Int) {
        let header = try ThemeImageFile.header(path: path)
        return (header.width, header.height)
    }

    /// A theme's images together, as the renderer loads them: every problem, by index
    /// into `paths`. What it decoded is kept for the renderer that loads them next.
    public static func problems(of paths: [String]) -> [(index: Int, problem: ThemeImageProblem)] {
        let (images, problems) = load(paths, stoppingAtFirst: false)
        shelf.withLock { shelf in
            shelf = [:]
            for image in images { shelf[image.image.path] = image }
        }
        return problems
    }

    /// The images the last `problems(of:)` decoded, for the renderer that draws the same
    /// configuration right after (gridlockd's start and every reload check it, then draw
    /// it): each is taken once, and only while its file holds the very chunks decoded (the
    /// same length and CRCs), so a reload decodes each image once, not twice. Whatever the
    /// renderer does not take is let go then.
    private static let shelf = Mutex<[String: (layout: PNGLayout, image: ThemeImage)]>([:])

    /// The decoded images of `paths`, for the renderer; the first problem stops it.
    static func decoded(_ paths: [String]) throws(ThemeImageSetProblem) -> [ThemeImage] {
        let shelved = shelf.withLock { shelf in
            defer { shelf = [:] }
            return shelf
        }
        let (images, problems) = load(paths, stoppingAtFirst: true, shelved: shelved)
        if let (index, problem) = problems.first { throw ThemeImageSetProblem(index: index, problem: problem) }
        return images.map(\.image)
    }

    /// Each file read and checked, then their total held against the budget, and only
    /// then each decoded: nothing is decoded while the headers alone are too much.
    static func load(
        _ paths: [String], stoppingAtFirst: Bool, shelved: [String: (layout: PNGLayout, image: ThemeImage)] = [:]
    ) -> (images: [(layout: PNGLayout, image: ThemeImage)], problems: [(index: Int, problem: ThemeImageProblem)]) {
        var files: [ThemeImageFile] = []
        var problems: [(index: Int, problem: ThemeImageProblem)] = []
        for (index, path) in paths.enumerated() {
            do throws(ThemeImageProblem) { files.append(try ThemeImageFile(path: path)) } catch {
                problems.append((index, error))
                if stoppingAtFirst { return ([], problems) }
            }
        }
        guard problems.isEmpty else { return ([], problems) }
        if let (index, total) = ThemeImageBudget.firstOver(files.map(\.layout.pixels)) {
            let layout = files[index].layout
            return ([], [(index, .overBudget(width: layout.width, height: layout.height, total: total))])
        }
        var images: [(layout: PNGLayout, image: ThemeImage)] = []
        for (index, file) in files.enumerated() {
            if let kept = shelved[file.path], kept.layout == file.layout {
                images.append(kept)
                continue
            }
            do throws(ThemeImageProblem) { images.append((file.layout, try ThemeImage(file))) } catch {
                problems.append((index, error))
                if stoppingAtFirst { return ([], problems) }
            }
        }
        return (problems.isEmpty ? images : [], problems)
    }
}

/// Which of a theme's images could not be loaded, and why.
struct ThemeImageSetProblem: Error {
    let index: Int
    let problem: ThemeImageProblem
}
