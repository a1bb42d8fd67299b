import GridlockCore
import GridlockThemeFiles
import LinuxSys
import Synchronization

/// A theme image read whole (the bounded way: a FIFO or a device named instead fails at
/// once) with its header and chunks checked; not decoded yet, so a file whose header
/// claims more pixels than the budget costs only its reading.
struct ThemeImageFile {
    let path: String
    let bytes: [UInt8]
    let layout: PNGLayout

    /// Reads a file whose head (`ThemeImageHead`) passed: at most the bytes its header allows, and
    /// its header must still be the one the head had.
    init(path: String, head: ThemeImageHead) throws(ThemeImageProblem) {
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.regularFileContents(of: path, limit: head.largestSize)
        } catch {
            if case .tooLarge = error { throw .changed }
            throw .unreadable(error.reason)
        }
        let layout = try PNGLayout(bytes)
        guard layout.header == head.header else { throw .changed }
        self.path = path
        self.bytes = bytes
        self.layout = layout
    }
}

/// The checks the config runs on the images it names, and the loading the renderer does.
enum ThemeImageCheck {
    /// A theme's images together, as the renderer loads them: every problem, by index
    /// into `paths`. What it decoded is kept for the renderer that loads them next.
    static func problems(of paths: [String]) -> [(index: Int, problem: ThemeImageProblem)] {
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

    /// Every file's head (header and size) checked, then their pixels and bytes held
    /// against the budgets, and only then each file read and decoded, one at a time, its
    /// bytes let go before the next is read: nothing is read past its header while the
    /// headers alone are too much, and no more than one file's bytes are held at once.
    static func load(
        _ paths: [String], stoppingAtFirst: Bool, shelved: [String: (layout: PNGLayout, image: ThemeImage)] = [:]
    ) -> (images: [(layout: PNGLayout, image: ThemeImage)], problems: [(index: Int, problem: ThemeImageProblem)]) {
        let heads: [ThemeImageHead]
        switch ThemeImageHead.heads(of: paths, stoppingAtFirst: stoppingAtFirst) {
        case .success(let found): heads = found
        case .failure(let problems): return ([], problems.list)
        }
        var images: [(layout: PNGLayout, image: ThemeImage)] = []
        var problems: [(index: Int, problem: ThemeImageProblem)] = []
        for (index, path) in paths.enumerated() {
            do throws(ThemeImageProblem) {
                let file = try ThemeImageFile(path: path, head: heads[index])
                if let kept = shelved[file.path], kept.layout == file.layout {
                    images.append(kept)
                } else {
                    images.append((file.layout, try ThemeImage(file)))
                }
            } catch {
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

/// The look judged as the renderer will draw it: every image decoded (and kept for the
/// renderer that draws the same configuration next), the font opened.
public struct DecodingLookInspection: LookInspecting {
    public init() {}

    public func fontProblem(_ font: FontChoice) -> String? { FontLibrary.problem(with: font) }

    public func imageProblems(_ paths: [String]) -> [(index: Int, problem: ThemeImageProblem)] {
        ThemeImageCheck.problems(of: paths)
    }
}
