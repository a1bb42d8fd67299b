import Foundation
import Glibc
import LinuxSys
import Testing

@Suite struct EventFDTests {
    @Test("signal from another thread wakes the poller") func signalFromAnotherThreadWakesThePoller() throws {
        let event = try EventFD()
        let poller = try EventPoller()
        try poller.add(event.fileDescriptor, token: 3)
        Thread.detachNewThread {
            usleep(50_000)
            event.signal()
        }
        let ready = try poller.wait(timeoutMilliseconds: 5000)
        #expect(ready.map(\.token) == [3])
        #expect(try event.consume() == 1)
        #expect(try event.consume() == 0)
        #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
    }

    @Test("removed descriptor is no longer reported") func removedDescriptorIsNoLongerReported() throws {
        let event = try EventFD()
        let poller = try EventPoller()
        try poller.add(event.fileDescriptor, token: 3)
        event.signal()
        try poller.remove(event.fileDescriptor)
        #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
    }

    @Test("background job result arrives through the EventFD") func backgroundJobResultArrivesThroughTheEventFD() throws {
        let wakeup = try EventFD()
        let poller = try EventPoller()
        try poller.add(wakeup.fileDescriptor, token: 9)
        let job = try BackgroundJob<Int>.start(wakeup: wakeup) {
            usleep(30_000)
            return 42
        }
        #expect(job.take() == nil)
        #expect(try poller.wait(timeoutMilliseconds: 5000).map(\.token) == [9])
        try wakeup.consume()
        #expect(job.take() == 42)
        #expect(job.take() == nil)
    }
}
