import GridlockConfiguration
import GridlockCore
import GridlockThemeFiles
import LinuxSys
import Synchronization

/// The one verdict on a configuration: what decides whether gridlockd starts (exit 78 on
/// any problem), whether a reload takes effect, and what `gridlock check-config` prints.
/// The text of every file (`ConfigLoader`), the owners and modes of the files and folders
/// it came from and the state directory (`ConfigSafety`), and the files and devices its
/// values name (`namedFiles`) are checked together, so no check passes a configuration
/// the daemon then refuses.
///
/// There are two doors, and no other public way to get a `GridlockConfig` from files:
/// `load` (the whole verdict) and `loadSkippingFileSafety` (everything but the owners and
/// modes). `ThemeFile` reads a presentation-only file and is no door to a configuration.
public enum ConfigVerdict {
    public static let defaultPath = "/etc/gridlock/gridlock.conf"

    /// How often a configuration that changes while it is read is read again.
    static let readAttempts = 5

    /// Every problem, and the configuration as far as it could be read.
    ///
    /// The files are read as one snapshot: their identities (inode, size, times) and the
    /// drop-in listing are taken before and after, each file must still hold what the
    /// loader read, and none may have changed within two ticks of the file system's clock
    /// before the read or during it (then it is read again once that change is that old:
    /// a few milliseconds, and only right after a change). So an editor saving in place
    /// while gridlockd reads is read again, and its half-written file is not taken for a
    /// shorter valid one. Identities alone were not enough: a file truncated and written
    /// again within one tick keeps its stamps on kernels that stamp coarsely (Debian 12's),
    /// and a stress run here, a thread truncating and rewriting the file in a loop, had
    /// both reads fall between its truncate and its write and an empty file taken for a
    /// configuration with no patterns. A writer descheduled mid-file for longer than the
    /// window still cannot be told from one that finished: replacing files atomically
    /// (rename), as the docs ask and `gridlock enroll` does, is the only cure.
    public static func check(
        path: String, runningAs user: UInt32 = ProcessIdentity.effectiveUser
    ) -> (check: ConfigCheck, config: GridlockConfig) {
        check(path: path, runningAs: user, afterEachRead: {})
    }

    /// `afterEachRead` runs between the loader's read and the checks that it saw one
    /// version of every file: where a test plays the writer that came in between.
    /// `standIn`: the verdict on the configuration as it would be with that drop-in in place.
    /// `fileSafety: .skipped` leaves out `ConfigSafety` (see `loadSkippingFileSafety`).
    static func check(
        path: String, standIn: DropInStandIn? = nil, runningAs user: UInt32, fileSafety: FileSafety = .checked,
        afterEachRead: () -> Void
    ) -> (check: ConfigCheck, config: GridlockConfig) {
        for _ in 0..<readAttempts {
            let began = FileTimestampClock.now()
            let before = snapshot(path, standIn: standIn)
            var (config, check) = ConfigLoader.run(path: path, standIn: standIn)
            afterEachRead()
            let after = snapshot(path, standIn: standIn)
            guard after == before, stillHold(check.contents) else { continue }
            if let recent = recentChange(after.values.map(\.changed.nanosecondsSinceEpoch), readBegan: began, now: FileTimestampClock.preciseNow()) {
                // Two reads that agree may both have fallen between a truncate and a
                // write stamped alike: read again once that change is old enough.
                FileTimestampClock.wait(past: Nanoseconds.sum(recent, settlingWindow))
                continue
            }
            // The named files are looked at once the text holds: a value refused there names nothing.
            let textHolds = check.isValid
            if fileSafety == .checked {
                check.diagnostics += ConfigSafety.problems(
                    files: check.files, dropInDirectory: ConfigPaths.dropInDirectory(of: path), config: config, runningAs: user,
                    socketAt: check.keyLocations["session.socket"] ?? check.keyLocations["session"])
            }
            if textHolds {
                check.diagnostics += NamedFileCheck.problems(config, at: check.keyLocations, mainFile: path, look: lookInspection(for: config))
            }
            return (check, config)
        }
        let unstable = ConfigDiagnostic(
            file: path, line: 0,
            message: "changed each of the \(readAttempts) times it was read; replace configuration files atomically (write a temporary file in the same folder, then rename it over the old one, as gridlock enroll does)")
        return (ConfigCheck(files: [path], diagnostics: [unstable]), GridlockConfig())
    }

    /// The look is judged as it will be drawn: decoded and opened when this configuration
    /// draws the panel, by the headers alone when it draws nothing (gridlockd as the
    /// verifier alone: its faces judge the look of their own files).
    static func lookInspection(for config: GridlockConfig) -> any LookInspecting {
        config.display.backend == .off ? HeaderLookInspection() : drawnLook.withLock { $0 }
    }

    /// How the look of a configuration that draws is judged in this process: by its
    /// headers until a program that draws says how it decodes (`judgeDrawnLooks`).
    private static let drawnLook = Mutex<any LookInspecting>(HeaderLookInspection())

