import GridlockCore
import Testing

@testable import GridlockInput
@testable import GridlockEvdev

/// The byte path of the evemu reader must read every text exactly as the `Character` path
/// does: the same events and description, or the same error at the same line.
@Suite("evemu recordings, the byte path")
struct EvemuBytePathTests {
    /// What one path made of a text, comparable across paths.
    enum Outcome: Equatable {
        case read(EvemuRecording)
        case refused(String)
    }

    static func outcome(_ text: String, bytesFirst: Bool) -> Outcome {
        do {
            return .read(try EvemuRecording(parsing: text, file: "t.evemu", bytesFirst: bytesFirst))
        } catch {
            return .refused("\(error)")
        }
    }

    static func expectSamePaths(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = outcome(text, bytesFirst: true)
        let characters = outcome(text, bytesFirst: false)
        #expect(bytes == characters, "text:\n\(text)", sourceLocation: sourceLocation)
    }

    @Test("every fixture reads the same through the bytes as through the characters", arguments: try Fixtures.names() + Fixtures.names(in: "devices"))
    func fixtures(name: String) throws {
        let text = try Fixtures.text(name)
        let bytes = Self.outcome(text, bytesFirst: true)
        guard case .read(let recording) = bytes else {
            Issue.record("\(name) was refused: \(bytes)")
            return
        }
        // The device fixtures are descriptions alone; the others are strokes.
        #expect(name.hasPrefix("devices/") || !recording.events.isEmpty)
        #expect(bytes == Self.outcome(text, bytesFirst: false))
    }

    static let header = EvemuRecordingTests.header

    @Test(
        "event lines at the edges of the format read the same on both paths",
        arguments: [
            "E: 0.000001 0003 0035 +5", "E: 0.000001 0003 0035 -0", "E: 0.000001 0003 0035 2147483647",
            "E: 0.000001 0003 0035 2147483648", "E: 0.000001 0003 0035 -2147483648", "E: 0.000001 0003 0035 -2147483649",
            "E: 0.000001 0003 0035 00000000001", "E: 0.000001 0003 0035 +", "E: 0.000001 0003 0035 5x",
            "E: 9223372035.999999 0000 0000 0", "E: 9223372036.000000 0000 0000 0", "E: 1234567890123456789.000000 0000 0000 0",
            "E: .000001 0000 0000 0", "E: 1.00001 0000 0000 0", "E: 1.0000011 0000 0000 0", "E: 1..000001 0000 0000 0",
            "E: 1.000001 00000 0000 0", "E: 1.000001 fFfF AbCd 0", "E: 1.000001 g 0 0", "E: 1.000001 0 0",
            "E: 1.000001 0 0 0 0", "E:1.000001\t0\t0\t0", "E: 1.000001 0 0 0# trailing", "E: 1.000001 0 0 0 #\u{20E3} keycap",
            "E: 1.000001 0 0 0\u{301}", "E: 1.000001 0 0 \u{FF15}", "E\u{301}: 1.000001 0 0 0", "E:\u{301} 1.000001 0 0 0",
            "#\u{20E3} a keycap, not a comment", "# a comment", "#", "   \t ", " # indented comment", "E: 1.000001 0 0 0 # EV_SYN",
        ])
    func edges(line: String) {
        Self.expectSamePaths(Self.header + line + "\nE: 2.000000 0000 0000 0\n")
    }

    @Test("texts with other line breaks than \\n read the same on both paths")
    func lineBreaks() {
        for separator in ["\r\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"] {
            let text = (Self.header + "E: 1.000001 0003 0035 5\nE: 1.000002 0000 0000 0\n")
                .replacingOccurrences(of: "\n", with: separator)
            Self.expectSamePaths(text)
        }
    }

    @Test("an event line before the description, and a first line that is an event, fail the same on both paths")
    func order() {
        Self.expectSamePaths("E: 1.000001 0000 0000 0\n")
        Self.expectSamePaths("N: x\nE: 1.000001 0000 0000 0\n")
        Self.expectSamePaths("")
        Self.expectSamePaths("\n\n# EVEMU 1.3\n" + Self.header.dropFirst("# EVEMU 1.3\n".count) + "E: 1.000001 0 0 0\n")
    }

    /// A fixed sequence of small edits to a real recording: each variant must come out of
    /// both paths the same, read or refused.
    @Test("a thousand edited recordings read or fail the same on both paths")
    func editedRecordings() throws {
        // The description and the first events: the edits land on every kind of line.
        let lines = try Fixtures.text("protocol-b-1-2-3-6-9.evemu").split(separator: "\n", omittingEmptySubsequences: false)
        let firstEvent = lines.firstIndex { $0.hasPrefix("E:") } ?? 0
        let base = Array(lines.prefix(firstEvent + 30).joined(separator: "\n").utf8)
        let pieces: [[UInt8]] = ["#", ":", ".", "+", "-", " ", "\t", "\n", "0", "9", "f", "F", "g", "E", "A", "\r",
                                 "\u{301}", "\u{20E3}", "\u{FF15}", "\u{85}", "", "E: 1.000001 0 0 0\n"].map { Array($0.utf8) }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var differences: [String] = []
        for _ in 0..<1000 {
            var bytes = base
            for _ in 0..<(1 + next(3)) {
                let at = next(bytes.count)
                let piece = pieces[next(pieces.count)]
                bytes.replaceSubrange(at..<min(bytes.count, at + next(3)), with: piece)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let fast = Self.outcome(text, bytesFirst: true)
            if fast != Self.outcome(text, bytesFirst: false) { differences.append(text) }
        }
        #expect(differences.isEmpty, "\(differences.count) texts differ; the first:\n\(differences.first ?? "")")
    }
}
