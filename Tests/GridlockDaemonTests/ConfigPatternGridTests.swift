import Foundation
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// A hash is made over `ROWSxCOLUMNS:nodes`, so a pattern is only good on its own grid.
@Suite struct ConfigPatternGridTests {
    static let hash = "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"

    func load(_ text: String) throws -> ConfigCheck {
        let folder = try ConfigFixtures.scratch(["gridlock.conf": text])
        defer { ConfigFixtures.remove(folder) }
        return ConfigLoader.validateOnly(path: "\(folder)/gridlock.conf")
    }

    @Test("a pattern enrolled on another grid is an error at its grid= line")
    func mismatchIsAnError() throws {
        let check = try load("[grid]\nrows=4\ncolumns=4\n[pattern door]\ngrid=3x3\nhash=\(Self.hash)\n")
        #expect(check.diagnostics.map(\.location.line) == [5])
        #expect(check.diagnostics.first?.message
            == "[pattern door] was enrolled on a 3x3 grid but [grid] is 4x4: its hash can never match here; set [grid] rows=3 columns=3 or enroll it again")
    }

    @Test("the same grid is fine; a pattern that does not say is accepted with a warning")
    func matchingOrUnsaid() throws {
        #expect(try load("[pattern door]\ngrid=3x3\nhash=\(Self.hash)\n").isValid)
        let unsaid = try load("[pattern door]\nhash=\(Self.hash)\n")
        #expect(unsaid.isValid)
        #expect(unsaid.warnings.map(\.location.line) == [1])
        #expect(unsaid.warnings.first?.message.contains("add grid=3x3") == true)
    }

    @Test("malformed grid is an error", arguments: ["3", "3x", "x3", "9x3", "1x3", "3x3x3", "threexthree"])
    func malformedGridIsAnError(text: String) throws {
        let check = try load("[pattern door]\ngrid=\(text)\nhash=\(Self.hash)\n")
        #expect(check.diagnostics.first?.message.hasPrefix("[pattern door] grid: expected ROWSxCOLUMNS") == true)
    }

    @Test("the snapshot a reload compares before and after reading sees in-place writes, new drop-ins and renames")
    func snapshotsSeeChanges() throws {
        let folder = try ConfigFixtures.scratch(["gridlock.conf": "[grid]\nrows=3\n", "gridlock.conf.d/.keep": ""])
        defer { ConfigFixtures.remove(folder) }
        let path = "\(folder)/gridlock.conf"
        let first = ConfigVerdict.snapshot(path)
        #expect(ConfigVerdict.snapshot(path) == first)
        try "[grid]\nrows=4\n".write(toFile: path, atomically: false, encoding: .utf8)
        let rewritten = ConfigVerdict.snapshot(path)
        #expect(rewritten != first)
        try "[theme]\nnode=#112233\n".write(toFile: "\(folder)/gridlock.conf.d/50-x.conf", atomically: false, encoding: .utf8)
        let added = ConfigVerdict.snapshot(path)
        #expect(added != rewritten)
        #expect(added.keys.contains("\(folder)/gridlock.conf.d/50-x.conf"))
        try "[grid]\nrows=4\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ConfigVerdict.snapshot(path) != added)
    }
}
