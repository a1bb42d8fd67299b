/// Where `gridlock bench` looks for the daemon it starts: gridlockd-single, the daemon that
/// draws in its own process (what `gridlockd` runs in its place for a benchmark), beside
/// gridlock (a build folder, `.build/release`), then in `libexec/gridlock` beside
/// gridlock's `bin` folder (an installed system: `/usr/bin/gridlock` and
/// `/usr/libexec/gridlock/gridlockd-single`). Started directly, so that its start-up is
/// measured without gridlockd's own first reading of the configuration.
public enum BenchDaemonPath {
    public static func candidates(besides executable: String) -> [String] {
        var folder = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        var found = [(folder + ["gridlockd-single"]).joined(separator: "/")]
        if folder.last == "bin" {
            folder.removeLast()
            found.append((folder + ["libexec", "gridlock", "gridlockd-single"]).joined(separator: "/"))
        }
        return found
    }
}
