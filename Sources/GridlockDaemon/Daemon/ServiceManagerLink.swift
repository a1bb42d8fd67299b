import GridlockCore
import LinuxSys

/// What gridlockd tells systemd (`Type=notify`): ready once the lock screen is drawn, what
/// the panel shows (`systemctl status`), the watchdog's keep-alive, reloads and the stop.
/// Without `NOTIFY_SOCKET` (a test, a shell) it says nothing.
struct ServiceManagerLink {
    static let showing = "STATUS=Showing the lock screen"
    static let waiting = "STATUS=Waiting for a display; the lock screen is drawn and shown when one appears"
    static let serving = "STATUS=Checking the strokes of the lock faces on its session socket (it draws nothing itself)"

    private let send: (String) -> Void
    private(set) var isReady = false
    /// Whether the last status said a display shows the lock screen.
    private var saidShowing = false
    /// gridlockd as the verifier alone (`[display] backend=none`): its faces draw, so its
    /// status says what it does instead of waiting for a display it will never have.
    var drawsNothing = false

    init(_ notifier: SystemdNotifier?) {
        // A lost datagram is no reason to stop a lock: systemd's watchdog is what notices.
        self.init { state in try? notifier?.notify(state) }
    }

    init(send: @escaping (String) -> Void) {
        self.send = send
    }

    /// After each round once a frame was drawn; `onScreen`: a display shows it. READY goes
    /// out with the first frame: on a display, the first frame is a modeset that returns
    /// once it is scanned out, so the unit is active only with the grid on screen. With no
    /// display yet it goes out too (a start job waiting for a cable would time out and
    /// restart in a loop), saying so in STATUS, which follows the display from then on.
    /// True when READY went out now.
    mutating func frameDrawn(onScreen: Bool) -> Bool {
        if drawsNothing {
            guard !isReady else { return false }
            isReady = true
            send("READY=1\n" + Self.serving)
            return true
        }
        if isReady {
            if onScreen != saidShowing { send(onScreen ? Self.showing : Self.waiting) }
            saidShowing = onScreen
            return false
        }
        isReady = true
        saidShowing = onScreen
        send("READY=1\n" + (onScreen ? Self.showing : Self.waiting))
        return true
    }

    func watchdog() { send("WATCHDOG=1") }

    /// `now` on CLOCK_MONOTONIC, which systemd compares with its own.
    func reloading(at now: Instant) { send("RELOADING=1\nMONOTONIC_USEC=\(now.nanoseconds / 1000)") }

    func reloaded() { send("READY=1") }

    func stopping() { send("STOPPING=1") }
}
