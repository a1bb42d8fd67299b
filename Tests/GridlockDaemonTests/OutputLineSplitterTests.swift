import GridlockDaemon
import Testing

@Suite struct OutputLineSplitterTests {
    @Test func partialLineIsHeldUntilItsNewline() {
        var splitter = OutputLineSplitter()
        #expect(splitter.append(Array("one\ntw".utf8)) == ["one"])
        #expect(splitter.append(Array("o\n\nthree".utf8)) == ["two", ""])
        #expect(splitter.finish() == ["three"])
        #expect(splitter.finish() == [])
    }

    @Test func longLineIsCutAtTheCapAndItsRestDropped() {
        var splitter = OutputLineSplitter()
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 10_000)
        let lines = splitter.append(long + Array("\nnext\n".utf8))
        #expect(lines.count == 2)
        #expect(lines.first?.utf8.count == OutputLineSplitter.maximumLineBytes)
        #expect(lines.last == "next")
    }

    @Test func lineOfExactlyTheCapIsKeptWhole() {
        var splitter = OutputLineSplitter()
        let exact = [UInt8](repeating: UInt8(ascii: "y"), count: OutputLineSplitter.maximumLineBytes)
        let lines = splitter.append(exact + Array("\nz\n".utf8))
        #expect(lines.map(\.utf8.count) == [OutputLineSplitter.maximumLineBytes, 1])
    }

    @Test func invalidUTF8IsRepairedNotDropped() {
        var splitter = OutputLineSplitter()
        #expect(splitter.append([0x61, 0xff, 0x62, 0x0a]) == ["a\u{fffd}b"])
    }
}
