import Dispatch
import Glibc
import GridlockCore
import LinuxSys
import Testing

@Suite struct EventLoopTests {
    @Test("deadlines fire in due order, once each, and may be set again by their handler")
    func deadlinesFireInOrder() throws {
        let loop = try EventLoop()
        var fired: [String] = []
        let start = MonotonicClock.now()
        let late = loop.deadline("late") { _ in fired.append("late") }
        let early = loop.deadline("early") { _ in fired.append("early") }
        var repeats = 0
        let again = loop.deadline("again")
        again.onFire { now in
            repeats += 1
            fired.append("again")
            if repeats < 2 { again.due = now + .milliseconds(5) }
        }
        late.due = start + .milliseconds(60)
        early.due = start + .milliseconds(20)
        again.due = start + .milliseconds(30)
        try loop.run(until: { fired.count == 4 })
        #expect(fired == ["early", "again", "again", "late"])
        #expect(MonotonicClock.now() >= start + .milliseconds(60))
        #expect(late.due == nil && early.due == nil && again.due == nil)
        #expect(loop.wakeUps.byCause["deadline early"] == 1)
        #expect(loop.wakeUps.byCause["deadline again"] == 2)
    }

    @Test("a descriptor wakes the loop with its handler; unwatched, it no longer does")
    func descriptorsWakeTheLoop() throws {
        let loop = try EventLoop()
        let wakeup = try EventFD()
        var handled = 0
        try loop.watch(wakeup.fileDescriptor, as: "verifier") {
            _ = try? wakeup.consume()
            handled += 1
        }
        wakeup.signal()
        try loop.runOnce()
        #expect(handled == 1)
        #expect(loop.wakeUps.total == 1)
        #expect(loop.wakeUps.byCause == ["verifier": 1])
        #expect(loop.isWatching(wakeup.fileDescriptor))

        loop.unwatch(wakeup.fileDescriptor)
        wakeup.signal()
        var timedOut = false
        loop.deadline("limit") { _ in timedOut = true }.due = MonotonicClock.now() + .milliseconds(30)
        try loop.run(until: { timedOut })
        #expect(handled == 1)
        #expect(loop.wakeUps.description == "2 wake-ups: deadline limit 1, verifier 1")
    }

    @Test("writable interest wakes the loop for a writable descriptor only while it is set")
    func writableInterestWakesOnlyWhileSet() throws {
        let loop = try EventLoop()
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close(); pipe.write.close() }
        var seen: [EventPoller.Ready] = []
        let watching = try loop.watchReadiness(pipe.write, as: "socket") { seen.append($0) }
        var timedOut = false
        let limit = loop.deadline("limit") { _ in timedOut = true }
        limit.due = MonotonicClock.now() + .milliseconds(20)
        try loop.run(until: { timedOut })
        #expect(seen.isEmpty, "a pipe's write end is never readable: only writability could wake it")

        try loop.setWritableInterest(watching, true)
        try loop.runOnce()
        #expect(seen.map(\.writable) == [true])

