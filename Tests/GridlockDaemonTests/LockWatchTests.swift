import Dispatch
import GridlockConfiguration
import GridlockCore
import LinuxSys
import Testing
@testable import GridlockDaemon
@testable import GridlockDaemonPanel

/// The lock watch (session protocol version 4): what a face cannot foresee from the status
/// it was told reaches it as it happens, through gridlockd's real socket and loop.
extension SessionSocketTests {
    private func status(_ state: SessionStatus.State, rows: Int = 3, columns: Int = 3, minimum: Int = 4) -> SessionStatus {
        SessionStatus(state: state, rows: rows, columns: columns, minimumNodes: minimum)
    }

    @Test("a watch that names what is true waits; a reload's new grid and min-nodes answer it at once, logged")
    func lockWatchHearsANewGrid() throws {
        try start()
        var next = config
        next.grid.shape = try GridShape(rows: 4, columns: 4)
        next.grid.minNodes = 5
        let prepared = ConfigReloader.Prepared(loaded: LoadedConfig(config: next, files: ["\(directory)/next.conf"]), look: nil)
        daemon.reloader.prepare = { @Sendable _, _ in .success(prepared) }
        let face = try face()
        face.onReply = { [unowned self] reply in
            switch reply {
            case .status:
                // Told the running lock, the face watches it; only then does the grid change.
                face.send(.watchLock)
                daemon.reload()
            case .lockChanged:
                daemon.stop()
            default:
                break
            }
        }
        face.send(.status)
        run()
        #expect(face.replies == [.status(status(.ready)), .lockChanged(status(.ready, rows: 4, columns: 4, minimum: 5))])
        let reloaded = journal.firstIndex(of: "configuration reloaded from \(directory)/next.conf")
        let told = journal.firstIndex(of: "session socket: the lock changed (grid 3x3 -> 4x4, min-nodes 4 -> 5); telling the lock face of \(peer)")
        #expect(reloaded != nil && told != nil && reloaded! < told!, "journal: \(journal)")
    }

    @Test("the panel's face hears a lockout begun by another face, and a gridlock reset-lockout ends it on its screen at once")
    func panelFaceHearsLockoutAndReset() throws {
        try start()
        let panel = Panel(path: path, loop: loop)
        let other = try face()
        var sent = 0
        func checkAgain() {
            sent += 1
            other.send(.check(nodes: Self.wrong))
        }
        // The other face's wrong strokes, each once the lock is ready again; the first once
        // the panel's face watches.
        onScene = { scene in if scene.message == .prompt, (1..<5).contains(sent) { checkAgain() } }
        let reset = loop.deadline("reset-lockout")
        reset.onFire { [unowned self] _ in daemon.reloadAttempts() }
        panel.onReport = { [unowned self] report in
            switch report {
            case .serviceAvailable where sent == 0:
                checkAgain()
            case .lockedOut:
                // What `gridlock reset-lockout` leaves beside the state file, and its SIGHUP.
                #expect(throws: Never.self) {
                    try ResetRequest(requester: "uid 0 (sudo by alice)", pid: 42, usesAfresh: []).save(beside: config.lockout.stateFile)
                }
                reset.due = loop.time
            case .lockoutEnded:
                daemon.stop()
            default:
                break
            }
        }
        run()
        panel.end()
        #expect(sent == 5)
        #expect(other.replies.count == 5 && other.replies.allSatisfy { if case .rejected = $0 { true } else { false } }, "\(other.replies)")
        #expect(panel.reports == [.serviceAvailable, .lockedOut(seconds: 30), .lockoutEnded], "\(panel.reports)")
        #expect(panel.messages.contains(.lockedOut(seconds: 30)))
        #expect(panel.messages.last == .prompt)
        #expect(failures == 0)
        let began = journal.firstIndex { $0.hasPrefix("session socket: the lock changed (a lockout began); telling the lock face of") }
        let cleared = journal.firstIndex { $0.contains("cleared by gridlock reset-lockout (uid 0 (sudo by alice), pid 42)") }
        let ended = journal.firstIndex { $0.hasPrefix("session socket: the lock changed (the lockout ended); telling the lock face of") }
        #expect(began != nil && cleared != nil && ended != nil && began! < cleared! && cleared! < ended!, "journal: \(journal)")
        // The face that did not watch was told nothing it did not ask.
        #expect(!other.replies.contains { if case .lockChanged = $0 { true } else { false } })
    }
}