    /// Called once at start by a program that draws what it loads (`gridlock`, gridlockd
    /// while it draws the panel), with `DecodingLookInspection`: this module links no
    /// drawing library, so the check that decodes comes from the program that does.
    public static func judgeDrawnLooks(with inspection: any LookInspecting) {
        drawnLook.withLock { $0 = inspection }
    }

    /// The main file, the drop-in folder's listing and each drop-in, as they are now.
    static func snapshot(_ path: String, standIn: DropInStandIn? = nil) -> [String: FileStatus.Identity] {
        let files = (try? ConfigPaths.files(of: path, standIn: standIn)) ?? [path]
        let directory = ConfigPaths.dropInDirectory(of: path)
        var identities: [String: FileStatus.Identity] = [:]
        for file in files + [directory] {
            if let status = try? FileStatus(path: file) { identities[file] = status.identity }
        }
        return identities
    }

    /// How long before a read a change still counts as possibly unfinished: two of the
    /// file system's clock ticks (8 ms with HZ=250).
    static let settlingWindow = 2 * FileTimestampClock.tick

    /// The latest change stamp (st_ctime of a file or of the drop-in folder) within
    /// `settlingWindow` before the read began, or after it; nil when every file had been
    /// left alone longer. A stamp far in the future (the clock set back since: a panel
    /// without an RTC, or a file stamped in 2300) is no change in progress; every sum
    /// saturates, so stamps and clocks at the ends of `Int64` are judged, never a trap. A
    /// stamp or a clock at an end (past 2262 or before 1677) says nothing about ticks, and
    /// no wait could ever pass it: no change in progress either, and the snapshot's
    /// identities and contents alone decide.
    static func recentChange(_ stamps: [Int64], readBegan began: Int64, now: Int64) -> Int64? {
        let ends: Set<Int64> = [.min, .max]
        guard !ends.contains(began), !ends.contains(now) else { return nil }
        let earliest = Nanoseconds.difference(began, settlingWindow)
        let latest = Nanoseconds.sum(now, FileTimestampClock.tick)
        return stamps.filter { $0 > earliest && $0 <= latest && !ends.contains($0) }.max()
    }

    /// Whether every file still holds what was read from it.
    static func stillHold(_ contents: [String: FileContentDigest]) -> Bool {
        contents.allSatisfy { path, content in
            (try? AtomicFile.regularFileContents(of: path, limit: IniReader.maximumFileBytes)).map(FileContentDigest.init) == content
        }
    }

    /// The configuration gridlockd runs with, or every reason it must not start: the door
    /// for gridlockd (start and reload), `gridlock enroll` (which runs the same `Daemon` on
    /// the panel and writes a drop-in; `Enrollment.store` looks up the names taken through
    /// it too), `gridlock calibrate` (the panel, and a drop-in
    /// written as root) and `gridlock reset-lockout` (it writes, as root, the state file the
    /// config names: a config others could change could point it anywhere).
    public static func load(
        path: String, runningAs user: UInt32 = ProcessIdentity.effectiveUser
    ) throws(ConfigError) -> LoadedConfig {
        try load(path: path, standIn: nil, runningAs: user)
    }

    /// Every check of `load` but the owners and modes of the files, the folders and the
    /// state directory (`ConfigSafety`): the text, the snapshot and the files the values
    /// name are judged as gridlockd judges them. Those checks guard what the service does
    /// as root; a tool that only reads the configuration and writes nothing it names may
    /// be run on a copy in a home folder (umask 0002) or on the bundled example, whose
    /// hashes are readable by all. Its callers, and why:
    /// - `gridlock hash --config`: reads the grid and the argon2 cost, prints a hash.
    /// - `gridlock render --config`: draws a PNG of the theme for a person to look at.
    /// - `gridlock replay --config`: plays a recording through the config, offline.
    /// - `gridlock demo`: the bundled example configuration, installed readable by all.
    /// - `gridlock devices --config`: reports which display the config would choose.
    /// - `gridlock patterns`: lists the patterns and the state file's counts, read-only;
    ///   it is how a person looks at a config they are about to fix.
    /// gridlockd never takes this door, and neither does a tool that writes a file.
    public static func loadSkippingFileSafety(path: String) throws(ConfigError) -> LoadedConfig {
        try load(path: path, standIn: nil, runningAs: ProcessIdentity.effectiveUser, fileSafety: .skipped)
    }

    /// `load` of the configuration as it would be with `standIn` in place.
    static func load(
        path: String, standIn: DropInStandIn?, runningAs user: UInt32, fileSafety: FileSafety = .checked
    ) throws(ConfigError) -> LoadedConfig {
        let (check, config) = check(path: path, standIn: standIn, runningAs: user, fileSafety: fileSafety, afterEachRead: {})
        guard check.isValid else { throw ConfigError(diagnostics: check.diagnostics) }
        return LoadedConfig(config: config, files: check.files, warnings: check.warnings)
    }

    /// Whether the verdict looks at the owners and modes (`ConfigSafety`).
    enum FileSafety: Sendable { case checked, skipped }
}