        try loop.setWritableInterest(watching, false)
        timedOut = false
        limit.due = MonotonicClock.now() + .milliseconds(20)
        try loop.run(until: { timedOut })
        #expect(seen.count == 1)
    }

    @Test("a number closed without unwatch and handed out again: the new file is watched, the old owner's unwatch leaves it alone")
    func reusedDescriptorNumbersReplaceStaleRegistrations() throws {
        let loop = try EventLoop()
        let old = try FileDescriptor.pipe()
        let fresh = try FileDescriptor.pipe()
        defer { old.write.close(); fresh.write.close() }
        let number = old.read
        let stale = try loop.watch(number, as: "touch") { Issue.record("the closed file's handler ran") }
        // dup2 closes the old file and puts the new one at the same number in one step, as
        // close-then-open does in a single-threaded daemon; test threads opening files
        // meanwhile cannot take the number in between.
        try #require(dup2(fresh.read.rawValue, number.rawValue) == number.rawValue)
        fresh.read.close()
        defer { number.close() }
        _ = fcntl(number.rawValue, F_SETFD, FD_CLOEXEC)
        var handled = 0
        try loop.watch(number, as: "hook output") {
            var byte: UInt8 = 0
            _ = withUnsafeMutableBytes(of: &byte) { try? number.read(into: $0) }
            handled += 1
        }
        loop.unwatch(stale)  // the old owner catches up
        #expect(loop.isWatching(number))
        try fresh.write.writeAll([1])
        try loop.run(until: { handled == 1 })
        #expect(loop.wakeUps.byCause["hook output"] == 1 && loop.wakeUps.byCause["touch"] == nil)
    }

    @Test("a signal is read from the signalfd and handed over in order")
    func signalsArriveThroughTheLoop() throws {
        // The mask is per thread: leave this test thread as it was found.
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let loop = try EventLoop(signals: [.user2])
        var received: [Signal] = []
        loop.signalHandler = { received.append($0) }
        // To this thread only: other test threads do not block SIGUSR2.
        raise(SIGUSR2)
        try loop.run(until: { !received.isEmpty })
        #expect(received == [.user2])
        #expect(loop.wakeUps.byCause["signal SIGUSR2"] == 1)
    }

    @Test("a deadline moved later before it fired does not run early")
    func movedDeadlineWaits() throws {
        let loop = try EventLoop()
        var fired: Instant?
        let deadline = loop.deadline("moved") { fired = $0 }
        let start = MonotonicClock.now()
        deadline.due = start + .milliseconds(10)
        let wakeup = try EventFD()
        try loop.watch(wakeup.fileDescriptor, as: "nudge") {
            _ = try? wakeup.consume()
            deadline.due = start + .milliseconds(50)
        }
        wakeup.signal()
        try loop.run(until: { fired != nil })
        #expect(try #require(fired) >= start + .milliseconds(50))
    }

    @Test("background work hands each result to the loop's thread, in a later round, through the one cause")
    func backgroundResultsComeBackOnTheLoop() throws {
        let loop = try EventLoop()
        let gate = DispatchSemaphore(value: 0)
        var results: [String] = []
        // The first job waits until the second has been handed over: order of arrival, not of start.
        try loop.runInBackground({ () -> String in
            gate.wait()
            return "slow"
        }, then: { results.append($0) })
        try loop.runInBackground({ "quick" }, then: { value in
            results.append(value)
            gate.signal()
        })
        #expect(results.isEmpty, "nothing is handed over before the loop runs")
        #expect(loop.backgroundJobsRunning == 2)
        // A loop that waited for the first job would never hand the second over: a limit, not a hang.
        var timedOut = false
        loop.deadline("limit") { _ in timedOut = true; gate.signal() }.due = MonotonicClock.now() + .seconds(20)
        try loop.run(until: { results.count == 2 || timedOut })
        #expect(results == ["quick", "slow"])
        #expect(loop.backgroundJobsRunning == 0)
        #expect(!timedOut)
        #expect(Set(loop.wakeUps.byCause.keys) == [WakeUps.background])
    }

    @Test("a result's handler may start the next job")
    func aHandlerMayStartAnotherJob() throws {
        let loop = try EventLoop()
        var results: [Int] = []
        func next(_ value: Int) {
            results.append(value)
            if value < 3 { try? loop.runInBackground({ value + 1 }, then: next) }
        }
        try loop.runInBackground({ 1 }, then: next)
        try loop.run(until: { results.count == 3 })
        #expect(results == [1, 2, 3])
        #expect(loop.backgroundJobsRunning == 0)
    }

    @Test("a recording's time jumps from deadline to deadline when nothing else is ready, in order")
    func recordedTimeJumpsBetweenDeadlines() throws {
        let loop = try EventLoop()
        let start = MonotonicClock.now()
        loop.playRecordedTime(from: start)
        var fired: [(String, Instant)] = []
        let second = loop.deadline("second") { fired.append(("second", $0)) }
        let first = loop.deadline("first") { fired.append(("first", $0)) }
        second.due = start + .seconds(7200)
        first.due = start + .seconds(3600)
        // A real bound, so a loop that waited for the hours on the wall would fail, not hang.
        var timedOut = false
        loop.deadline("limit", clock: .real) { _ in timedOut = true }.due = MonotonicClock.now() + .seconds(20)
        try loop.run(until: { fired.count == 2 || timedOut })
        #expect(!timedOut)
        #expect(fired.map(\.0) == ["first", "second"])
        #expect(fired.map(\.1) == [start + .seconds(3600), start + .seconds(7200)])
        #expect(loop.time == start + .seconds(7200))
        #expect(!loop.hasPendingDeadlines(on: .loop) && loop.hasPendingDeadlines(on: .real))
    }

    @Test("a ready descriptor is handled before the recording's time moves on")
    func readyDescriptorsComeBeforeAJump() throws {
        let loop = try EventLoop()
        let start = MonotonicClock.now()
        loop.playRecordedTime(from: start)
        let wakeup = try EventFD()
        var order: [String] = []
        try loop.watch(wakeup.fileDescriptor, as: "news") {
            _ = try? wakeup.consume()
            order.append("news at \(loop.time == start ? "start" : "later")")
        }
        loop.deadline("later") { _ in order.append("later") }.due = start + .seconds(60)
        wakeup.signal()
        try loop.run(until: { order.count == 2 })
        #expect(order == ["news at start", "later"])
    }

    @Test("background work and a hold keep the recording's time still until they end")
    func backgroundWorkAndHoldsStopTheJump() throws {
        let loop = try EventLoop()
        let start = MonotonicClock.now()
        loop.playRecordedTime(from: start)
        let release = DispatchSemaphore(value: 0)
        var order: [String] = []
        var holding = true
        loop.holdsRecordedTime = { holding }
        // The job ends only once a real deadline has let it; the hold ends with its result.
        try loop.runInBackground({ release.wait(); return "result" }, then: { order.append($0); holding = false })
        loop.deadline("release", clock: .real) { _ in order.append("release"); release.signal() }
            .due = MonotonicClock.now() + .milliseconds(10)
        loop.deadline("recorded") { _ in order.append("recorded") }.due = start + .seconds(1)
        var timedOut = false
        loop.deadline("limit", clock: .real) { _ in timedOut = true; release.signal() }.due = MonotonicClock.now() + .seconds(20)
        try loop.run(until: { order.count == 3 || timedOut })
        #expect(!timedOut)
        #expect(order == ["release", "result", "recorded"])
    }
}
