import Foundation
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// Each broken fixture against the exact `FILE:LINE:` prefix and the words of its diagnostic.
struct ConfigErrorTests {
    struct Broken: Sendable, CustomTestStringConvertible {
        var fixture: String
        var line: Int
        var message: String
        var testDescription: String { fixture }

        init(_ fixture: String, _ line: Int, _ message: String) {
            self.fixture = fixture
            self.line = line
            self.message = message
        }
    }

    @Test("reports exactly this problem", arguments: [
        Broken("unknown-section.conf", 3, "unknown section [dispaly]; did you mean [display]?"),
        Broken("unknown-key.conf", 3, "unknown key 'row' in [grid]; did you mean rows?"),
        Broken("bad-integer.conf", 2, "[feedback] error-ms: expected a whole number from 0 to 60000, got '1.5s'"),
        Broken("out-of-range.conf", 3, "[grid] rows: must be from 2 to 8, not 9"),
        Broken("bad-colour.conf", 2, "[theme] background: expected a colour as #RRGGBB (e.g. #2E9BFF), got 'blue'"),
        Broken("bad-rotation.conf", 3, "[display] rotation: expected 0, 90, 180 or 270 (degrees clockwise), got '45'"),
        Broken("bad-boolean.conf", 2, "[touch] grab: expected true or false (or yes/no, 1/0, on/off), got 'maybe'"),
        Broken("bad-schedule.conf", 2, "[lockout] schedule: 'soon' is not a delay; use android, none, or whole seconds joined by commas (e.g. 0,0,0,0,30,60)"),
        Broken("missing-hash.conf", 4, "[pattern door] has no hash= (every pattern needs its argon2id hash; make one with 'gridlock hash')"),
        Broken("malformed-hash.conf", 2, "[pattern door] hash: expected an argon2id hash starting with $argon2id$ (make one with 'gridlock hash'), got '$argon2i$v=1…'"),
        Broken("garbage-hash.conf", 2, "[pattern door] hash: malformed argon2id hash '$argon2id$ga…': expected $argon2id$v=19$m=KIB,t=PASSES,p=1$SALT$KEY with a cost libsodium accepts, a salt of at least 8 and a key of at least 16 bytes in unpadded base64 (copy it whole from 'gridlock hash'); this pattern could never match"),
        Broken("short-key-hash.conf", 2, "[pattern door] hash: malformed argon2id hash '$argon2id$v=…': expected $argon2id$v=19$m=KIB,t=PASSES,p=1$SALT$KEY with a cost libsodium accepts, a salt of at least 8 and a key of at least 16 bytes in unpadded base64 (copy it whole from 'gridlock hash'); this pattern could never match"),
        Broken("duplicate-key.conf", 4, "[display] rotation is set twice in this file (first on line 2)"),
        Broken("line-too-long.conf", 2, "line longer than 198 characters (bytes); shorten it"),
        Broken("syntax-error.conf", 3, "expected 'key=value', a [section] header, or a comment starting with ';' or '#'"),
        Broken("duress-exec-without-duress.conf", 3, "[pattern door] duress-exec is only allowed together with duress=true"),
        Broken("min-nodes-too-large.conf", 4, "[grid] min-nodes=5 is more than the 4 nodes of a 2x2 grid"),
        Broken("png-without-output-dir.conf", 2, "[display] backend=png needs output-dir=DIR (where the frames go)"),
        Broken("replay-without-recording.conf", 2, "[touch] backend=replay needs device=FILE.evemu (a recording), not auto"),
        Broken("indented-continuation.conf", 3, "indented line continues the value of 'backend' (inih joins indented lines); remove the indentation, values must fit on one line"),
        Broken("key-before-section.conf", 1, "'backend' comes before any [section] header"),
        Broken("template-unknown-name.conf", 2, "[theme] too-short: {minmum} is not a value of this message; it knows {minimum} (write {{ for a literal brace); did you mean {minimum}?"),
        Broken("relative-exec.conf", 3, "[pattern door] exec: the program must be an absolute path (as systemd requires), not 'door-relay'"),
        Broken("bad-pattern-name.conf", 1, "pattern name 'front door' must be 1 to 64 characters of A-Z a-z 0-9 _ . -"),
    ])
    func reportsExactlyThisProblem(_ broken: Broken) {
        let path = ConfigFixtures.path("broken/" + broken.fixture)
        #expect(ConfigFixtures.diagnostics(path) == ["\(path):\(broken.line): \(broken.message)"])
    }

