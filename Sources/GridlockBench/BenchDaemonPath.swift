/// Where `gridlock bench` looks for the gridlockd it starts: beside gridlock (a build
/// folder, `.build/release`), then in the `sbin` folder beside gridlock's `bin` folder (an
/// installed system: `/usr/bin/gridlock` and `/usr/sbin/gridlockd`).
public enum BenchDaemonPath {
    public static func candidates(besides executable: String) -> [String] {
        var folder = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        var found = [(folder + ["gridlockd"]).joined(separator: "/")]
        if folder.last == "bin" {
            folder.removeLast()
            found.append((folder + ["sbin", "gridlockd"]).joined(separator: "/"))
        }
        return found
    }
}
