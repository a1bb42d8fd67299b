import Foundation
import Glibc
import LinuxSys
import Testing

@Suite struct SpawnedProcessTests {
    @Test("exit status is reported") func exitStatusIsReported() throws {
        let zero = try SpawnedProcess.spawn(argv: ["/bin/true"], environment: [])
        #expect(try runToEnd(zero).status == .exited(0))
        let three = try SpawnedProcess.spawn(argv: ["/bin/sh", "-c", "exit 3"], environment: [])
        #expect(try runToEnd(three).status == .exited(3))
    }

    /// The pidfd wakes a poller when the child exits, even while a grandchild keeps the
    /// output pipe open and whichever thread receives SIGCHLD.
    @Test("exit descriptor becomes readable when the child exits") func exitDescriptorBecomesReadableWhenTheChildExits() throws {
        let process = try SpawnedProcess.spawn(argv: ["/bin/sh", "-c", "/bin/sleep 3 & exit 0"], environment: [])
        let exitFD = try #require(process.exitFD)
        let poller = try EventPoller()
        try poller.add(exitFD, token: 7)
        let ready = try poller.wait(timeoutMilliseconds: 2_000)
        #expect(ready.map(\.token) == [7])
        #expect(try process.tryWait() == .exited(0))
        #expect(!process.outputEnded)
        try process.signalGroup(.kill)
    }

    /// What `gridlock bench` reads: the status, the output and wait4's figures (a shell
    /// that spins a while). The peak RSS cannot be checked against the child's own use:
    /// wait4 reports at least this test process's peak (see `waitForExit`'s caller).
    @Test("wait for exit reports status output and usage") func waitForExitReportsStatusOutputAndUsage() throws {
        let process = try SpawnedProcess.spawn(
            argv: ["/bin/sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo done; exit 4"], environment: [])
        let (status, usage, output) = try process.waitForExit()
        #expect(status == .exited(4))
        #expect(String(decoding: output, as: UTF8.self) == "done\n")
        #expect(usage.maximumResidentKiB > 0)
        #expect(usage.cpuNanoseconds > 0)
        #expect(process.exitStatus == .exited(4))
    }

    @Test("death by signal is reported") func deathBySignalIsReported() throws {
        let process = try SpawnedProcess.spawn(argv: ["/bin/sh", "-c", "kill -9 $$"], environment: [])
        let status = try runToEnd(process).status
        #expect(status == .signaled(SIGKILL))
        #expect(status.description == "killed by signal 9 (SIGKILL)")
    }

    @Test("stdout and stderr are captured together") func stdoutAndStderrAreCapturedTogether() throws {
        let process = try SpawnedProcess.spawn(
            argv: ["/bin/sh", "-c", "echo out; echo err >&2; echo again"], environment: [])
        #expect(try runToEnd(process).output == "out\nerr\nagain\n")
    }

    @Test("stdin is dev null") func stdinIsDevNull() throws {
        let process = try SpawnedProcess.spawn(argv: ["/bin/cat"], environment: [])
        let result = try runToEnd(process)
        #expect(result.status == .exited(0))
        #expect(result.output == "")
    }

    @Test("argv is passed verbatim without a shell") func argvIsPassedVerbatimWithoutAShell() throws {
        let process = try SpawnedProcess.spawn(argv: ["/bin/echo", "$(id)", ";", "*", "`id`"], environment: [])
        #expect(try runToEnd(process).output == "$(id) ; * `id`\n")
    }

    @Test("environment is exactly what was given") func environmentIsExactlyWhatWasGiven() throws {
        let process = try SpawnedProcess.spawn(argv: ["/usr/bin/env"], environment: ["A=1", "B=two words"])
        #expect(try runToEnd(process).output == "A=1\nB=two words\n")
    }

    @Test("missing program error names the path") func missingProgramErrorNamesThePath() throws {
        let error = expectError(SystemCallError.self) {
            _ = try SpawnedProcess.spawn(argv: ["/nonexistent/unlock-door", "now"], environment: [])
        }
        #expect(error?.errno == .noSuchFile)
        #expect(error?.path == "/nonexistent/unlock-door")
        #expect(error?.description.contains("/nonexistent/unlock-door") == true)
    }

    @Test("non executable program is permission denied") func nonExecutableProgramIsPermissionDenied() throws {
        let error = expectError(SystemCallError.self) {
            _ = try SpawnedProcess.spawn(argv: ["/etc/passwd"], environment: [])
        }
        #expect(error?.errno == .permissionDenied)
        #expect(error?.path == "/etc/passwd")
    }

