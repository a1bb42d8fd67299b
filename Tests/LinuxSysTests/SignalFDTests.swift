import Glibc
import LinuxSys
import Testing

@Suite struct SignalFDTests {
    /// raise() directs the signal at this thread, which is the thread that blocks it,
    /// so no other test thread can receive (and die of) the SIGUSR1. The test is
    /// synchronous, so it cannot hop threads between blocking and reading.
    @Test("receives a signal sent to self") func receivesASignalSentToSelf() throws {
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }

        let signals = try SignalFD(signals: [.user1])
        let poller = try EventPoller()
        try poller.add(signals.fileDescriptor, token: 5)
        #expect(try signals.readSignals().isEmpty)

        raise(SIGUSR1)
        #expect(try poller.wait(timeoutMilliseconds: 2000).map(\.token) == [5])
        #expect(try signals.readSignals() == [.user1])
        #expect(try signals.readSignals().isEmpty)
    }
}
