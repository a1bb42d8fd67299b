import Foundation
import Glibc
import GridlockArguments
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// What `gridlock enroll` and `gridlock hash` may write: no argument becomes config lines of its
/// own or is read back as something else, and a drop-in is put in place only once the whole
/// configuration has been judged with it and it reads back as exactly the pattern asked for.
@Suite struct EnrollmentWritingTests {
    static let hash = "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"

    // MARK: - One value, one line

    @Test("an --exec with a line break and a [lockout] section after it is refused: it would write lines of its own")
    func aLineBreakThatWouldWriteALockoutSectionIsRefused() {
        #expect(IniValueCheck.problem(key: "exec", value: "/bin/true\n[lockout]\nschedule=none") == .controlCharacter("\n"))
        #expect(IniValueCheck.problem(key: "exec", value: "/bin/true\nduress=true") == .controlCharacter("\n"))
    }

    @Test("' ;' is inih's inline comment: --exec and --valid holding it are refused, saying what would be read")
    func anInlineCommentIsRefusedWithWhatWouldBeRead() {
        #expect(IniValueCheck.problem(key: "exec", value: "/bin/echo open ;--zone 2") == .inlineComment(readAs: "/bin/echo open"))
        #expect(IniValueCheck.problem(key: "valid", value: "Mon-Fri 07:00-09:30 ; Sat 08:00-12:00")
            == .inlineComment(readAs: "Mon-Fri 07:00-09:30"))
        #expect(IniValueCheck.problem(key: "exec", value: "/bin/echo a\t;b") == .controlCharacter("\t"))
        #expect(UnwritableValue.inlineComment(readAs: "/bin/echo open").description
            == "holds ';' after whitespace, where the config reader starts a comment: it would read only '/bin/echo open'; remove the whitespace before ';'")
    }

    @Test("a right-to-left override, zero-width characters, a byte order mark and the line separator are each refused")
    func everyInvisibleCharacterIsRefused() {
        for scalar: Unicode.Scalar in ["\u{202E}", "\u{2066}", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{AD}", "\u{2028}", "\u{2029}"] {
            #expect(IniValueCheck.problem(key: "exec", value: "/bin/echo a\(scalar)b") == .invisibleCharacter(scalar))
        }
        #expect(IniValueCheck.problem(key: "exec", value: "/usr/bin/logger porte d\u{2019}entr\u{E9}e ouverte") == nil)
        #expect(UnwritableValue.invisibleCharacter("\u{202E}").description
            == "holds the invisible character U+202E, which hides or reorders text where people read the config and the journal; type the value without it")
    }

    @Test("a carriage return, a tab, ESC, DEL, NUL and a C1 control character are each refused")
    func everyControlCharacterIsRefused() {
        for scalar: Unicode.Scalar in ["\r", "\t", "\u{1B}", "\u{7F}", "\u{0}", "\u{85}", "\u{9B}"] {
            #expect(IniValueCheck.problem(key: "exec", value: "/bin/echo a\(scalar)b") == .controlCharacter(scalar))
        }
        #expect(UnwritableValue.controlCharacter("\r").description
            == "holds a carriage return (U+000D); a config value is one line of printable text, and what follows a line break would be read as lines of its own")
        #expect(UnwritableValue.controlCharacter("\u{1B}").description
            == "holds the control character U+001B; a config value is one line of printable text")
    }

    @Test("whitespace at either end, which the reader strips, is refused")
    func surroundingWhitespaceIsRefused() {
        #expect(IniValueCheck.problem(key: "exec", value: " /bin/true") == .surroundingWhitespace(" "))
        #expect(IniValueCheck.problem(key: "valid-from", value: "2027-01-01 ") == .surroundingWhitespace(" "))
    }

    /// The control characters among them are refused as such, the line and paragraph
    /// separators as invisible; every other is whitespace at an end, whichever end.
    @Test("every Unicode space at either end of a value is refused: a no-break space, an em space, an ideographic space and the rest")
    func everyUnicodeSpaceAtEitherEndIsRefused() {
        #expect(ConfigWhitespace.scalars.count == 25)
        for space in ConfigWhitespace.scalars.sorted(by: { $0.value < $1.value }) {
            let expected: UnwritableValue = space.properties.generalCategory == .control ? .controlCharacter(space)
                : [0x2028, 0x2029].contains(space.value) ? .invisibleCharacter(space) : .surroundingWhitespace(space)
            #expect(IniValueCheck.problem(key: "exec", value: "/bin/echo open\(space)") == expected, "\(space.value)")
            #expect(IniValueCheck.problem(key: "exec", value: "\(space)/bin/echo open") == expected, "\(space.value)")
            #expect(IniValueCheck.problem(key: "valid-until", value: "2027-01-01\(space)") == expected, "\(space.value)")
        }
        // The three the review found accepted, by name.
        for (space, name) in [("\u{A0}", "U+00A0 (a no-break space)"), ("\u{3000}", "U+3000 (an ideographic space)"), ("\u{2003}", "U+2003 (an em space)")] as [(Unicode.Scalar, String)] {
            #expect(IniValueCheck.problem(key: "exec", value: "/bin/echo open\(space)") == .surroundingWhitespace(space))
            #expect(UnwritableValue.surroundingWhitespace(space).description
                == "begins or ends with whitespace, \(name), which nobody sees and the config reader refuses at either end of a value")
        }
        #expect(UnwritableValue.surroundingWhitespace(" ").description
            == "begins or ends with whitespace, U+0020 (a space), which the config reader drops")
        // Inside a value they are text like any other.
        #expect(IniValueCheck.problem(key: "exec", value: "/usr/bin/say 10\u{A0}h\u{202F}30") == nil)
    }

    @Test("the whitespace of config values is exactly Unicode's White_Space property")
    func theWhitespaceIsUnicodesWhiteSpaceProperty() {
        var whiteSpace: Set<Unicode.Scalar> = []
        for value in UInt32(0)...0x10FFFF {
            if let scalar = Unicode.Scalar(value), scalar.properties.isWhitespace { whiteSpace.insert(scalar) }
        }
        #expect(ConfigWhitespace.scalars == whiteSpace)
        // What inih strips: C's isspace, the ASCII ones.
        #expect(ConfigWhitespace.scalars.filter(ConfigWhitespace.isStrippedByReader).map(\.value).sorted() == [9, 10, 11, 12, 13, 32])
    }

    @Test("a line longer than inih's buffer is refused in the reader's own words")
    func aLineTooLongIsRefused() {
        let fits = "/bin/echo " + String(repeating: "x", count: 198 - "exec=/bin/echo ".count)
        #expect(IniValueCheck.problem(key: "exec", value: fits) == nil)
        #expect(IniValueCheck.problem(key: "exec", value: fits + "x")
            == .refusedLine("line longer than 198 characters (bytes); shorten it"))
    }

    @Test("values that read back as themselves pass: ';' and '#' with no space before, '=', quotes, non-ASCII")
    func valuesThatReadBackPass() {
        for value in [
            "/bin/echo open", "Mon-Fri 07:00-09:30;Sat 08:00-12:00", "Mon-Fri 07:00-09:30; Sat 08:00-12:00",
            "/bin/echo a=b c:d #e", "/bin/sh -c 'echo \"x\"'", "/usr/bin/say Tür öffnen", "2026-12-24T18:00", "",
        ] {
            #expect(IniValueCheck.problem(key: "exec", value: value) == nil, "\(value)")
        }
    }

    @Test("checkPatternKey refuses what would not read back before the key's own check")
    func checkPatternKeyReadsBackFirst() {
        #expect(throws: PatternKeyProblem(UnwritableValue.controlCharacter("\n").description)) {
            try Enrollment.checkPatternKey("valid-until", "2027-01-01\n[lockout]")
        }
        #expect(throws: PatternKeyProblem.self) { try Enrollment.checkPatternKey("valid", "Mon-Fri 25:00-26:00") }
        #expect(throws: Never.self) { try Enrollment.checkPatternKey("valid", "Mon-Fri 07:00-09:30;Sat 08:00-12:00") }
    }

    // MARK: - The options

    private func arguments(_ words: String...) -> Arguments { Arguments(words, command: "gridlock enroll") }

    @Test("--exec with a line break is a usage error naming --exec")
    func execOptionNamesTheOption() {
        var words = arguments("--exec", "/bin/true\n[lockout]\nschedule=none")
        #expect(throws: UsageError("--exec: \(UnwritableValue.controlCharacter("\n"))", command: "gridlock enroll")) {
            _ = try words.patternValue("--exec", key: "exec")
        }
    }

    @Test("--valid with ' ;' is a usage error naming --valid, not a shorter schedule")
    func validOptionWithACommentNamesTheOption() {
        var words = arguments("--valid", "Mon-Fri 07:00-09:30 ; Sat 08:00-12:00")
        #expect(throws: UsageError(
            "--valid: \(UnwritableValue.inlineComment(readAs: "Mon-Fri 07:00-09:30"))", command: "gridlock enroll")) {
            _ = try words.patternLimits()
        }
    }

    @Test("--valid-until before --valid-from is a usage error naming both, before anything is drawn")
    func validityOutOfOrderNamesBothOptions() throws {
        var words = arguments("--valid-from", "2027-01-02", "--valid-until", "2027-01-01")
        #expect(throws: UsageError(
            "--valid-until 2027-01-01 is before --valid-from 2027-01-02: the pattern could never open", command: "gridlock enroll")) {
            _ = try words.patternLimits()
        }
        // The same day is one day long: from its start to its end.
        var sameDay = arguments("--valid-from", "2027-01-01", "--valid-until", "2027-01-01", "--uses", "2")
        let lines = try sameDay.patternLimits()
        #expect(lines.map { "\($0.0)=\($0.1)" } == ["uses=2", "valid-from=2027-01-01", "valid-until=2027-01-01"])
    }

    // MARK: - Storing

    /// A private config folder (as `gridlock enroll` finds /etc/gridlock) with no drop-in folder yet.
    private func makeConfig(_ extra: String = "") throws -> (folder: String, config: String) {
        let folder = try ConfigFixtures.scratch([
            "gridlock.conf": "[display]\nbackend=png\noutput-dir=frames\n[lockout]\nstate-file=state/attempts\n\(extra)",
            "state/.keep": "",
        ])
        chmod("\(folder)/gridlock.conf", 0o600)
        chmod(folder, 0o755)
        chmod("\(folder)/state", 0o700)
        return (folder, "\(folder)/gridlock.conf")
    }

    private func store(
        _ config: String, name: String = "door", exec: String? = "/bin/echo open", grid: GridShape = .standard,
        keys: [(String, String)] = [], text: String? = nil
    ) throws(EnrollmentError) -> String {
        try Enrollment.store(
            name: name, hash: Self.hash, exec: exec, grid: grid, keys: keys, configPath: config,
            runningAs: ProcessIdentity.effectiveUser, text: text)
    }

    /// `text` as the file `path`, with exactly `mode`, in a folder made 0755 if missing.
    private func writeFile(_ text: String, to path: String, mode: mode_t) throws {
        let folder = String(path[..<path.lastIndex(of: "/")!])
        mkdir(folder, 0o755)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
    }

    private func entries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test("a stored pattern is in place with mode 0600, no temporary file left, and loads as asked")
    func aStoredPatternLoadsAsAsked() throws {
        let (folder, config) = try makeConfig()
        defer { ConfigFixtures.remove(folder) }
        let path = try store(config, keys: [("uses", "3"), ("valid", "Mon-Fri 07:00-09:30;Sat 08:00-12:00")])
        #expect(path == "\(config).d/50-door.conf")
        #expect(entries("\(config).d") == ["50-door.conf"])
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o600)
        let loaded = try ConfigVerdict.load(path: config, runningAs: ProcessIdentity.effectiveUser)
        let door = try #require(loaded.config.patterns.first { $0.name == "door" })
        #expect(door.source.file == path)
        #expect(door.exec == ["/bin/echo", "open"])
        #expect(door.limits.uses == 3)
        #expect(door.limits.schedule.windows.count == 2)
    }

    @Test("a drop-in that would also set [lockout] schedule=none is not written, nor its temporary file, nor the folder")
    func aFileWithAnExtraSectionIsNotWritten() throws {
        let (folder, config) = try makeConfig()
        defer { ConfigFixtures.remove(folder) }
        let smuggled = Enrollment.section(name: "door", hash: Self.hash, exec: "/bin/echo open", grid: .standard)
            + "[lockout]\nschedule=none\n"
        do throws(EnrollmentError) {
            _ = try store(config, text: smuggled)
            Issue.record("stored a drop-in that also sets [lockout]")
        } catch {
            guard case .readBackDiffers(let path, let read) = error else { Issue.record("\(error)"); return }
            #expect(path == "\(config).d/50-door.conf")
            #expect(read.contains("[lockout] schedule=none"))
            #expect(!read.contains(Self.hash))
            #expect(error.exitStatus == 1)
        }
        #expect(entries(folder) == ["gridlock.conf", "state"])
    }

    @Test("a drop-in whose exec reads back as another command is not written")
    func aFileWithAnotherCommandIsNotWritten() throws {
        let (folder, config) = try makeConfig()
        defer { ConfigFixtures.remove(folder) }
        let other = Enrollment.section(name: "door", hash: Self.hash, exec: "/bin/echo open ;--zone 2", grid: .standard)
        do throws(EnrollmentError) {
            _ = try store(config, exec: "/bin/echo open --zone 2", text: other)
            Issue.record("stored a drop-in that runs /bin/echo open")
        } catch {
            guard case .readBackDiffers(_, let read) = error else { Issue.record("\(error)"); return }
            #expect(read.hasSuffix("exec=/bin/echo open"))
        }
        #expect(entries(folder) == ["gridlock.conf", "state"])
    }

    @Test("a value that cannot be written is refused by store itself, before any file is made")
    func storeRefusesAnUnwritableValue() throws {
        let (folder, config) = try makeConfig()
        defer { ConfigFixtures.remove(folder) }
        do throws(EnrollmentError) {
            _ = try store(config, exec: "/bin/true\n[lockout]\nschedule=none")
            Issue.record("stored an exec with a line break")
        } catch {
            guard case .unwritableValue(let key, _) = error else { Issue.record("\(error)"); return }
            #expect(key == "exec")
            #expect(error.exitStatus == 64)
        }
        #expect(entries(folder) == ["gridlock.conf", "state"])
    }

    @Test("a configuration the verdict refuses with the new pattern leaves no file, and names the drop-in, not the temporary")
    func aFailedVerdictLeavesNoFile() throws {
        let (folder, config) = try makeConfig()
        defer { ConfigFixtures.remove(folder) }
        // A 4x4 hash in a 3x3 config can never match: the verdict refuses it at its grid= line.
        let fourByFour = try GridShape(rows: 4, columns: 4)
        do throws(EnrollmentError) {
            _ = try store(config, grid: fourByFour)
            Issue.record("stored a 4x4 pattern in a 3x3 config")
        } catch {
            guard case .configRejected(let rejected) = error else { Issue.record("\(error)"); return }
            #expect(error.exitStatus == 78)
            #expect(rejected.diagnostics.map(\.location) == [SourceLocation(file: "\(config).d/50-door.conf", line: 3)])
            #expect(!"\(rejected)".contains(".tmp-"))
        }
        #expect(entries(folder) == ["gridlock.conf", "state"])
    }

    @Test("a name taken in a config the verdict refuses (group-writable) is that refusal (78), as check-config says, not a name taken")
    func aNameTakenInAnUnsafeConfigIsTheVerdictsRefusal() throws {
        let (folder, config) = try makeConfig("[pattern door]\nhash=\(Self.hash)\ngrid=3x3\n")
        defer { ConfigFixtures.remove(folder) }
        chmod(config, 0o620)
        let checked = ConfigVerdict.check(path: config).check.diagnostics
        #expect(checked.contains { $0.message.contains("writable by its group (mode 0620)") })
        do throws(EnrollmentError) {
            _ = try store(config, name: "door")
            Issue.record("stored a pattern in a group-writable config")
        } catch {
            guard case .configRejected(let rejected) = error else { Issue.record("\(error)"); return }
            // Every problem check-config reports, and the duplicate the new drop-in would add.
            #expect(checked.allSatisfy(rejected.diagnostics.contains))
            #expect(rejected.diagnostics.contains { $0.message.hasPrefix("duplicate pattern name 'door'") })
            #expect(error.exitStatus == 78)
        }
        #expect(entries(folder) == ["gridlock.conf", "state"])
    }

    @Test("enrolling again under the same name, refused by the verdict, leaves the old drop-in as it was")
    func aFailedVerdictKeepsTheOldDropIn() throws {
        let (folder, config) = try makeConfig()
        defer { ConfigFixtures.remove(folder) }
        let path = try store(config)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var old = stat()
        #expect(stat(path, &old) == 0)
        #expect(throws: EnrollmentError.self) { _ = try store(config, exec: "/bin/echo new", grid: try GridShape(rows: 4, columns: 4)) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // The very same file: never replaced, not even for a moment.
        var after = stat()
        #expect(stat(path, &after) == 0 && after.st_ino == old.st_ino)
        #expect(entries("\(config).d") == ["50-door.conf"])
        // And a good one replaces it.
        _ = try store(config, exec: "/bin/echo new")
        let loaded = try ConfigVerdict.load(path: config, runningAs: ProcessIdentity.effectiveUser)
        #expect(loaded.config.patterns.map(\.exec) == [["/bin/echo", "new"]])
    }

    @Test("a drop-in of the name that holds another pattern is left as it is, not replaced")
    func aDropInHoldingAnotherPatternIsNotReplaced() throws {
        let (folder, config) = try makeConfig()
        defer { ConfigFixtures.remove(folder) }
        let path = "\(config).d/50-x.conf"
        let other = "[pattern y]\ngrid=3x3\nhash=\(Self.hash)\nexec=/bin/echo y\n"
        try writeFile(other, to: path, mode: 0o600)
        do throws(EnrollmentError) {
            _ = try store(config, name: "x")
            Issue.record("replaced a drop-in holding [pattern y]")
        } catch {
            guard case .dropInHoldsMore(let named, let holds) = error else { Issue.record("\(error)"); return }
            #expect(named == path)
            #expect(holds == "[pattern y]")
            #expect(error.exitStatus == 1)
            #expect(error.description == "\(path) holds more than the pattern it would replace ([pattern y]), so it was left as it is: "
                + "move what else it holds into a file of its own, or choose another --name")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == other)
        #expect(entries("\(config).d") == ["50-x.conf"])
        let loaded = try ConfigVerdict.load(path: config, runningAs: ProcessIdentity.effectiveUser)
        #expect(loaded.config.patterns.map(\.name) == ["y"])
    }

    @Test("a drop-in of the name holding the pattern and another section, or unreadable lines, is left as it is")
    func aDropInHoldingMoreThanThePatternIsNotReplaced() throws {
        let (folder, config) = try makeConfig()
        defer { ConfigFixtures.remove(folder) }
        let path = "\(config).d/50-x.conf"
        for (text, holds) in [
            ("[pattern x]\nhash=\(Self.hash)\n[theme]\nnode=#112233\n", "[theme]"),
            ("[pattern x]\nhash=\(Self.hash)\nnot a line\n", "expected 'key=value', a [section] header, or a comment starting with ';' or '#'"),
        ] {
            try writeFile(text, to: path, mode: 0o600)
            do throws(EnrollmentError) {
                _ = try store(config, name: "x")
                Issue.record("replaced a drop-in holding \(holds)")
            } catch {
                guard case .dropInHoldsMore(path, holds) = error else { Issue.record("\(error)"); continue }
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        }
        // Holding only the pattern, as an earlier enrol wrote it: that one is replaced.
        try writeFile("[pattern x]\ngrid=3x3\nhash=\(Self.hash)\nexec=/bin/echo old\n", to: path, mode: 0o600)
        _ = try store(config, name: "x", exec: "/bin/echo new")
        let loaded = try ConfigVerdict.load(path: config, runningAs: ProcessIdentity.effectiveUser)
        #expect(loaded.config.patterns.map(\.exec) == [["/bin/echo", "new"]])
    }

    // MARK: - The lock

    @Test("a second enroll of one configuration is refused with 75 while the first holds the lock, naming its pid")
    func aSecondEnrollIsRefusedWhileTheFirstHoldsTheLock() throws {
        let (folder, config) = try makeConfig()
        defer { ConfigFixtures.remove(folder) }
        let first = try ConfigLock.acquire(configPath: config, command: "gridlock enroll")
        #expect(first.path == "\(folder)/.gridlock.lock")
        #expect(throws: ConfigLockError.busy(folder: folder, holder: LockHolder(pid: getpid(), purpose: "gridlock enroll"))) {
            _ = try ConfigLock.acquire(configPath: config, command: "gridlock reset-lockout")
        }
        let refused = ConfigLockError.busy(folder: "/etc/gridlock", holder: LockHolder(pid: 1234, purpose: "gridlock enroll"))
        #expect(refused.description == "another gridlock enroll (pid 1234) is changing /etc/gridlock; try again when it is done")
        #expect(refused.exitStatus == 75)
        first.release()
        let second = try ConfigLock.acquire(configPath: config, command: "gridlock reset-lockout")
        second.release()
    }

    @Test("the lock file is no configuration: the verdict and the drop-in listing pass it by, and it stays 0600")
    func theLockFileIsNoConfiguration() throws {
        let (folder, config) = try makeConfig()
        defer { ConfigFixtures.remove(folder) }
        let lock = try ConfigLock.acquire(configPath: config, command: "gridlock enroll")
        defer { lock.release() }
        _ = try store(config)
        // A stray one in the drop-in folder too: hidden, so never read.
        try writeFile("1 gridlock enroll\n", to: "\(config).d/.gridlock.lock", mode: 0o600)
        #expect(ConfigVerdict.check(path: config).check.diagnostics == [])
        #expect(try ConfigPaths.files(of: config) == [config, "\(config).d/50-door.conf"])
        var info = stat()
        #expect(stat(lock.path, &info) == 0 && info.st_mode & 0o7777 == 0o600)
        #expect(entries(folder) == [".gridlock.lock", "gridlock.conf", "gridlock.conf.d", "state"])
    }

    @Test("while it is judged the drop-in stands in for its final name, between the drop-ins around it")
    func theStandInTakesTheFinalNamesPlace() throws {
        let folder = try ConfigFixtures.scratch(["g.conf": "", "g.conf.d/10-a.conf": "", "g.conf.d/90-z.conf": "", "g.conf.d/50-door.conf": ""])
        defer { ConfigFixtures.remove(folder) }
        let standIn = DropInStandIn(name: "50-door.conf", readFrom: "\(folder)/g.conf.d/.50-door.conf.tmp-1")
        #expect(try ConfigPaths.files(of: "\(folder)/g.conf", standIn: standIn)
            == ["\(folder)/g.conf", "\(folder)/g.conf.d/10-a.conf", standIn.readFrom, "\(folder)/g.conf.d/90-z.conf"])
        let new = DropInStandIn(name: "50-new.conf", readFrom: "\(folder)/g.conf.d/.50-new.conf.tmp-1")
        #expect(try ConfigPaths.files(of: "\(folder)/g.conf", standIn: new) == [
            "\(folder)/g.conf", "\(folder)/g.conf.d/10-a.conf", "\(folder)/g.conf.d/50-door.conf", new.readFrom,
            "\(folder)/g.conf.d/90-z.conf",
        ])
    }

    // MARK: - Exit statuses

    @Test("a configuration error ends a command with 78, a bad option with 64")
    func exitStatuses() {
        #expect(ConfigError(diagnostics: []).exitStatus == 78)
        #expect(EnrollmentError.configRejected(ConfigError(diagnostics: [])).exitStatus == 78)
        #expect(EnrollmentError.invalidName("a/b").exitStatus == 64)
        #expect(UsageError("x", command: "gridlock enroll").exitStatus == 64)
        #expect(EnrollmentError.nameTaken(name: "door", location: "g.conf:3").exitStatus == 1)
    }

    @Test("'run as root' is advice only for a user other than root refused by the kernel, not for a file too large")
    func runAsRootOnlyForAPermissionDenial() {
        let denied = BoundedReadError.system(SystemCallError(operation: "open", path: "/var/lib/gridlock/attempts", errno: .permissionDenied))
        #expect(denied.isPermissionDenial(forUser: 1000))
        #expect(!denied.isPermissionDenial(forUser: 0))
        #expect(!BoundedReadError.tooLarge(path: "/var/lib/gridlock/attempts", limit: 65536).isPermissionDenial(forUser: 1000))
        #expect(!BoundedReadError.notARegularFile(path: "/var/lib/gridlock/attempts", kind: "a FIFO").isPermissionDenial(forUser: 1000))
    }
}
