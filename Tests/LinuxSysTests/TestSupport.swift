import Foundation
import Glibc
import GridlockCore
import LinuxSys

/// A fresh directory under /tmp, removed by the caller with `removeDirectory`.
func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/gridlock-test-XXXXXX".utf8CString)
    guard let result = mkdtemp(&template) else { throw Errno.current }
    return String(cString: result)
}

func removeDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Runs a spawned process to completion with a small blocking poll loop, the way the
/// daemon's loop will: output is read when the poller says so, the child is reaped by
/// polling (the tests have no signalfd for SIGCHLD).
func runToEnd(_ process: SpawnedProcess, timeoutSeconds: Int64 = 10) throws -> (status: ExitStatus, output: String) {
    let poller = try EventPoller()
    try poller.add(process.outputFD, token: 1)
    var output: [UInt8] = []
    let deadline = MonotonicClock.now() + .seconds(timeoutSeconds)
    var status: ExitStatus?
    while status == nil || !process.outputEnded {
        if MonotonicClock.now() > deadline { throw TimedOut(what: "pid \(process.pid)") }
        if !process.outputEnded {
            _ = try poller.wait(timeoutMilliseconds: 20)
            output += try process.readOutput(maximumBytes: SpawnedProcess.pipeCapacity)
            if process.outputEnded { try poller.remove(process.outputFD) }
        } else {
            usleep(5_000)
        }
        if status == nil { status = try process.tryWait() }
    }
    return (status!, String(decoding: output, as: UTF8.self))
}

/// "R", "S", "Z"... from /proc/<pid>/stat, or nil once the process is gone entirely.
func processState(_ pid: pid_t) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
}
