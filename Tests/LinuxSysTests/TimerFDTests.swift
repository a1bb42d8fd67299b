import Glibc
import GridlockCore
import LinuxSys
import Testing

@Suite struct TimerFDTests {
    @Test("fires at the armed time and the poller reports it") func firesAtTheArmedTimeAndThePollerReportsIt() throws {
        let timer = try TimerFD()
        let poller = try EventPoller()
        try poller.add(timer.fileDescriptor, token: 7)
        let start = MonotonicClock.now()
        let deadline = start + .milliseconds(80)
        try timer.arm(at: deadline)

        let ready = try poller.wait(timeoutMilliseconds: 2000)
        let woke = MonotonicClock.now()
        #expect(ready.map(\.token) == [7])
        #expect(ready.first?.readable == true)
        #expect(woke >= deadline)
        #expect(woke.duration(since: deadline) < .milliseconds(500))
        #expect(try timer.acknowledge() == 1)
        #expect(try timer.acknowledge() == 0)
    }

    @Test("a deadline in the past fires immediately") func aDeadlineInThePastFiresImmediately() throws {
        let timer = try TimerFD()
        let poller = try EventPoller()
        try poller.add(timer.fileDescriptor, token: 1)
        try timer.arm(at: .zero)
        #expect(try poller.wait(timeoutMilliseconds: 1000).map(\.token) == [1])
    }

    @Test("disarmed timer stays quiet") func disarmedTimerStaysQuiet() throws {
        let timer = try TimerFD()
        let poller = try EventPoller()
        try poller.add(timer.fileDescriptor, token: 1)
        try timer.arm(at: MonotonicClock.now() + .milliseconds(30))
        try timer.disarm()
        #expect(try poller.wait(timeoutMilliseconds: 120).isEmpty)
    }
}
