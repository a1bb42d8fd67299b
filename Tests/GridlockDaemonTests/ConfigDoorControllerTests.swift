import Foundation
import GridlockCore
import Testing
@testable import GridlockConfiguration
@testable import GridlockDaemon

/// `[on EVENT]` hooks and the schedule and uses of patterns: what is accepted, and that a
/// mistake is found at its FILE:LINE by the loader both gridlockd and check-config run.
struct ConfigDoorControllerTests {
    static let hash = ConfigLoaderTests.hash

    private func diagnostics(_ text: String, dropIn: String? = nil) throws -> [String] {
        var files = ["gridlock.conf": text]
        if let dropIn { files["gridlock.conf.d/50-test.conf"] = dropIn }
        let folder = try ConfigFixtures.scratch(files)
        defer { ConfigFixtures.remove(folder) }
        return ConfigFixtures.diagnostics("\(folder)/gridlock.conf").map { String($0.drop(while: { $0 != ":" }).dropFirst()) }
    }

    /// A config text and the one diagnostic it must give (after the file name). A stored list,
    /// not a literal in `@Test(arguments:)`: Swift 6.0 crashes on interpolation there.
    static let mistakes: [(text: String, expected: String)] = [
        ("[on fail]\nexec=/bin/true\n", "1: unknown event 'fail' in [on fail]; known: failure lockout unlock duress tamper start stop"),
        ("[on]\nexec=/bin/true\n", "1: [on] needs an event: [on EVENT]; known: failure lockout unlock duress tamper start stop"),
        ("[on lockout]\nexec=/bin/true\nafter=2\n", "3: [on lockout] after= is only for [on failure] (run from the Nth consecutive failure)"),
        ("[on failure]\nexec=/bin/true\nafter=0\n", "3: [on failure] after: must be from 1 to 1000000, not 0"),
        ("[on start]\ntimeout=5\n", "1: [on start] has no exec= (the program to run)"),
        ("[on stop]\nexec=stop-it\n", "2: [on stop] exec: the program must be an absolute path (as systemd requires), not 'stop-it'"),
        ("[on tamper]\nexec=/bin/true\nexec=/bin/false\n", "3: [on tamper] exec is set twice in this file (first on line 2)"),
        ("[on unlock]\nexec=/bin/true\nbefore=2\n", "3: unknown key 'before' in [on unlock]; known: exec after timeout"),
        ("[on tamperr]\nexec=/bin/true\n", "1: unknown event 'tamperr' in [on tamperr]; did you mean tamper?"),
        ("[pattern door]\nhash=\(hash)\nvalid=Mon-Fri 25:00-09:00\n",
         "3: [pattern door] valid: '25:00' is not a time of day (00:00 to 23:59); expected windows like 'Mon-Fri 07:00-09:30; Sat 08:00-12:00'"),
        ("[pattern door]\nhash=\(hash)\nvalid=Mon-Fri 07:00-09:00;\n",
         "3: [pattern door] valid: an empty window (two ';' in a row, or one at an end); expected windows like 'Mon-Fri 07:00-09:30; Sat 08:00-12:00'"),
        ("[pattern door]\nhash=\(hash)\nvalid=Weekdays 07:00-09:00\n",
         "3: [pattern door] valid: 'Weekdays' is not a day or a range of days (Mon Tue Wed Thu Fri Sat Sun, Mon-Fri, Daily); expected windows like 'Mon-Fri 07:00-09:30; Sat 08:00-12:00'"),
        ("[pattern door]\nhash=\(hash)\nvalid-from=2026-12-24\nvalid-until=2026-12-01\n",
         "4: [pattern door] valid-until=2026-12-01T23:59:59 is before valid-from=2026-12-24T00:00:00: the pattern could never open"),
        ("[pattern door]\nhash=\(hash)\nvalid-until=2026-02-30\n",
         "3: [pattern door] valid-until: expected a local date or date-time as YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (no time zone), got '2026-02-30'"),
        ("[pattern door]\nhash=\(hash)\nvalid-from=2026-12-24T08:00Z\n",
         "3: [pattern door] valid-from: expected a local date or date-time as YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (no time zone), got '2026-12-24T08:00Z'"),
        ("[pattern door]\nhash=\(hash)\nuses=0\n", "3: [pattern door] uses: must be from 1 to 1000000, not 0"),
        ("[security]\ntrust-unsynchronised-clock=perhaps\n",
         "2: [security] trust-unsynchronised-clock: expected true or false (or yes/no, 1/0, on/off), got 'perhaps'"),
    ]

    @Test("mistakes are found at their line", arguments: mistakes)
    func mistakesAreFoundAtTheirLine(text: String, expected: String) throws {
        #expect(try diagnostics(text) == [expected])
    }

    @Test("negative uses are refused") func negativeUsesAreRefused() throws {
        let found = try diagnostics("[pattern door]\nhash=\(Self.hash)\nuses=-1\n")
        #expect(found.count == 1 && found[0].hasPrefix("3: [pattern door] uses:"), "\(found)")
    }

    @Test("a drop-in overrides the keys of a hook, keeps the others, and adds hooks")
    func hooksAcrossFiles() throws {
        let folder = try ConfigFixtures.scratch([
            "gridlock.conf": "[on failure]\nexec=/usr/bin/logger wrong\nafter=3\n[on lockout]\nexec=/usr/bin/logger locked\n",
            "gridlock.conf.d/50-alarm.conf": "[on failure]\nexec=/usr/local/bin/siren\n[on tamper]\nexec=/usr/local/bin/siren tamper\ntimeout=0\n",
        ])
        defer { ConfigFixtures.remove(folder) }
        let hooks = try ConfigLoader.load(path: "\(folder)/gridlock.conf").config.hooks
        #expect(hooks[.failure]?.argv == ["/usr/local/bin/siren"])
        #expect(hooks[.failure]?.after == 3)
        #expect(hooks[.failure]?.source.file.hasSuffix("50-alarm.conf") == true)
        #expect(hooks[.lockout]?.argv == ["/usr/bin/logger", "locked"] && hooks[.lockout]?.timeout == .seconds(10))
        #expect(hooks[.tamper]?.argv == ["/usr/local/bin/siren", "tamper"] && hooks[.tamper]?.timeout == nil)
        #expect(hooks.count == 3)
    }

    @Test("pattern limits are read") func patternLimitsAreRead() throws {
        let folder = try ConfigFixtures.scratch([
            "gridlock.conf": "[security]\ntrust-unsynchronised-clock=yes\n[pattern cleaner]\nhash=\(Self.hash)\ngrid=3x3\nvalid=Mon-Fri 06:00-08:30;Sat 07:00-09:00\nvalid-from=2026-12-01\nvalid-until=2027-03-31T18:00\nuses=40\n",
        ])
        defer { ConfigFixtures.remove(folder) }
        let config = try ConfigLoader.load(path: "\(folder)/gridlock.conf").config
        let limits = try #require(config.patterns.first).limits
        #expect(limits.uses == 40)
        #expect(limits.schedule.windows.count == 2)
        #expect(limits.schedule.validFrom == LocalDateTime(year: 2026, month: 12, day: 1))
        #expect(limits.schedule.validUntil == LocalDateTime(year: 2027, month: 3, day: 31, hour: 18))
        #expect(config.security.trustUnsynchronisedClock)
    }
}
