import Dispatch
import GridlockCore
import GridlockDisplay
import GridlockRendering
import LinuxSys
import Synchronization
import Testing
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// How often the judging thread ran.
private final class Calls: Sendable {
    let count = Mutex<Int>(0)
}

/// SIGHUP's configuration off the loop: one reload at a time, and signals that come while
/// one is judged are folded into one more after it.
@Suite struct ConfigReloaderTests {
    @Test("requests while a reload is judged ask for one more after it, which reads the files afresh")
    func requestsDuringAReloadAreFolded() throws {
        let loop = try EventLoop()
        let reloader = ConfigReloader(loop: loop, path: "/nonexistent/gridlock.conf")
        let judged = DispatchSemaphore(value: 0)
        let calls = Calls()
        reloader.prepare = { @Sendable path, current in
            if calls.count.withLock({ $0 += 1; return $0 }) == 1 { judged.wait() }
            return ConfigReloader.prepare(path: path, after: current)
        }
        let current = try #require(LockScreen(renderer: SceneRenderer(size: Size(width: 320, height: 240), theme: Theme()), output: NullOutput(size: Size(width: 320, height: 240)), clock: { Instant(nanoseconds: 0) }).lookPreparation)
        var events: [String] = []
        func request() {
            reloader.request(
                preparation: { current }, started: { events.append("started") },
                done: { result in
                    if case .failure(.refused(let diagnostics)) = result, !diagnostics.isEmpty {
                        events.append("refused")
                    } else {
                        events.append("unexpected \(result)")
                    }
                })
        }
        request()
        #expect(reloader.isRunning)
        request()
        request()
        request()
        // The loop is free while the first is judged: this runs before it ends.
        loop.deadline("meanwhile") { _ in
            events.append("meanwhile")
            judged.signal()
        }.due = loop.now()
        try loop.run(until: { events.filter { $0 != "started" && $0 != "meanwhile" }.count == 2 })
        #expect(events == ["started", "meanwhile", "refused", "started", "refused"])
        #expect(calls.count.withLock { $0 } == 2)
        #expect(!reloader.isRunning)
    }
}
