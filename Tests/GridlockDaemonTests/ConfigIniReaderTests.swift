import Foundation
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// The inih adapter: line numbers, and the places where Debian's libinih would cut or join lines.
struct ConfigIniReaderTests {
    private func read(_ text: String) throws -> IniFile {
        let folder = try ConfigFixtures.scratch(["f.conf": text])
        defer { ConfigFixtures.remove(folder) }
        return IniReader.read(path: folder + "/f.conf")
    }

    private func messages(_ file: IniFile) -> [String] {
        file.diagnostics.map { "\($0.location.line): \($0.message)" }
    }

    @Test("entries carry their line numbers") func entriesCarryTheirLineNumbers() throws {
        let file = try read("; comment\n# another\n\n[a]\nx = 1\n\n[b] ; trailing comment\ny=two words ; comment\nz=#123456\n")
        #expect(file.diagnostics.isEmpty)
        #expect(file.sections == [
            IniSection(name: "a", line: 4, entries: [IniEntry(key: "x", value: "1", line: 5)]),
            IniSection(name: "b", line: 7, entries: [
                IniEntry(key: "y", value: "two words", line: 8), IniEntry(key: "z", value: "#123456", line: 9),
            ]),
        ])
    }

    @Test("windows line endings and a byte order mark are accepted") func windowsLineEndingsAndAByteOrderMarkAreAccepted() throws {
        let file = try read("\u{FEFF}[a]\r\nx=1\r\n")
        #expect(file.diagnostics.isEmpty)
        #expect(file.sections == [IniSection(name: "a", line: 1, entries: [IniEntry(key: "x", value: "1", line: 2)])])
    }

    @Test("the longest line that fits is read whole and one more byte is refused") func theLongestLineThatFitsIsReadWholeAndOneMoreByteIsRefused() throws {
        let fits = "k=" + String(repeating: "v", count: 196)
        let tooLong = "k=" + String(repeating: "v", count: 197)
        let file = try read("[a]\n\(fits)\n[b]\n\(tooLong)\nafter=1\n")
        #expect(messages(file) == ["4: line longer than 198 characters (bytes); shorten it"])
        #expect(file.sections[0].entries == [IniEntry(key: "k", value: String(repeating: "v", count: 196), line: 2)])
        // inih saw a blank line instead, so the next line keeps its number and section.
        #expect(file.sections[1].entries == [IniEntry(key: "after", value: "1", line: 5)])
    }

    @Test("section names are not cut at 49 bytes as inih would cut them") func sectionNamesAreNotCutAt49BytesAsInihWouldCutThem() throws {
        let name = "pattern " + String(repeating: "n", count: 64)
        let file = try read("[\(name)]\nk=v\n")
        #expect(file.sections.map(\.name) == [name])
        #expect(file.sections.first?.entries.count == 1)
    }

    @Test("invalid UTF 8 and nul bytes are reported") func invalidUTF8AndNulBytesAreReported() throws {
        let folder = try ConfigFixtures.scratch([:])
        defer { ConfigFixtures.remove(folder) }
        let path = folder + "/f.conf"
        try Data([0x5B, 0x61, 0x5D, 0x0A, 0x6B, 0x3D, 0xFF, 0x0A, 0x6B, 0x32, 0x3D, 0x00, 0x0A]).write(to: URL(fileURLWithPath: path))
        #expect(messages(IniReader.read(path: path)) == ["2: line is not valid UTF-8", "3: line contains a NUL byte"])
    }

    @Test("a value beginning or ending with a Unicode space inih keeps is refused at its line, naming the space")
    func aValueWithAUnicodeSpaceAtAnEndIsRefused() throws {
        let kept = ConfigWhitespace.scalars.filter { !ConfigWhitespace.isStrippedByReader($0) }.sorted { $0.value < $1.value }
        #expect(kept.map(\.value) == [0x85, 0xA0, 0x1680] + Array(0x2000...0x200A) + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000])
        for space in kept {
            let name = ConfigWhitespace.name(of: space)
            let file = try read("[pattern door]\nexec=/bin/echo open\(space)\nvalid-until=\(space)2027-01-01\nhash=x\n")
            #expect(messages(file) == [
                "2: the value of 'exec' ends with \(name), which would be kept in it unseen; remove it",
                "3: the value of 'valid-until' begins with \(name), which would be kept in it unseen; remove it",
            ], "\(space.value)")
            #expect(file.sections.first?.entries == [IniEntry(key: "hash", value: "x", line: 4)])
        }
        #expect(messages(try read("[a]\nk=v\u{3000}\n")) == ["2: the value of 'k' ends with U+3000 (an ideographic space), which would be kept in it unseen; remove it"])
        // The ASCII ones are stripped as before, and inside a value every space is text.
        let plain = try read("[a]\nk= \t10\u{A0}h\u{2003}30 \t\n")
        #expect(plain.diagnostics.isEmpty)
        #expect(plain.sections.first?.entries == [IniEntry(key: "k", value: "10\u{A0}h\u{2003}30", line: 2)])
    }

    @Test("empty key name is refused") func emptyKeyNameIsRefused() throws {
        #expect(messages(try read("[a]\n=value\n")) == ["2: missing key name before '='"])
    }

    @Test("an indented first key is not a continuation") func anIndentedFirstKeyIsNotAContinuation() throws {
        let file = try read("[a]\n  x=1\n  y=2\n")
        #expect(file.sections.first?.entries.map(\.key) == ["x"])
        #expect(messages(file) == ["3: indented line continues the value of 'x' (inih joins indented lines); remove the indentation, values must fit on one line"])
    }

    @Test("every syntax error is reported not only the first") func everySyntaxErrorIsReportedNotOnlyTheFirst() throws {
        #expect(messages(try read("[a]\nno equals\n[b\nx=1\nalso bad\n")) == [
            "2: expected 'key=value', a [section] header, or a comment starting with ';' or '#'",
            "3: section header without a closing ']'",
            "5: expected 'key=value', a [section] header, or a comment starting with ';' or '#'",
        ])
    }

    @Test("closest name suggests only near misses") func closestNameSuggestsOnlyNearMisses() {
        #expect(ClosestName.suggestion(for: "hitradius", among: GridKey.allCases.map(\.rawValue)) == "hit-radius")
        #expect(ClosestName.suggestion(for: "rwos", among: GridKey.allCases.map(\.rawValue)) == "rows")
        #expect(ClosestName.suggestion(for: "colour", among: GridKey.allCases.map(\.rawValue)) == nil)
    }
}
