import GridlockCore
import LinuxSys
import Testing
@testable import GridlockDaemon

/// What gridlockd does with the processes it is handed as child subreaper, on a process
/// table the test plays and a clock it sets: who is signalled, in which order, and who
/// is reaped. (A real table would put the test runner's other children in play.)
@Suite struct StrayProcessesTests {
    final class Table {
        struct Process {
            var group: Int32
            var name: String
            /// Set once it has ended: then a zombie until reaped.
            var status: LinuxSys.ExitStatus?
        }

        var processes: [Int32: Process] = [:]
        /// Groups a supervisor answers for, as long as anything is in them (a zombie too,
        /// as `kill(-group, 0)` tells), with the supervisor's next deadline for each.
        var owned: [Int32] = []
        var ownedUntil: [Int32: Instant] = [:]
        var signals: [String] = []
        var reaped: [Int32] = []
        var journal: [String] = []
        var now = Instant.seconds(1_000)

        func add(_ pid: Int32, group: Int32? = nil, name: String = "sleep") {
            processes[pid] = Process(group: group ?? pid, name: name)
        }

        func end(_ pid: Int32, _ status: LinuxSys.ExitStatus = .signaled(15)) { processes[pid]?.status = status }

        var system: StrayProcesses.System {
            StrayProcesses.System(
                children: { [unowned self] in processes.keys.sorted() },
                processGroup: { [unowned self] in processes[$0]?.group },
                name: { [unowned self] in processes[$0]?.name },
                reap: { [unowned self] pid in
                    guard let process = processes[pid] else { return .notAChild }
                    guard let status = process.status else { return .running }
                    processes[pid] = nil
                    reaped.append(pid)
                    return .ended(status)
                },
                signal: { [unowned self] pid, signal in signals.append("\(signal) \(pid)") })
        }

        func strays(on loop: EventLoop) -> StrayProcesses {
            StrayProcesses(
                loop: loop, killGrace: .seconds(2), system: system, clock: { [unowned self] in now },
                ownedGroups: { [unowned self] in
                    owned.filter { group in processes.values.contains { $0.group == group } }
                        .map { OwnedProcessGroup(id: $0, nextDeadline: ownedUntil[$0]) }
                },
                journal: { [unowned self] _, message, _ in journal.append(message) })
        }
    }

