import GridlockCore

/// Refusals and closings of the session socket, logged once per peer uid and kind per
/// interval: the first is said at once, the rest of that interval are counted and said as
/// one line when it ends. A loop of connections from one user writes a line per interval,
/// not one per connection, and still leaves the journal its count.
struct RefusalTally: Sendable {
    struct Key: Hashable, Sendable, Comparable {
        var uid: UInt32
        var kind: String

        static func < (a: Key, b: Key) -> Bool { (a.uid, a.kind) < (b.uid, b.kind) }
    }

    private struct Window: Sendable {
        var start: Instant
        var suppressed: Int
    }

    /// A finished interval's count of refusals that were not said one by one.
    struct Summary: Hashable, Sendable {
        var key: Key
        var suppressed: Int
    }

    let interval: Duration
    private var windows: [Key: Window] = [:]

    init(interval: Duration) { self.interval = interval }

    /// Whether this refusal is said now (the first of its interval); else it is counted.
    /// Call `closeWindows(at:)` first, so a finished interval's count is said before.
    mutating func note(_ key: Key, at now: Instant) -> Bool {
        if var window = windows[key], now.duration(since: window.start) < interval {
            window.suppressed += 1
            windows[key] = window
            return false
        }
        windows[key] = Window(start: now, suppressed: 0)
        return true
    }

    /// The counts of the intervals that ended by `now`, which are forgotten.
    mutating func closeWindows(at now: Instant) -> [Summary] {
        var summaries: [Summary] = []
        for key in windows.keys.sorted() {
            guard let window = windows[key], now.duration(since: window.start) >= interval else { continue }
            if window.suppressed > 0 { summaries.append(Summary(key: key, suppressed: window.suppressed)) }
            windows[key] = nil
        }
        return summaries
    }

    /// When the earliest open interval ends, nil when none is open.
    var nextClose: Instant? { windows.values.map { $0.start + interval }.min() }
}
