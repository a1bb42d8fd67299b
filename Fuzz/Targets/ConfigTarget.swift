import GridlockDaemon
import Glibc
import LinuxSys
import Synchronization

extension FuzzTargets {
    /// The one verdict (`ConfigVerdict`: text, file safety and the files a config names) on a
    /// main file and up to two drop-ins, as `gridlock check-config` and gridlockd judge them.
    /// The input is split at `separator` lines; the parts are written to a scratch folder
    /// (`FuzzScratch`). Every diagnostic must point into a file that was read, at a line that
    /// exists, or name another file (line 0: a folder, the state file, a named file); a
    /// config the verdict passes must also load through `ConfigVerdict.load`, as gridlockd
    /// starts. A named FIFO or device that made the verdict block is a timeout finding.
    static let config = FuzzTarget(
        name: "config",
        summary: "`ConfigVerdict` on a main file and up to two drop-ins; every FILE:LINE exists, a passed config loads",
        maximumLength: 8192,
        run: { bytes throws(FuzzFinding) in try ConfigFuzz.run(bytes) },
        seeds: ConfigFuzz.seeds)
}

enum ConfigFuzz {
    /// The line that separates the main file from the first drop-in, and that from the second.
    static let separator = Array("\n=== next file ===\n".utf8)
    static let dropInNames = ["10-fuzz.conf", "20-fuzz.conf"]

    static func run(_ bytes: [UInt8]) throws(FuzzFinding) {
        let parts = split(bytes)
        try FuzzScratch.withDirectory { directory throws(FuzzFinding) in
            let main = directory + "/gridlock.conf"
            let dropIns = directory + "/gridlock.conf.d"
            let paths = [main] + dropInNames.map { dropIns + "/" + $0 }
            for (index, path) in paths.enumerated() {
                if index < parts.count {
                    FuzzScratch.write(parts[index], to: path)
                } else {
                    unlinkIfPresent(path)
                }
            }
            let check = ConfigVerdict.check(path: main).check
            let read = Array(paths.prefix(parts.count))
            try require(check.files == read, "read \(check.files), expected \(read)")
            for diagnostic in check.diagnostics {
                let location = diagnostic.location
                func context() -> String { "'\(diagnostic)' for \(quoted(bytes))" }
                if location.file == dropIns {
                    try require(location.line == 0, "a line number for the drop-in folder: \(context())")
                    continue
                }
                guard let index = read.firstIndex(of: location.file) else {
                    // File safety and named files speak of a file as a whole.
                    try require(location.line == 0, "a line number in a file that was not read: \(context())")
                    continue
                }
                let lines = parts[index].count { $0 == UInt8(ascii: "\n") } + 1
                try require((0...lines).contains(location.line), "line \(location.line) of a \(lines)-line file: \(context())")
            }
            if check.isValid {
                do {
                    let loaded = try ConfigVerdict.load(path: main)
                    try require(loaded.files == read, "loaded \(loaded.files), expected \(read)")
                } catch {
                    throw FuzzFinding("check-config passed a config that does not load (\(error)): \(quoted(bytes))")
                }
            }
        }
    }

    static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var rest = bytes[...]
        while parts.count < dropInNames.count, let range = firstRange(of: separator, in: rest) {
            parts.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        return parts + [rest]
    }

    private static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in haystack.startIndex...(haystack.endIndex - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start..<(start + needle.count)
        }
        return nil
    }

    static func seeds(_ fixtures: String) -> [FuzzSeed] {
        let config = fixtures + "/config"
        var seeds = FixtureFiles.seeds(config, "broken", suffix: ".conf", prefix: "broken-")
            + FixtureFiles.seeds(config, "good", suffix: ".conf", prefix: "good-")
            + FixtureFiles.seeds(fixtures + "/../../examples", "", suffix: ".conf", prefix: "example-")
        for (name, dropIns) in [("dropins", ["10-site.conf", "20-local.conf"]), ("duplicate-pattern", ["50-door.conf"])] {
            let files = ["\(config)/\(name)/gridlock.conf"] + dropIns.map { "\(config)/\(name)/gridlock.conf.d/\($0)" }
            let contents = files.compactMap(FixtureFiles.read)
            guard contents.count == files.count else { continue }
            seeds.append(FuzzSeed(name, Array(contents.joined(separator: separator))))
        }
        return seeds
    }
}

/// A folder for the targets that need files: one per process, made on first use in
/// /dev/shm (a tmpfs, so the writes cost no disk) or /tmp, used by one input at a time.
/// `gridlock-fuzz` removes it when it exits, the regression test when it ends.
public enum FuzzScratch {
    private static let state = Mutex<String?>(nil)

    static func withDirectory<T>(_ body: (String) throws(FuzzFinding) -> T) throws(FuzzFinding) -> T {
        try state.withLock { directory throws(FuzzFinding) in
            if directory == nil {
                let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
                var template = Array("\(base)/gridlock-fuzz-XXXXXX".utf8CString)
                // Not a finding: the harness itself cannot run.
                guard let made = mkdtemp(&template) else { fatalError("cannot make a scratch folder in \(base)") }
                let path = String(cString: made)
                guard mkdir(path + "/gridlock.conf.d", 0o700) == 0 else { fatalError("cannot make \(path)/gridlock.conf.d") }
                directory = path
            }
            return try body(directory!)
        }
    }

    /// Removes the folder and everything in it.
    public static func removeAll() {
        state.withLock { directory in
            if let path = directory { Directory.removeTree(path) }
            directory = nil
        }
    }

    /// Plain write, no fsync: the file only has to be there for the next read.
    static func write(_ bytes: ArraySlice<UInt8>, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fatalError("cannot write \(path): errno \(errno)") }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { fatalError("short write to \(path)") }
    }
}
