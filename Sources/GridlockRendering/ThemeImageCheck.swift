import LinuxSys
import Synchronization

/// A theme image read whole (the bounded way: a FIFO or a device named instead fails at
/// once) with its header and chunks checked; not decoded yet, so a file whose header
/// claims more pixels than the budget costs only its reading.
struct ThemeImageFile {
    let path: String
    let bytes: [UInt8]
    let layout: PNGLayout

    /// Reads a file whose head (`Head`) passed: at most the bytes its header allows, and
    /// its header must still be the one the head had.
    init(path: String, head: Head) throws(ThemeImageProblem) {
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

    /// A file's header (its first 33 bytes) and its size, from one bounded open: all that is
    /// believed of it before the budgets pass.
    struct Head {
        let header: PNGLayout.Header
        let size: Int
        /// What a file with this header may take: see `ThemeImageBudget.largestFile(for:)`.
        var largestSize: Int { ThemeImageBudget.largestFile(for: header) }
        var pixels: Int { header.width * header.height }
    }

    /// The head of the file at `path`, its size judged against its header: a 64x64 image
    /// padded to 63 MiB with an ancillary chunk is refused here, before it is read.
    static func head(path: String) throws(ThemeImageProblem) -> Head {
        let found: (start: [UInt8], size: Int)
        do {
            found = try AtomicFile.regularFileHead(of: path, count: PNGLayout.headerBytes, limit: ThemeImage.largestFile)
        } catch {
            if case .tooLarge = error { throw .tooManyBytes(size: nil, allowed: ThemeImage.largestFile, width: nil, height: nil) }
            throw .unreadable(error.reason)
        }
        try checkSize(found.start)
        let head = Head(header: try PNGLayout.header(found.start), size: found.size)
        guard head.size <= head.largestSize else {
            throw .tooManyBytes(size: head.size, allowed: head.largestSize, width: head.header.width, height: head.header.height)
        }
        return head
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

/// How many pixels all the theme's images may have together, decoded (4 bytes each), and
/// how many bytes their files may take, each and together.
///
/// 4 Mi pixels (16 MiB decoded): a full-screen background for a 1920x1080 panel (2.1 Mi)
/// and four node images of 512x512 (1 Mi) fit with room to spare, and a reload, which
/// holds the old images and the new ones for a moment, costs at most 32 MiB of a 1 GiB
/// board. Decoding and scaling that much takes tens of milliseconds (docs/configuration.md
/// gives the figures), which is what a reload may stall the loop for. A larger panel
/// takes a smaller picture scaled up by `background-fit`.
///
/// Bytes are bounded before a file is read, from its size and its header: a file may take
/// what its image data takes uncompressed (the filtered scanlines, plus a sixteenth for
/// zlib's blocks and the chunks' framing) and 2 MiB besides for metadata (colour profiles,
/// text, EXIF), and all files together at most 24 MiB. So a small image padded with a huge
/// ancillary chunk is refused unread, and a reload holds at most one file's bytes at a time
/// (each is decoded before the next is read) beside the old and new decoded images.
public enum ThemeImageBudget {
    public static let pixels = 4 << 20
    /// All theme image files together, in bytes: an incompressible 2048x2048 RGBA image
    /// (16 MiB) and the rest of a theme fit.
    public static let bytes = 24 << 20
    /// Beyond the image data, per file.
    public static let metadataBytes = 2 << 20

    /// The largest file a PNG with this header may be.
    static func largestFile(for header: PNGLayout.Header) -> Int {
        let data = header.filteredBytes
        return min(data + data / 16 + metadataBytes, ThemeImage.largestFile)
    }

    /// The first of `counts` that brings the running sum over `limit`, and that sum.
    static func firstOver(_ counts: [Int], limit: Int = pixels) -> (index: Int, total: Int)? {
        var total = 0
        for (index, count) in counts.enumerated() {
            total += count
            if total > limit { return (index, total) }
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
    /// More bytes than an image of its size needs (`size` nil: beyond the hard limit, not
    /// even looked at), or, with `total`, more than all theme files together may have.
    case tooManyBytes(size: Int?, allowed: Int, width: Int?, height: Int?)
    case overByteBudget(size: Int, total: Int)
    /// The file changed between its header's check and its reading.
    case changed
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
        case let .tooManyBytes(size?, allowed, width?, height?):
            "the file is \(size) bytes, more than the \(allowed) a \(width)x\(height) PNG may take (its image data uncompressed, and \(ThemeImageBudget.metadataBytes) bytes of metadata)"
        case let .tooManyBytes(_, allowed, _, _):
            "the file is larger than \(allowed) bytes, the most a theme image may take"
        case let .overByteBudget(size, total):
            "the file is \(size) bytes and brings the theme's image files to \(total); together they may take at most \(ThemeImageBudget.bytes) bytes (24 MiB)"
        case .changed: "the file changed while it was read; replace it atomically (write a new file, then rename it into place)"
        case .undecodable(let reason): "not a valid PNG: \(reason)"
        }
    }
}

/// The checks the config runs on the images it names, and the loading the renderer does.
public enum ThemeImageCheck {
    /// One image as its value is read: a readable regular file whose PNG header is sound,
    /// within the budget on its own. Its size in pixels, or why it cannot be drawn.
    public static func check(_ path: String) throws(ThemeImageProblem) -> (width: Int, height: Int) {
        let head = try ThemeImageFile.head(path: path)
        return (head.header.width, head.header.height)
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

    /// Every file's head (header and size) checked, then their pixels and bytes held
    /// against the budgets, and only then each file read and decoded, one at a time, its
    /// bytes let go before the next is read: nothing is read past its header while the
    /// headers alone are too much, and no more than one file's bytes are held at once.
    static func load(
        _ paths: [String], stoppingAtFirst: Bool, shelved: [String: (layout: PNGLayout, image: ThemeImage)] = [:]
    ) -> (images: [(layout: PNGLayout, image: ThemeImage)], problems: [(index: Int, problem: ThemeImageProblem)]) {
        var heads: [ThemeImageFile.Head] = []
        var problems: [(index: Int, problem: ThemeImageProblem)] = []
        for (index, path) in paths.enumerated() {
            do throws(ThemeImageProblem) { heads.append(try ThemeImageFile.head(path: path)) } catch {
                problems.append((index, error))
                if stoppingAtFirst { return ([], problems) }
            }
        }
        guard problems.isEmpty else { return ([], problems) }
        if let (index, total) = ThemeImageBudget.firstOver(heads.map(\.pixels)) {
            let header = heads[index].header
            return ([], [(index, .overBudget(width: header.width, height: header.height, total: total))])
        }
        if let (index, total) = ThemeImageBudget.firstOver(heads.map(\.size), limit: ThemeImageBudget.bytes) {
            return ([], [(index, .overByteBudget(size: heads[index].size, total: total))])
        }
        var images: [(layout: PNGLayout, image: ThemeImage)] = []
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
