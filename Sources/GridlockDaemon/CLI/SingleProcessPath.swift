/// Where gridlockd-single is, for gridlockd, which runs it in its place, and for
/// `gridlock bench`, which starts it: beside the asking program (a build folder,
/// `.build/release`), then in `libexec/gridlock` beside the `bin` or `sbin` folder it is
/// installed in (`/usr/sbin/gridlockd`, `/usr/bin/gridlock` and
/// `/usr/libexec/gridlock/gridlockd-single`).
public enum SingleProcessPath {
    public static func candidates(besides executable: String) -> [String] {
        var folder = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        var found = [(folder + ["gridlockd-single"]).joined(separator: "/")]
        if folder.last == "bin" || folder.last == "sbin" {
            folder.removeLast()
            found.append((folder + ["libexec", "gridlock", "gridlockd-single"]).joined(separator: "/"))
        }
        return found
    }
}