    @Test("a process that left its group is stopped once nothing of the supervisors runs: SIGTERM, SIGKILL when the grace has passed, reaped")
    func strayIsStoppedOnceNothingRuns() throws {
        let table = Table()
        // A hook (100) still runs; it left 101 in its group and 500 in a session of its own.
        table.add(100, name: "sh")
        table.add(101, group: 100)
        table.owned = [100]
        table.add(500)
        let strays = table.strays(on: try EventLoop())
        strays.childExited()
        #expect(table.signals == [])
        #expect(strays.nextDeadline == nil)

        // The hook ended (its supervisor reaped it); 101 waits for the hook's timeout.
        table.processes[100] = nil
        strays.childExited()
        #expect(table.signals == [])
        // 101 is killed with its group at the timeout and reaped here: the group is empty now.
        table.now = table.now + .seconds(10)
        let found = table.now
        table.end(101, .signaled(9))
        strays.childExited()
        #expect(table.reaped == [101])
        #expect(table.signals == ["SIGTERM 500"])
        #expect(strays.nextDeadline == found + .seconds(2))
        strays.handleDeadlines(now: found + (.seconds(2) - .nanoseconds(1)))
        #expect(table.signals == ["SIGTERM 500"])
        strays.handleDeadlines(now: found + .seconds(2))
        #expect(table.signals == ["SIGTERM 500", "SIGKILL 500"])

        table.end(500, .signaled(9))
        strays.childExited()
        #expect(table.reaped == [101, 500])
        #expect(strays.isQuiet)
        #expect(table.journal == [
            "process 500 (sleep) left the process group of the program that started it; it is stopped once nothing gridlockd started runs",
            "process 500 (sleep) left the process group of the program that started it: SIGTERM sent",
            "process 500 (sleep) still ran 2 s after SIGTERM: SIGKILL sent",
            "process 500 (sleep) that left its process group ended: killed by signal 9 (SIGKILL)",
        ])
    }

    @Test("a leftover that leaves its group without a signal to anyone is looked for again just after that group's deadline")
    func leftoverLeavingItsGroupIsFoundAtTheGroupsDeadline() throws {
        let table = Table()
        // The hook (100) has ended and was reaped; 101, left in its group, waits for its timeout.
        table.add(101, group: 100)
        table.owned = [100]
        let timeout = table.now + .seconds(10)
        table.ownedUntil[100] = timeout
        let strays = table.strays(on: try EventLoop())
        strays.childExited()
        #expect(table.signals == [])
        #expect(strays.nextDeadline == timeout + .milliseconds(1))
        // 101 calls setsid(): the group is empty, and at its timeout the supervisor lets it go.
        table.processes[101]?.group = 101
        table.owned = []
        strays.handleDeadlines(now: timeout + .milliseconds(1))
        #expect(table.signals == ["SIGTERM 101"])
        #expect(strays.nextDeadline == timeout + .milliseconds(1) + .seconds(2))
    }

    @Test("stopping: a stray is stopped at once, even while a hook still runs")
    func stoppingStopsStraysWhateverRuns() throws {
        let table = Table()
        table.add(100, name: "sh")
        table.owned = [100]
        table.add(500)
        let strays = table.strays(on: try EventLoop())
        strays.childExited()
        #expect(table.signals == [])
        strays.stopAll()
        #expect(table.signals == ["SIGTERM 500"])
        #expect(strays.nextDeadline == table.now + .seconds(2))
    }

    @Test("adopted zombies are reaped even in a group a supervisor answers for; the program it started is left to it")
    func zombiesAreReapedButNotTheSupervisorsOwn() throws {
        let table = Table()
        table.add(100, name: "sh")
        table.add(101, group: 100)
        table.owned = [100]
        let strays = table.strays(on: try EventLoop())
        table.end(100, .exited(0))
        table.end(101)
        strays.childExited()
        #expect(table.reaped == [101])
        #expect(table.signals == [])
        #expect(table.journal == [])
    }

    @Test("stopping: strays get SIGTERM first; once nothing of the supervisors runs and the grace has passed, a newly found one gets SIGKILL at once")
    func stoppingEndsWithSIGKILL() throws {
        let table = Table()
        table.add(500)
        let strays = table.strays(on: try EventLoop())
        let stop = table.now
        strays.stopAll()
        #expect(table.signals == ["SIGTERM 500"])
        #expect(!strays.isQuiet)

        table.now = stop + .seconds(2)
        strays.handleDeadlines(now: table.now)
        // 500 ignored SIGTERM; killed now, its child 600 is handed over as it dies.
        table.end(500, .signaled(9))
        table.add(600)
        strays.childExited()
        #expect(table.signals == ["SIGTERM 500", "SIGKILL 500", "SIGKILL 600"])
        #expect(!strays.isQuiet)
        table.end(600, .signaled(9))
        #expect(strays.isQuiet)
        #expect(table.reaped == [500, 600])
    }

    @Test("a process that outlives even SIGKILL is given up a grace later, so the daemon still stops")
    func unkillableIsGivenUp() throws {
        let table = Table()
        table.add(700, name: "stuck")
        let strays = table.strays(on: try EventLoop())
        let found = table.now
        strays.stopAll()
        strays.handleDeadlines(now: found + .seconds(2))
        #expect(!strays.isQuiet)
        #expect(strays.nextDeadline == found + .seconds(4))
        strays.handleDeadlines(now: found + .seconds(4))
        #expect(strays.isQuiet)
        #expect(strays.nextDeadline == nil)
        #expect(table.signals == ["SIGTERM 700", "SIGKILL 700"])
        #expect(table.journal.last == "process 700 (stuck) did not end after SIGKILL (stuck in the kernel?); no longer waiting for it")
        // Should it end after all, it is still reaped.
        table.end(700, .signaled(9))
        strays.childExited()
        #expect(table.reaped == [700])
    }
}
