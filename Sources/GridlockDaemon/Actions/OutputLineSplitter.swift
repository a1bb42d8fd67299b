import GridlockCore

/// Turns a program's output stream into the lines the journal gets, within limits, and
/// counts whatever it leaves out: complete lines only (a partial line is held until its
/// newline or the end), none longer than `maximumLineBytes` (the rest of a longer line is
/// cut and counted), and no more lines than its `Budget` allows (the rest are counted,
/// never made into strings). It holds at most one line's bytes, so a program printing
/// megabytes, with or without newlines, can neither grow the daemon's memory nor flood
/// the journal.
public struct OutputLineSplitter: Sendable {
    public static let maximumLineBytes = 4096
    /// Ends a line that was cut at `maximumLineBytes`, so a reader knows it went on.
    public static let cutMark = "…"

    /// How many lines reach the journal.
    public enum Budget: Hashable, Sendable {
        case unlimited
        /// The first N lines of the run; the count of the rest comes at its end.
        case perRun(Int)
        /// N lines a second (counted from the first line of each second); the count of
        /// what a second left out comes before the next line logged, and at the end.
        case perSecond(Int)
    }

    /// Output that did not reach the journal, as `wc` would count it: whole lines left
    /// out (their newlines included in the bytes), and the cut-off rests of long lines.
    public struct Dropped: Hashable, Sendable, CustomStringConvertible {
        public var lines = 0
        public var bytes = 0

        public init(lines: Int = 0, bytes: Int = 0) {
            self.lines = lines
            self.bytes = bytes
        }

        public var isEmpty: Bool { lines == 0 && bytes == 0 }

        /// `(12 more lines, 96 bytes dropped)`, or `(99995904 bytes dropped)` when only
        /// the rest of a long line was.
        public var description: String {
            let bytesText = "\(bytes) byte\(bytes == 1 ? "" : "s") dropped"
            guard lines > 0 else { return "(\(bytesText))" }
            return "(\(lines) more line\(lines == 1 ? "" : "s"), \(bytesText))"
        }
    }

    /// What the journal gets, in order.
    public enum Piece: Hashable, Sendable {
        case line(String)
        /// What was left out since the previous `.dropped` (or the start).
        case dropped(Dropped)
    }

    private enum State {
        /// At the start of a line.
        case lineStart
        /// A line that is logged: its bytes so far are in `pending`.
        case collecting
        /// The rest of a line already logged cut: counted up to its newline.
        case cutting
        /// A line the budget has no room for: counted up to its newline.
        case dropping
    }

    public let budget: Budget
    private var state = State.lineStart
    private var pending: [UInt8] = []
    private var dropped = Dropped()
    private var linesLogged = 0
    private var windowStart: Instant?

    public init(budget: Budget = .unlimited) {
        self.budget = budget
    }

    /// The pieces `bytes` completes; `now` only matters for a `.perSecond` budget.
    public mutating func append(_ bytes: [UInt8], at now: Instant = .zero) -> [Piece] {
        var pieces: [Piece] = []
        var index = 0
        let newline = UInt8(ascii: "\n")
        while index < bytes.count {
            if state == .lineStart || state == .dropping, budgetSpent(at: now) {
                // Every line starting in what is left is dropped: count them at once
                // (`yes ''` gives 4096 of them a read).
                dropRest(of: bytes, from: index)
                break
            }
            switch state {
            case .lineStart:
                if admitLine(at: now, into: &pieces) {
                    state = .collecting
                } else {
                    dropped.lines += 1
                    state = .dropping
                }
            case .collecting:
                if pending.count == Self.maximumLineBytes {
                    // Full: whole if its newline comes next, else cut.
                    if bytes[index] == newline {
                        index += 1
                        pieces.append(.line(takeLine(cut: false)))
                        state = .lineStart
                    } else {
                        pieces.append(.line(takeLine(cut: true)))
                        state = .cutting
                    }
                    continue
                }
                let room = Self.maximumLineBytes - pending.count
                let window = index..<min(bytes.count, index + room)
                if let end = bytes[window].firstIndex(of: newline) {
                    pending += bytes[index..<end]
                    index = end + 1
                    pieces.append(.line(takeLine(cut: false)))
                    state = .lineStart
                } else {
                    pending += bytes[window]
                    index = window.upperBound
                }
            case .cutting, .dropping:
                if let end = bytes[index...].firstIndex(of: newline) {
                    // A dropped line's newline is part of what was dropped; a cut line's ended a logged line.
                    dropped.bytes += end - index + (state == .dropping ? 1 : 0)
                    index = end + 1
                    state = .lineStart
                } else {
                    dropped.bytes += bytes.count - index
                    index = bytes.count
                }
            }
        }
        return pieces
    }

    /// The held partial line and the count of what was left out, once no more output
    /// will come; `unreadBytes` is what the program wrote that will never be read.
    public mutating func finish(at now: Instant = .zero, unreadBytes: Int = 0) -> [Piece] {
        var pieces: [Piece] = []
        if state == .collecting { pieces.append(.line(takeLine(cut: false))) }
        dropped.bytes += unreadBytes
        if !dropped.isEmpty { pieces.append(.dropped(dropped)) }
        dropped = Dropped()
        state = .lineStart
        return pieces
    }

    /// No line that starts now (or later in the same slice, which has the same `now`) may
    /// be logged.
    private func budgetSpent(at now: Instant) -> Bool {
        switch budget {
        case .unlimited: false
        case .perRun(let limit): linesLogged >= limit
        case .perSecond(let limit): linesLogged >= limit && windowStart.map { now < $0 + .seconds(1) } == true
        }
    }

    /// Counts `bytes[start...]` as dropped, each line that starts in it as a dropped line.
    private mutating func dropRest(of bytes: [UInt8], from start: Int) {
        let newline = UInt8(ascii: "\n")
        let newlines = bytes.withUnsafeBufferPointer { buffer in
            var count = 0
            for byte in buffer[start...] where byte == newline { count += 1 }
            return count
        }
        let endsInNewline = bytes.last == newline
        // The first piece continues the line being dropped, or starts one; every other piece
        // after a newline starts one, except an empty tail.
        var started = state == .lineStart ? 1 : 0
        if newlines > 0 { started += newlines - (endsInNewline ? 1 : 0) }
        dropped.lines += started
        dropped.bytes += bytes.count - start
        state = endsInNewline ? .lineStart : .dropping
    }

    /// Whether the line starting now may be logged; counts it if so. A new second of a
    /// `.perSecond` budget first reports what the last one left out.
    private mutating func admitLine(at now: Instant, into pieces: inout [Piece]) -> Bool {
        switch budget {
        case .unlimited:
            return true
        case .perRun(let limit):
            guard linesLogged < limit else { return false }
            linesLogged += 1
            return true
        case .perSecond(let limit):
            if windowStart.map({ now >= $0 + .seconds(1) }) ?? true {
                windowStart = now
                linesLogged = 0
                if !dropped.isEmpty {
                    pieces.append(.dropped(dropped))
                    dropped = Dropped()
                }
            }
            guard linesLogged < limit else { return false }
            linesLogged += 1
            return true
        }
    }

    /// `pending` as text, emptied. A cut line loses an incomplete UTF-8 character at its
    /// end (counted as dropped) rather than showing it as U+FFFD, and gets `cutMark`.
    private mutating func takeLine(cut: Bool) -> String {
        defer { pending.removeAll(keepingCapacity: true) }
        guard cut else { return Self.text(pending[...]) }
        let end = Self.completeCharacterEnd(pending)
        dropped.bytes += pending.count - end
        return Self.text(pending[..<end]) + Self.cutMark
    }

    /// Where the last complete UTF-8 character of `bytes` ends (the count when it is
    /// complete, or not valid UTF-8 at all).
    static func completeCharacterEnd(_ bytes: [UInt8]) -> Int {
        var start = bytes.count
        // Back over continuation bytes (10xxxxxx) to the lead byte, at most three.
        while start > 0, bytes.count - start < 3, bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
        guard start > 0 else { return bytes.count }
        let lead = bytes[start - 1]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return bytes.count - (start - 1) < length ? start - 1 : bytes.count
    }

    /// Invalid UTF-8 becomes U+FFFD.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