    /// Judged with the files the config names (the text alone holds: a font is a path).
    @Test("missing font names the resolved path and the reason") func missingFontNamesTheResolvedPathAndTheReason() {
        let path = ConfigFixtures.path("broken/missing-font.conf")
        let font = ConfigFixtures.path("broken/fonts/missing.ttf")
        #expect(ConfigFixtures.diagnostics(path) == [])
        let verdict = ConfigVerdict.check(path: path, runningAs: 0, fileSafety: .skipped, afterEachRead: {})
        #expect(verdict.check.diagnostics.map(\.description) == [
            "\(path):2: [theme] font: cannot open '\(font)': No such file or directory"
        ])
    }

    @Test("unterminated header and the key left without a section") func unterminatedHeaderAndTheKeyLeftWithoutASection() {
        let path = ConfigFixtures.path("broken/unterminated-section.conf")
        #expect(ConfigFixtures.diagnostics(path) == [
            "\(path):1: section header without a closing ']'",
            "\(path):2: 'backend' comes before any [section] header",
        ])
    }

    @Test("several problems are reported together in file order") func severalProblemsAreReportedTogetherInFileOrder() {
        let path = ConfigFixtures.path("broken/several-errors.conf")
        #expect(ConfigFixtures.diagnostics(path) == [
            "\(path):3: [display] rotation: expected 0, 90, 180 or 270 (degrees clockwise), got '45'",
            "\(path):5: [grid] rows: must be from 2 to 8, not 1",
            "\(path):6: [grid] size: must be from 0.1 to 1.0, not 2",
            "\(path):7: unknown section [colours]; known: [display] [touch] [grid] [theme] [feedback] [lockout] [security] [action] [session] [pattern] [on]",
            "\(path):9: [pattern p] has no hash= (every pattern needs its argon2id hash; make one with 'gridlock hash')",
        ])
    }

    @Test("missing main file is a whole file error") func missingMainFileIsAWholeFileError() {
        let path = "/nonexistent/gridlock.conf"
        #expect(ConfigFixtures.diagnostics(path) == ["\(path): cannot read: No such file or directory"])
    }

    @Test("directory in place of the main file") func directoryInPlaceOfTheMainFile() throws {
        let folder = try ConfigFixtures.scratch(["gridlock.conf/keep": ""])
        defer { ConfigFixtures.remove(folder) }
        #expect(ConfigFixtures.diagnostics(folder + "/gridlock.conf") == ["\(folder)/gridlock.conf: cannot read: it is a directory, not a regular file"])
    }

    @Test("unreadable file says permission denied", .enabled(if: geteuid() != 0, "root reads any file"))
    func unreadableFileSaysPermissionDenied() throws {
        let folder = try ConfigFixtures.scratch(["gridlock.conf": "[display]\n"])
        defer { ConfigFixtures.remove(folder) }
        let path = folder + "/gridlock.conf"
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        #expect(ConfigFixtures.diagnostics(path) == ["\(path): cannot read: Permission denied"])
    }

    @Test("unreadable drop in is reported with the other files") func unreadableDropInIsReportedWithTheOtherFiles() throws {
        let folder = try ConfigFixtures.scratch(["g.conf": "[display]\nrotation=7\n"])
        defer { ConfigFixtures.remove(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/g.conf.d", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/g.conf.d/10-gone.conf", withDestinationPath: "/nonexistent.conf")
        let check = ConfigLoader.validateOnly(path: folder + "/g.conf")
        #expect(check.files == [folder + "/g.conf", folder + "/g.conf.d/10-gone.conf"])
        #expect(check.diagnostics.map(\.description) == [
            "\(folder)/g.conf:2: [display] rotation: expected 0, 90, 180 or 270 (degrees clockwise), got '7'",
            "\(folder)/g.conf.d/10-gone.conf: cannot read: No such file or directory",
        ])
    }

    @Test("drop in path that is not a directory") func dropInPathThatIsNotADirectory() throws {
        let folder = try ConfigFixtures.scratch(["g.conf": "[display]\n", "g.conf.d": "oops\n"])
        defer { ConfigFixtures.remove(folder) }
        #expect(ConfigFixtures.diagnostics(folder + "/g.conf") == ["\(folder)/g.conf.d: cannot list drop-ins: Not a directory"])
    }

    @Test("missing drop in directory is fine") func missingDropInDirectoryIsFine() throws {
        let folder = try ConfigFixtures.scratch(["g.conf": "[display]\n"])
        defer { ConfigFixtures.remove(folder) }
        #expect(try ConfigLoader.load(path: folder + "/g.conf").files == [folder + "/g.conf"])
    }

    @Test("a value overridden later is still checked") func aValueOverriddenLaterIsStillChecked() throws {
        let folder = try ConfigFixtures.scratch([
            "g.conf": "[grid]\nrows=12\n",
            "g.conf.d/10-fix.conf": "[grid]\nrows=4\n",
        ])
        defer { ConfigFixtures.remove(folder) }
        #expect(ConfigFixtures.diagnostics(folder + "/g.conf") == ["\(folder)/g.conf:2: [grid] rows: must be from 2 to 8, not 12"])
    }

    @Test("the same key in two files is an override not a duplicate") func theSameKeyInTwoFilesIsAnOverrideNotADuplicate() throws {
        let folder = try ConfigFixtures.scratch([
            "g.conf": "[grid]\nrows=5\n",
            "g.conf.d/10-fix.conf": "[grid]\nrows=4\n",
        ])
        defer { ConfigFixtures.remove(folder) }
        #expect(try ConfigLoader.load(path: folder + "/g.conf").config.grid.shape.rows == 4)
    }

    @Test("min nodes is checked against the final grid") func minNodesIsCheckedAgainstTheFinalGrid() throws {
        let folder = try ConfigFixtures.scratch([
            "g.conf": "[grid]\nmin-nodes=9\n",
            "g.conf.d/10-small.conf": "[grid]\nrows=2\ncolumns=2\n",
        ])
        defer { ConfigFixtures.remove(folder) }
        #expect(ConfigFixtures.diagnostics(folder + "/g.conf") == [
            "\(folder)/g.conf:2: [grid] min-nodes=9 is more than the 4 nodes of a 2x2 grid"
        ])
    }

    @Test("success colour key points to the message key") func successColourKeyPointsToTheMessageKey() throws {
        let folder = try ConfigFixtures.scratch(["g.conf": "[theme]\nsuccess=Welcome\n"])
        defer { ConfigFixtures.remove(folder) }
        #expect(ConfigFixtures.diagnostics(folder + "/g.conf") == [
            "\(folder)/g.conf:2: [theme] success: expected a colour as #RRGGBB (e.g. #2E9BFF), got 'Welcome' (the success message is success-text=)"
        ])
    }

    @Test("keys of a pattern are checked too") func keysOfAPatternAreCheckedToo() throws {
        let folder = try ConfigFixtures.scratch([
            "g.conf": "[pattern a]\nhash=\(ConfigLoaderTests.hash)\nhash=\(ConfigLoaderTests.hash)\nexe=/bin/true\nduress=sometimes\n",
        ])
        defer { ConfigFixtures.remove(folder) }
        #expect(ConfigFixtures.diagnostics(folder + "/g.conf") == [
            "\(folder)/g.conf:3: [pattern a] hash is set twice in this section (first on line 2)",
            "\(folder)/g.conf:4: unknown key 'exe' in [pattern a]; did you mean exec?",
            "\(folder)/g.conf:5: [pattern a] duress: expected true or false (or yes/no, 1/0, on/off), got 'sometimes'",
        ])
    }

    @Test("replay backend refuses a name match") func replayBackendRefusesANameMatch() throws {
        let folder = try ConfigFixtures.scratch(["g.conf": "[touch]\nbackend=replay\ndevice=name:Goodix\n"])
        defer { ConfigFixtures.remove(folder) }
        #expect(ConfigFixtures.diagnostics(folder + "/g.conf") == [
            "\(folder)/g.conf:3: [touch] backend=replay needs device=FILE.evemu (a recording), not a name: match"
        ])
    }

    @Test("descriptions use compiler style locations") func descriptionsUseCompilerStyleLocations() {
        #expect(ConfigDiagnostic(file: "/etc/g.conf", line: 3, message: "m").description == "/etc/g.conf:3: m")
        #expect(ConfigDiagnostic(file: "/etc/g.conf", line: 0, message: "m").description == "/etc/g.conf: m")
        let error = ConfigError(diagnostics: [
            ConfigDiagnostic(file: "a", line: 1, message: "x"), ConfigDiagnostic(file: "b", line: 0, message: "y"),
        ])
        #expect(error.description == "a:1: x\nb: y")
    }
}
