import GridlockCore
import LinuxSys

/// The processes gridlockd became the parent of without starting them. As child subreaper
/// it adopts the orphans among its descendants: what a hook or an action started in a
/// session or process group of its own (`setsid -f`, a tool that daemonises) before it
/// ended. The signal to the program's process group at its timeout cannot reach those.
/// Which program started one cannot be told any more, so a stray is stopped (SIGTERM,
/// then SIGKILL after the grace) once nothing the supervisors answer for runs (a session
/// in handover mode keeps the helpers it daemonised while it runs), and when the daemon
/// stops. Every adopted process that ends is reaped here: nobody else would, and a zombie
/// in a group would also keep that group looking occupied.
///
/// Left alone: the programs the supervisors started (theirs to reap), and members of a
/// process group a supervisor still answers for (stopped with their group at its timeout).
/// Looked for at each SIGCHLD (the end of one of its children, which is also when most
/// orphans are handed to it, and when a program ends), while the daemon stops at each
/// turn of the loop, and, while something waits on a group that is answered for (a
/// leftover may leave it without a signal to anyone), again just after that group's next
/// deadline.
public final class StrayProcesses {
    /// The system calls it makes, so that a test can play the process table.
    public struct System {
        public var children: () -> [Int32]
        public var processGroup: (Int32) -> Int32?
        public var name: (Int32) -> String?
        public var reap: (Int32) -> ChildProcesses.State
        public var signal: (Int32, Signal) -> Void

        public init(
            children: @escaping () -> [Int32], processGroup: @escaping (Int32) -> Int32?,
            name: @escaping (Int32) -> String?, reap: @escaping (Int32) -> ChildProcesses.State,
            signal: @escaping (Int32, Signal) -> Void
        ) {
            self.children = children
            self.processGroup = processGroup
            self.name = name
            self.reap = reap
            self.signal = signal
        }

        /// This process's own children, signalled by pid (never a group: a stray's group
        /// may hold processes that are not ours).
        public static var live: System {
            System(
                children: ChildProcesses.list, processGroup: ChildProcesses.processGroup(of:),
                name: ChildProcesses.commandName(of:), reap: ChildProcesses.reapIfEnded(_:),
                signal: { pid, signal in signal.send(to: pid) })
        }
    }

    private struct Stray {
        var name: String
        var phase: Phase
    }

    private enum Phase {
        /// Found while something the supervisors answer for runs: not signalled yet.
        case adopted
        case terminated(killAt: Instant)
        case killed(giveUpAt: Instant)
        /// It did not end after SIGKILL (stuck in the kernel): no longer waited for.
        case givenUp

        var due: Instant? {
            switch self {
            case .terminated(let at), .killed(let at): at
            case .adopted, .givenUp: nil
            }
        }
    }

    private let killGrace: Duration
    private let system: System
    private let clock: () -> Instant
    private let ownedGroups: () -> [OwnedProcessGroup]
    private let journal: (LogPriority, String, JournalFields) -> Void
    private var strays: [Int32: Stray] = [:]
    private var stoppingSince: Instant?
    /// When to look again without a signal: just after the next deadline of a group that
    /// something waits on.
    private var lookAgainAt: Instant?
    private var deadline: EventLoop.Deadline!

    /// `ownedGroups` are the process groups the supervisors answer for (each led by a
    /// program they started and reap). `clock` is CLOCK_MONOTONIC, the loop's.
    public init(
        loop: EventLoop, killGrace: Duration = RunningAction.defaultKillGrace, system: System = .live,
        clock: (() -> Instant)? = nil, ownedGroups: @escaping () -> [OwnedProcessGroup],
        journal: @escaping (LogPriority, String, JournalFields) -> Void = { Journal.log($0, $1, $2) }
    ) {
        self.killGrace = killGrace
        self.system = system
        self.clock = clock ?? { [loop] in loop.now() }
        self.ownedGroups = ownedGroups
        self.journal = journal
        deadline = loop.deadline("stray processes", clock: .real) { [unowned self] now in handleDeadlines(now: now) }
    }

    /// SIGCHLD, once the supervisors have reaped their own children.
    public func childExited() { sweep(now: clock()) }

    /// The daemon stops: every stray is stopped now, whatever still runs, and so is any
    /// found later. Once nothing a supervisor answers for runs and the grace since the stop
    /// has passed, one found then (a descendant of something already killed) gets SIGKILL
    /// at once.
    public func stopAll() {
        stoppingSince = stoppingSince ?? clock()
        sweep(now: clock())
    }

    /// No stray is left to stop or to reap. Looks again first: an orphan is handed over
    /// without a signal when its parent was not gridlockd's child.
    public var isQuiet: Bool {
        sweep(now: clock())
        return strays.values.allSatisfy { if case .givenUp = $0.phase { true } else { false } }
    }

    /// When the loop next calls `handleDeadlines`.
    var nextDeadline: Instant? { deadline.due }

    /// Reaps every adopted process that ended, and stops the strays when it is time.
    func sweep(now: Instant) {
        let leaders = Set(ownedGroups().map(\.id))
        var alive: [Int32] = []
        // Strays too: should /proc say nothing, the ones known are still reaped.
        for pid in Set(system.children()).union(strays.keys).sorted() where pid > 0 && !leaders.contains(pid) {
            switch system.reap(pid) {
            case .ended(let status):
                if let stray = strays.removeValue(forKey: pid) {
                    log(.info, "process \(pid) (\(stray.name)) that left its process group ended: \(status)")
                }
            case .notAChild:
                strays[pid] = nil
            case .running:
                alive.append(pid)
            }
        }
        // Asked again: a group whose last member was reaped just now is no longer occupied.
        let ownedNow = ownedGroups()
        let owned = Set(ownedNow.map(\.id))
        let stopNow = stoppingSince != nil || owned.isEmpty
        var waiting = false
        for pid in alive {
            if let stray = strays[pid] {
                if case .adopted = stray.phase {
                    if stopNow { stop(pid, stray.name, now: now, owned: owned) } else { waiting = true }
                }
                continue
            }
            guard let group = system.processGroup(pid) else { continue }
            guard !owned.contains(group) else {
                waiting = true
                continue
            }
            let name = system.name(pid) ?? "?"
            if stopNow {
                stop(pid, name, now: now, owned: owned)
            } else {
                strays[pid] = Stray(name: name, phase: .adopted)
                waiting = true
                log(.info, "process \(pid) (\(name)) left the process group of the program that started it; it is stopped once nothing gridlockd started runs")
            }
        }
        // A millisecond after the supervisor acted on it; never in the past (no loop in one round).
        lookAgainAt = waiting ? ownedNow.compactMap(\.nextDeadline).min().map { $0 + .milliseconds(1) }.flatMap { $0 > now ? $0 : nil } : nil
        rearm()
    }

    private func stop(_ pid: Int32, _ name: String, now: Instant, owned: Set<Int32>) {
        if let since = stoppingSince, owned.isEmpty, now >= since + killGrace {
            system.signal(pid, .kill)
            strays[pid] = Stray(name: name, phase: .killed(giveUpAt: now + killGrace))
            log(.notice, "process \(pid) (\(name)) left the process group of the program that started it, and gridlockd is stopping: SIGKILL sent")
        } else {
            system.signal(pid, .terminate)
            strays[pid] = Stray(name: name, phase: .terminated(killAt: now + killGrace))
            log(.notice, "process \(pid) (\(name)) left the process group of the program that started it: SIGTERM sent")
        }
    }

    /// The loop's `stray processes` deadline: SIGKILL once the grace after SIGTERM has
    /// passed; giving up on one that outlives SIGKILL by as long again.
    func handleDeadlines(now: Instant) {
        for (pid, stray) in strays.sorted(by: { $0.key < $1.key }) {
            guard let due = stray.phase.due, now >= due else { continue }
            if case .terminated = stray.phase {
                system.signal(pid, .kill)
                strays[pid]?.phase = .killed(giveUpAt: now + killGrace)
                log(.warning, "process \(pid) (\(stray.name)) still ran \(Self.spoken(killGrace)) after SIGTERM: SIGKILL sent")
            } else {
                strays[pid]?.phase = .givenUp
                log(.error, "process \(pid) (\(stray.name)) did not end after SIGKILL (stuck in the kernel?); no longer waiting for it")
            }
        }
        if let lookAgainAt, now >= lookAgainAt {
            self.lookAgainAt = nil
            sweep(now: now)
        } else {
            rearm()
        }
    }

    /// `2 s`, or `200 ms` for a grace shorter than a second.
    static func spoken(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    private func rearm() {
        deadline.due = (strays.values.compactMap(\.phase.due) + [lookAgainAt].compactMap { $0 }).min()
    }

    private func log(_ priority: LogPriority, _ message: String) {
        journal(priority, message, JournalFields(messageID: JournalCatalog.action, fields: ["GRIDLOCK_EVENT": "stray-process"]))
    }
}
