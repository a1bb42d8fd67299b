import GridlockCore
import GridlockDaemon
import Testing

@Suite struct OutputLineSplitterTests {
    typealias Piece = OutputLineSplitter.Piece
    typealias Dropped = OutputLineSplitter.Dropped

    static let cap = OutputLineSplitter.maximumLineBytes
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func repeated(_ character: Character, _ count: Int) -> [UInt8] {
        [UInt8](repeating: character.asciiValue!, count: count)
    }

    @Test("a partial line is held until its newline, and given at the end")
    func partialLineIsHeldUntilItsNewline() {
        var splitter = OutputLineSplitter()
        #expect(splitter.append(Self.bytes("one\ntw")) == [.line("one")])
        #expect(splitter.append(Self.bytes("o\n\nthree")) == [.line("two"), .line("")])
        #expect(splitter.finish() == [.line("three")])
        #expect(splitter.finish() == [])
    }

    @Test("a long line is cut at the cap and marked; the rest of it is counted, not kept")
    func longLineIsCutAtTheCapAndItsRestCounted() {
        var splitter = OutputLineSplitter()
        let pieces = splitter.append(Self.repeated("x", 10_000) + Self.bytes("\nnext\n"))
        #expect(pieces == [
            .line(String(repeating: "x", count: Self.cap) + OutputLineSplitter.cutMark), .line("next"),
        ])
        #expect(splitter.finish() == [.dropped(Dropped(lines: 0, bytes: 10_000 - Self.cap))])
    }

    @Test("a line of exactly the cap is kept whole and unmarked, its newline in the same or a later slice, or none")
    func lineOfExactlyTheCapIsKeptWhole() {
        let exact = String(repeating: "y", count: Self.cap)
        var together = OutputLineSplitter()
        #expect(together.append(Self.repeated("y", Self.cap) + Self.bytes("\nz\n")) == [.line(exact), .line("z")])
        #expect(together.finish() == [])

        var apart = OutputLineSplitter()
        #expect(apart.append(Self.repeated("y", Self.cap)) == [])
        #expect(apart.append(Self.bytes("\n")) == [.line(exact)])
        #expect(apart.finish() == [])

        var unterminated = OutputLineSplitter()
        #expect(unterminated.append(Self.repeated("y", Self.cap)) == [])
        #expect(unterminated.finish() == [.line(exact)])
    }

    @Test("a cut never splits a UTF-8 character: the incomplete one is counted with the rest")
    func cutKeepsCharactersWhole() {
        var splitter = OutputLineSplitter()
        // 'é' is C3 A9: its first byte is the cap's last.
        let pieces = splitter.append(Self.repeated("a", Self.cap - 1) + Self.bytes("é and more\n"))
        #expect(pieces == [.line(String(repeating: "a", count: Self.cap - 1) + OutputLineSplitter.cutMark)])
        #expect(splitter.finish() == [.dropped(Dropped(lines: 0, bytes: Self.bytes("é and more").count))])
    }

    @Test("invalid UTF-8 is repaired, not dropped")
    func invalidUTF8IsRepairedNotDropped() {
        var splitter = OutputLineSplitter()
        #expect(splitter.append([0x61, 0xff, 0x62, 0x0a]) == [.line("a\u{fffd}b")])
    }

    @Test("per run: the first N lines are logged, the rest counted in lines and bytes (newlines included) at the end")
    func perRunBudgetCountsTheRest() {
        var splitter = OutputLineSplitter(budget: .perRun(2))
        #expect(splitter.append(Self.bytes("one\ntwo\nthree\nfour\nfive")) == [.line("one"), .line("two")])
        #expect(splitter.append(Self.bytes(" and six\n")) == [])
        #expect(splitter.finish() == [.dropped(Dropped(lines: 3, bytes: Self.bytes("three\nfour\nfive and six\n").count))])
    }

    @Test("yes '': a slice of empty lines is 50 strings and a count, never 4096 strings")
    func emptyLinesBeyondTheBudgetAreOnlyCounted() {
        var splitter = OutputLineSplitter(budget: .perRun(50))
        let pieces = splitter.append(Self.repeated("\n", 4096))
        #expect(pieces == Array(repeating: .line(""), count: 50))
        #expect(splitter.append(Self.repeated("\n", 4096)) == [])
        #expect(splitter.finish() == [.dropped(Dropped(lines: 8192 - 50, bytes: 8192 - 50))])
    }

    @Test("a megabyte without a newline is one cut line and a count of every other byte")
    func endlessLineIsOneLineAndACount() {
        var splitter = OutputLineSplitter(budget: .perRun(50))
        var pieces: [Piece] = []
        for _ in 0..<256 { pieces += splitter.append(Self.repeated("x", 4096)) }
        #expect(pieces == [.line(String(repeating: "x", count: Self.cap) + OutputLineSplitter.cutMark)])
        #expect(splitter.finish() == [.dropped(Dropped(lines: 0, bytes: 256 * 4096 - Self.cap))])
    }

    @Test("bytes the program wrote that are never read are counted at the end")
    func unreadBytesAreCounted() {
        var splitter = OutputLineSplitter()
        #expect(splitter.append(Self.bytes("last words\n")) == [.line("last words")])
        #expect(splitter.finish(unreadBytes: 70_000) == [.dropped(Dropped(lines: 0, bytes: 70_000))])
    }

    @Test("per second: N lines a second; what a second left out is counted before the next second's first line")
    func perSecondBudgetReportsEachSecondsDrops() {
        var splitter = OutputLineSplitter(budget: .perSecond(2))
        let start = Instant.seconds(100)
        #expect(splitter.append(Self.bytes("a\nb\nc\nd\n"), at: start) == [.line("a"), .line("b")])
        #expect(splitter.append(Self.bytes("e\n"), at: start + .milliseconds(999)) == [])
        #expect(splitter.append(Self.bytes("f\ng\nh\n"), at: start + .seconds(1)) == [
            .dropped(Dropped(lines: 3, bytes: 6)), .line("f"), .line("g"),
        ])
        #expect(splitter.finish(at: start + .seconds(2)) == [.dropped(Dropped(lines: 1, bytes: 2))])
        #expect(splitter.finish(at: start + .seconds(3)) == [])
    }

    @Test("what is dropped reads as the journal says it")
    func droppedDescription() {
        #expect("\(Dropped(lines: 4950, bytes: 48500))" == "(4950 more lines, 48500 bytes dropped)")
        #expect("\(Dropped(lines: 1, bytes: 1))" == "(1 more line, 1 byte dropped)")
        #expect("\(Dropped(lines: 0, bytes: 99_995_904))" == "(99995904 bytes dropped)")
    }

    /// The rules of the type's comment, one line at a time, for the whole input at once.
    static func expected(_ input: [UInt8], linesPerRun limit: Int) -> [Piece] {
        var pieces: [Piece] = []
        var dropped = Dropped()
        var lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let endsWithNewline = input.last == UInt8(ascii: "\n")
        if endsWithNewline || input.isEmpty { lines.removeLast() }
        for (index, line) in lines.enumerated() {
            let newline = index < lines.count - 1 || endsWithNewline ? 1 : 0
            if index >= limit {
                dropped.lines += 1
                dropped.bytes += line.count + newline
            } else if line.count > cap {
                pieces.append(.line(String(decoding: line.prefix(cap), as: UTF8.self) + OutputLineSplitter.cutMark))
                dropped.bytes += line.count - cap
            } else {
                pieces.append(.line(String(decoding: line, as: UTF8.self)))
            }
        }
        if !dropped.isEmpty { pieces.append(.dropped(dropped)) }
        return pieces
    }

    @Test("however the output is sliced, the same lines are logged and every other byte is counted")
    func slicingDoesNotChangeTheOutcome() {
        var generator = SeededGenerator(seed: 20)
        for round in 0..<200 {
            var input: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let length = [0, 0, 1, 7, Self.cap - 1, Self.cap, Self.cap + 1, 9000].randomElement(using: &generator)!
                input += Self.repeated("q", length) + (Bool.random(using: &generator) ? Self.bytes("\n") : [])
            }
            let limit = Int.random(in: 0...6, using: &generator)
            // Within one second a budget per second is one per run.
            for budget in [OutputLineSplitter.Budget.perRun(limit), .perSecond(limit)] {
                var splitter = OutputLineSplitter(budget: budget)
                var pieces: [Piece] = []
                var offset = 0
                while offset < input.count {
                    let slice = min(input.count - offset, Int.random(in: 1...5000, using: &generator))
                    pieces += splitter.append(Array(input[offset..<offset + slice]), at: .seconds(7))
                    offset += slice
                }
                pieces += splitter.finish(at: .seconds(7))
                #expect(pieces == Self.expected(input, linesPerRun: limit), "round \(round), \(budget)")
            }
        }
    }
}

/// A seeded generator: the same slices on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