    @Test("child leads its own process group") func childLeadsItsOwnProcessGroup() throws {
        let process = try SpawnedProcess.spawn(argv: ["/bin/sleep", "5"], environment: [])
        #expect(getpgid(process.pid) == process.pid)
        #expect(getpgid(0) != process.pid)
        try process.signalGroup(.kill)
        #expect(try runToEnd(process).status == .signaled(SIGKILL))
    }

    @Test("signalling the group kills a grandchild") func signallingTheGroupKillsAGrandchild() throws {
        let process = try SpawnedProcess.spawn(
            argv: ["/bin/sh", "-c", "sleep 100 & echo $!; wait"], environment: ["PATH=/usr/bin:/bin"])
        let poller = try EventPoller()
        try poller.add(process.outputFD, token: 1)
        var output = ""
        while !output.contains("\n") && !process.outputEnded {
            _ = try poller.wait(timeoutMilliseconds: 5000)
            output += String(decoding: try process.readOutput(maximumBytes: SpawnedProcess.pipeCapacity), as: UTF8.self)
        }
        let grandchild = try #require(pid_t(output.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(processState(grandchild) != nil)
        try poller.remove(process.outputFD)

        try process.signalGroup(.kill)
        #expect(try runToEnd(process).status == .signaled(SIGKILL))

        // Reparented to init (or a subreaper) once its parent dies: gone, or a zombie
        // until that reaper gets to it. Either way it is no longer running.
        var state = processState(grandchild)
        for _ in 0..<200 where state != nil && state != "Z" {
            usleep(10_000)
            state = processState(grandchild)
        }
        #expect(state == nil || state == "Z")
    }

    /// A loop turns after each read, however much the program wrote.
    @Test("one read takes at most what was asked and the rest waits") func oneReadTakesAtMostWhatWasAskedAndTheRestWaits() throws {
        let process = try SpawnedProcess.spawn(argv: ["/usr/bin/printf", "12345"], environment: [])
        let poller = try EventPoller()
        try #require(process.exitFD.map { try poller.add($0, token: 1) } != nil)
        _ = try poller.wait(timeoutMilliseconds: 5_000)
        #expect(try process.tryWait() == .exited(0))
        #expect(process.outputWaiting == 5)
        #expect(try process.readOutput(maximumBytes: 2) == Array("12".utf8))
        #expect(process.outputWaiting == 3)
        #expect(try process.readOutput(maximumBytes: 4096) == Array("345".utf8))
        #expect(!process.outputEnded)
        // EOF once every copy of the write end is closed (another test's spawn may hold one a moment).
        let output = try EventPoller()
        try output.add(process.outputFD, token: 2)
        while !process.outputEnded, try output.wait(timeoutMilliseconds: 5_000).contains(where: { $0.token == 2 }) {
            #expect(try process.readOutput(maximumBytes: 4096) == [])
        }
        #expect(process.outputEnded)
        #expect(process.outputWaiting == 0)
    }

    @Test("signalling a group that is gone is not an error") func signallingAGroupThatIsGoneIsNotAnError() throws {
        let process = try SpawnedProcess.spawn(argv: ["/bin/true"], environment: [])
        _ = try runToEnd(process)
        try process.signalGroup(.terminate)
    }

    /// The daemon blocks its signals for the signalfd; a child inheriting that mask
    /// could not be stopped with SIGTERM. Synchronous, so the mask change stays on
    /// this thread and is undone before the thread runs anything else.
    @Test("child signal mask is empty even when the parent blocks signals") func childSignalMaskIsEmptyEvenWhenTheParentBlocksSignals() throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGCHLD)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }

        let ownStatus = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
        #expect(!ownStatus.contains("SigBlk:\t0000000000000000"), "the parent must really block signals")

        let process = try SpawnedProcess.spawn(argv: ["/bin/grep", "SigBlk", "/proc/self/status"], environment: [])
        #expect(try runToEnd(process).output == "SigBlk:\t0000000000000000\n")
    }

    @Test("nul in an argument is rejected") func nulInAnArgumentIsRejected() throws {
        #expect(throws: SystemCallError.self) {
            _ = try SpawnedProcess.spawn(argv: ["/bin/echo", "a\u{0}b"], environment: [])
        }
    }

    @Test("exit status decoding") func exitStatusDecoding() {
        #expect(ExitStatus(waitStatus: 0x0300) == .exited(3))
        #expect(ExitStatus(waitStatus: 0x000f) == .signaled(SIGTERM))
        #expect(ExitStatus(waitStatus: 0x008b) == .signaled(SIGSEGV))
        #expect(ExitStatus(waitStatus: 0x137f) == nil)
        #expect(ExitStatus.exited(3).description == "exited with status 3")
    }
}
