/// Which of a surface's buffers the next frame goes into, and what must be copied into it
/// first, as pure state.
///
/// A buffer is busy from its commit until the compositor's `release`; the next frame waits
/// for the previous one's frame callback (`done`), so frames are drawn at most at the
/// output's rate. Each buffer remembers where it is older than the newest frame (the damage
/// of every frame committed since it was last drawn into); before it is drawn into again
/// that region is copied from the newest buffer, so a caller draws only its own damage.
struct BufferRotation: Hashable, Sendable {
    let count: Int
    let width: Int
    let height: Int
    private(set) var busy: [Bool]
    /// Per buffer: what is older in it than in the newest frame.
    private(set) var stale: [[PixelRect]]
    /// The buffer of the newest commit; nil before the first.
    private(set) var newest: Int?
    /// A frame callback is outstanding.
    private(set) var waitingForFrame = false

    /// Beyond this many rectangles a buffer's stale region becomes their bounding box.
    static let maximumRects = 16

    init(count: Int = 2, width: Int, height: Int) {
        precondition(count >= 1)
        self.count = count
        self.width = width
        self.height = height
        busy = Array(repeating: false, count: count)
        // Until a buffer is drawn into, all of it is older than any frame.
        stale = Array(repeating: [.full(width: width, height: height)], count: count)
    }

    /// The buffer to draw into now, nil while a frame is awaited or every buffer is busy.
    /// Never the newest one: the compositor may still read it.
    var next: Int? {
        guard !waitingForFrame else { return nil }
        return (0..<count).first { !busy[$0] && $0 != newest } ?? (count == 1 && !busy[0] ? 0 : nil)
    }

    /// What to copy from the newest buffer into `index` before drawing (nothing before the
    /// first frame, which is drawn whole).
    func toCopy(into index: Int) -> (from: Int, rects: [PixelRect])? {
        guard let newest, newest != index, !stale[index].isEmpty else { return nil }
        return (newest, stale[index])
    }

    /// Before the first frame there is nothing to copy from: the caller draws everything.
    var isFresh: Bool { newest == nil }

    /// `index` was drawn with `damage` (clipped) and committed with a frame callback.
    mutating func committed(_ index: Int, damage: [PixelRect]) {
        busy[index] = true
        newest = index
        waitingForFrame = true
        stale[index] = []
        for other in 0..<count where other != index {
            stale[other] = Self.adding(damage, to: stale[other])
        }
    }

    mutating func released(_ index: Int) { busy[index] = false }

    mutating func frameDone() { waitingForFrame = false }

    private static func adding(_ rects: [PixelRect], to list: [PixelRect]) -> [PixelRect] {
        var all = list
        for rect in rects where !all.contains(where: { $0.contains(rect) }) {
            all.removeAll { rect.contains($0) }
            all.append(rect)
        }
        guard all.count > maximumRects, let first = all.first else { return all }
        return [all.dropFirst().reduce(first) { $0.union($1) }]
    }
}
