import LinuxSys

/// A journal line said once per stretch of the same trouble (no display, no DPMS, a frame
/// of the wrong size): a kiosk that waits hours for a panel must not fill the journal
/// with the same sentence per frame or per uevent. `reset()` when the trouble is over,
/// so that the next time it comes it is said again.
struct OnceLog {
    private(set) var said = false

    mutating func say(_ level: LogPriority, _ message: @autoclosure () -> String) {
        guard !said else { return }
        said = true
        Journal.log(level, message())
    }

    mutating func reset() { said = false }
}
