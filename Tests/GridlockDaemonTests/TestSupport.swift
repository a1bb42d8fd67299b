import Foundation
import Glibc
import LinuxSys

func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/gridlock-daemon-test-XXXXXX".utf8CString)
    guard let result = mkdtemp(&template) else { throw Errno.current }
    return String(cString: result)
}

func removeDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// "R", "S", "Z"... from /proc/<pid>/stat, or nil once the process is gone entirely.
func processState(_ pid: pid_t) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
}

/// Waits up to two seconds for a process to stop running; a zombie counts as stopped
/// because reaping an orphan is init's job, not ours.
func waitUntilNotRunning(_ pid: pid_t) -> String? {
    var state = processState(pid)
    for _ in 0..<200 where state != nil && state != "Z" {
        usleep(10_000)
        state = processState(pid)
    }
    return state
}

/// Makes an empty file at `path` (0600); whether it could.
func createEmptyFile(_ path: String) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    close(fd)
    return true
}

/// Whether anything is at `path`.
func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }
