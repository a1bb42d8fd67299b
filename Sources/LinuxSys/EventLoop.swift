import GridlockCore

/// The one wait point of a gridlock program: epoll over the descriptors it was given,
/// one CLOCK_MONOTONIC timerfd for every deadline, and a signalfd. Nothing wakes it but
/// a ready descriptor, a due deadline or a signal; with none of them pending it sleeps
/// in the kernel with no timeout.
///
/// Not thread-safe: it belongs to the thread that runs it. Work for another thread goes
/// through `runInBackground(_:then:)`, whose results come back on the loop's thread
/// through the one eventfd the loop keeps for that. Handlers run on that thread, one at
/// a time, and may watch, unwatch and reschedule freely.
public final class EventLoop {
    /// A named moment at which a handler runs once; set `due` again to run it again.
    public final class Deadline {
        public let name: String
        public let clock: Clock
        public var due: Instant?
        fileprivate var fire: (Instant) -> Void

        fileprivate init(name: String, clock: Clock, fire: @escaping (Instant) -> Void) {
            self.name = name
            self.clock = clock
            self.fire = fire
        }

        /// Replaces the handler (for owners that can name themselves only after init).
        public func onFire(_ handler: @escaping (Instant) -> Void) { fire = handler }
    }

    /// Which time a deadline is judged by. The two are the same (`now`) unless the loop plays
    /// a recording's time (`playRecordedTime(from:)`, `gridlock replay`): then `.loop`
    /// deadlines (the lock screen's timers, the recording's next event) follow that time,
    /// which jumps ahead whenever the loop has nothing else to do, and `.real` ones (how long
    /// a real program may run) still follow `now`.
    public enum Clock: Sendable {
        case loop
        case real
    }

    private struct Watch {
        var descriptor: FileDescriptor
        var cause: String
        var handler: (EventPoller.Ready) -> Void
    }

    private let poller: EventPoller
    private let timer: TimerFD
    private var watches: [Int: Watch] = [:]
    private var tokens: [Int32: Int] = [:]
    private var nextToken = Token.firstWatch
    private var deadlines: [Deadline] = []
    private var armed: Instant?
    private let signals: SignalFD?
    /// Signalled by every background job that finished; see `runInBackground`.
    private let backgroundDone: EventFD
    /// Each job still running, as "hand the result over if there is one".
    private var backgroundJobs: [() -> Bool] = []
    /// Receives each signal of `init(signals:)`, in order with everything else.
    public var signalHandler: (Signal) -> Void = { _ in }
    /// The time deadlines are judged by, and that owners of watches read for their
    /// handlers; tests script it to fire deadlines at chosen instants.
    public var now: () -> Instant = { MonotonicClock.now() }
    /// A recording's time, while the loop plays one; see `playRecordedTime(from:)`.
    private var recordedTime: Instant?
    /// While true, recorded time stands still (an action runs: it takes none of it).
    public var holdsRecordedTime: () -> Bool = { false }
    /// Every return from the kernel, counted by what caused it (see `WakeUps`).
    public private(set) var wakeUps = WakeUps()

    private enum Token {
        static let timer = 1
        static let signals = 2
        static let background = 3
        static let firstWatch = 16
    }

    /// Blocks `signals` for this thread, and for threads it starts later: create the
    /// loop before starting any, or a signal may go to a thread that does not block it.
    public init(signals: [Signal] = []) throws(SystemCallError) {
        poller = try EventPoller()
        timer = try TimerFD()
        try poller.add(timer.fileDescriptor, token: Token.timer)
        backgroundDone = try EventFD()
        try poller.add(backgroundDone.fileDescriptor, token: Token.background)
        if signals.isEmpty {
            self.signals = nil
        } else {
            let descriptor = try SignalFD(signals: signals)
            try poller.add(descriptor.fileDescriptor, token: Token.signals)
            self.signals = descriptor
        }
    }

    /// One registration of a descriptor, for `unwatch(_:)` by whoever made it.
    public struct Watching: Hashable, Sendable {
        public let descriptor: FileDescriptor
        fileprivate let token: Int
    }

    /// Runs `handler` whenever `descriptor` is readable (or hung up). `cause` names it in
    /// the wake-up counts. The caller keeps the descriptor open until it unwatches it.
    ///
    /// A number that is still registered was closed without `unwatch` (a device that went
    /// away, noticed by its owner a little later): the kernel handed it out again, so the
    /// old registration is dead and this one takes its place. Its owner's later
    /// `unwatch(_ watching:)` then leaves the new one alone.
    @discardableResult
    public func watch(
        _ descriptor: FileDescriptor, as cause: String, _ handler: @escaping () -> Void
    ) throws(SystemCallError) -> Watching {
        try watchReadiness(descriptor, as: cause) { _ in handler() }
    }

    /// Like `watch(_:as:_:)`, for an owner that must also learn when the descriptor can be
    /// written again (a socket whose peer is slow to read): `handler` is told what was ready,
    /// and `setWritableInterest(_:_:)` starts and stops waiting for writability.
    @discardableResult
    public func watchReadiness(
        _ descriptor: FileDescriptor, as cause: String, _ handler: @escaping (EventPoller.Ready) -> Void
    ) throws(SystemCallError) -> Watching {
        if let stale = tokens.removeValue(forKey: descriptor.rawValue) {
            watches[stale] = nil
            // The kernel dropped the closed file from the epoll set; a dup of it may remain.
            try? poller.remove(descriptor)
        }
        let token = nextToken
        try poller.add(descriptor, token: token)
        nextToken += 1
        tokens[descriptor.rawValue] = token
        watches[token] = Watch(descriptor: descriptor, cause: cause, handler: handler)
        return Watching(descriptor: descriptor, token: token)
    }

    /// Wakes the loop (also) when the descriptor is writable, or no longer; only while
    /// it is needed, since a writable socket would otherwise wake every round.
    public func setWritableInterest(_ watching: Watching, _ wanted: Bool) throws(SystemCallError) {
        guard tokens[watching.descriptor.rawValue] == watching.token else { return }
        try poller.modify(watching.descriptor, token: watching.token, readable: true, writable: wanted)
    }

    /// Stops this registration, if it is still the descriptor's (see `watch`).
    public func unwatch(_ watching: Watching) {
        guard tokens[watching.descriptor.rawValue] == watching.token else { return }
        unwatch(watching.descriptor)
    }

    /// Stops watching; a descriptor that is not watched is ignored. Call it before
    /// closing the descriptor: its number may come back as another file.
    public func unwatch(_ descriptor: FileDescriptor) {
        guard let token = tokens.removeValue(forKey: descriptor.rawValue) else { return }
        watches[token] = nil
        try? poller.remove(descriptor)
    }

    public func isWatching(_ descriptor: FileDescriptor) -> Bool { tokens[descriptor.rawValue] != nil }

    /// A deadline with no due time yet; it fires once each time `due` is set and passes.
    /// Whatever bounds a real program (a timeout, a kill's grace) is on `.real`.
    public func deadline(
        _ name: String, clock: Clock = .loop, _ fire: @escaping (Instant) -> Void = { _ in }
    ) -> Deadline {
        let deadline = Deadline(name: name, clock: clock, fire: fire)
        deadlines.append(deadline)
        return deadline
    }

    /// The time `.loop` deadlines are judged by: `now`, or the recording's while one plays.
    public var time: Instant { recordedTime ?? now() }

    /// From here on `.loop` deadlines follow a recording's time, starting at `start`: when
    /// no descriptor is ready, no background work runs and `holdsRecordedTime` is false,
    /// that time jumps to the earliest `.loop` deadline instead of the loop waiting for it.
    /// So a recording plays as fast as the work it causes, with its own spacing kept: what
    /// `gridlock replay` needs to be the daemon on a recording. Real programs still run in
    /// real time, bounded by `.real` deadlines.
    public func playRecordedTime(from start: Instant) { recordedTime = start }

    /// Whether any deadline on `clock` is set.
    public func hasPendingDeadlines(on clock: Clock) -> Bool {
        deadlines.contains { $0.clock == clock && $0.due != nil }
    }

    /// Runs `work` on a thread of its own (slow work: an argon2 check, decoding an image),
    /// so the loop keeps drawing and reading touches meanwhile, and `done` with its result
    /// on the loop's thread, in a later round, in order with everything else. Every
    /// component hands work off this way: one eventfd for all of them, counted as one
    /// cause. A job whose loop is gone finishes and is dropped; nothing leaks.
    public func runInBackground<Value: Sendable>(
        _ work: @escaping @Sendable () -> Value, then done: @escaping (Value) -> Void
    ) throws(SystemCallError) {
        let job = try BackgroundJob.start(wakeup: backgroundDone, work)
        backgroundJobs.append {
            guard let value = job.take() else { return false }
            done(value)
            return true
        }
    }

    /// How many `runInBackground` jobs have not handed their result over yet.
    public var backgroundJobsRunning: Int { backgroundJobs.count }

    /// One signal may stand for several finished jobs, and a `done` may start another.
    private func collectBackgroundResults() {
        _ = try? backgroundDone.consume()
        let jobs = backgroundJobs
        backgroundJobs = []
        let running = jobs.filter { handOver in !handOver() }
        backgroundJobs = running + backgroundJobs
    }

    /// Waits once (arming the timer for the earliest deadline), then runs the handlers of
    /// what woke it and of every deadline that is due.
    public func runOnce() throws(SystemCallError) {
        try armTimer()
        let jumpTo = recordedTimeJump()
        let ready = try poller.wait(timeoutMilliseconds: jumpTo == nil ? nil : 0)
        var causes: [String] = []
        if ready.isEmpty, let jumpTo, let recorded = recordedTime {
            recordedTime = max(recorded, jumpTo)
            causes += fireDueDeadlines().map { "deadline \($0)" }
            wakeUps.count(causes)
            return
        }
        if ready.isEmpty { causes.append(WakeUps.interrupted) }
        for event in ready {
            switch event.token {
            case Token.timer:
                try timer.acknowledge()
                armed = nil
            case Token.background:
                causes.append(WakeUps.background)
                collectBackgroundResults()
            case Token.signals:
                for signal in try signals?.readSignals() ?? [] {
                    causes.append("signal \(signal)")
                    signalHandler(signal)
                }
            default:
                // An earlier handler of this round may have unwatched it.
                guard let watch = watches[event.token] else { continue }
                causes.append(watch.cause)
                watch.handler(event)
            }
        }
        let fired = fireDueDeadlines()
        if ready.contains(where: { $0.token == Token.timer }) {
            causes += fired.isEmpty ? [WakeUps.earlyTimer] : fired.map { "deadline \($0)" }
        }
        wakeUps.count(causes)
    }

    /// Runs rounds until `done` is true; `afterEach` runs after every round's handlers.
    public func run(until done: () -> Bool, afterEach: () -> Void = {}) throws(SystemCallError) {
        while !done() {
            try runOnce()
            afterEach()
        }
    }

    /// The recorded time to jump to when nothing else is ready, nil when the loop must wait
    /// (no recording plays, nothing is due on it, or it is held).
    private func recordedTimeJump() -> Instant? {
        guard recordedTime != nil, backgroundJobs.isEmpty, !holdsRecordedTime() else { return nil }
        return deadlines.filter { $0.clock == .loop }.compactMap(\.due).min()
    }

    /// Due deadlines in due order, each judged by its clock; each is cleared before its
    /// handler runs, so the handler may set it again.
    private func fireDueDeadlines() -> [String] {
        let now = self.now()
        let time = recordedTime ?? now
        func current(_ deadline: Deadline) -> Instant { deadline.clock == .loop ? time : now }
        var fired: [String] = []
        while let next = deadlines.filter({ deadline in deadline.due.map { $0 <= current(deadline) } ?? false })
            .min(by: { $0.due! < $1.due! })
        {
            next.due = nil
            fired.append(next.name)
            next.fire(current(next))
        }
        return fired
    }

    /// While a recording's time plays, only `.real` deadlines wait in the kernel.
    private func armTimer() throws(SystemCallError) {
        let earliest = deadlines.filter { recordedTime == nil || $0.clock == .real }.compactMap(\.due).min()
        guard earliest != armed else { return }
        if let earliest {
            try timer.arm(at: earliest)
        } else {
            try timer.disarm()
        }
        armed = earliest
    }
}

/// Why a loop woke up, counted, so a test (or `SIGUSR1` on the daemon) can tell a wake-up
/// caused by the world (a touch, a uevent) from one the program caused itself (a timer).
public struct WakeUps: Hashable, Sendable, CustomStringConvertible {
    /// The wait returned with nothing ready (a signal not routed through the signalfd).
    public static let interrupted = "interrupted"
    /// The timer fired but no deadline was due yet (it was moved later meanwhile).
    public static let earlyTimer = "timer with nothing due"
    /// Work handed to another thread with `runInBackground` finished.
    public static let background = "background work"

    public private(set) var total = 0
    public private(set) var byCause: [String: Int] = [:]

    public init() {}

    mutating func count(_ causes: [String]) {
        total += 1
        for cause in causes { byCause[cause, default: 0] += 1 }
    }

    /// `12 wake-ups: deadline blank 1, signal SIGUSR1 2, touch 9`, causes in name order.
    public var description: String {
        let causes = byCause.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return "\(total) wake-up\(total == 1 ? "" : "s")" + (causes.isEmpty ? "" : ": " + causes.joined(separator: ", "))
    }
}
