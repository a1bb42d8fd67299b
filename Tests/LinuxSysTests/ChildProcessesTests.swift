import Glibc
import Testing
@testable import LinuxSys

/// This process as a parent, on real children. (Becoming a subreaper is left to the
/// end-to-end checks: here it would hand the test runner every other test's orphans.)
@Suite struct ChildProcessesTests {
    /// Blocks until the child `pid` has ended, leaving it unreaped (WNOWAIT): a zombie.
    /// No polling and no time limit: the wait ends exactly when the child does.
    func waitUntilEnded(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { return false }
        }
        return processState(pid) == "Z"
    }

    @Test("children are listed, an ended one not yet reaped included, whichever way /proc is read")
    func childrenAreListed() throws {
        let running = try SpawnedProcess.spawn(argv: ["/bin/sleep", "100"], environment: [])
        let ended = try SpawnedProcess.spawn(argv: ["/bin/true"], environment: [])
        #expect(waitUntilEnded(ended.pid))
        for listed in [ChildProcesses.list(), ChildProcesses.fromStatFiles()] {
            #expect(listed.contains(running.pid))
            #expect(listed.contains(ended.pid))
        }
        #expect(ChildProcesses.processGroup(of: running.pid) == running.pid)
        #expect(ChildProcesses.commandName(of: running.pid) == "sleep")

        #expect(ChildProcesses.reapIfEnded(running.pid) == .running)
        #expect(ChildProcesses.reapIfEnded(ended.pid) == .ended(.exited(0)))
        #expect(ChildProcesses.reapIfEnded(ended.pid) == .notAChild)
        #expect(!ChildProcesses.list().contains(ended.pid))
        #expect(ChildProcesses.reapIfEnded(1) == .notAChild)
        try running.signalGroup(.kill)
        #expect(try runToEnd(running).status == .signaled(SIGKILL))
    }

    @Test("the parent field of /proc/PID/stat is found after the command name, whatever the name holds")
    func parentFieldAfterAnAwkwardName() {
        #expect(ChildProcesses.parentField(ofStat: Array("4242 (a) b (c) S 17 4242 4242 0 -1".utf8)) == 17)
        #expect(ChildProcesses.parentField(ofStat: Array("4242 (sleep) S 1 4242".utf8)) == 1)
        #expect(ChildProcesses.parentField(ofStat: Array("garbage".utf8)) == nil)
    }
}
