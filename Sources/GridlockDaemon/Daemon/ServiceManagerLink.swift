import LinuxSys

/// What gridlockd tells systemd (`Type=notify`): ready once the first frame is on screen,
/// the watchdog's keep-alive, reloads and the stop. Without `NOTIFY_SOCKET` (a test, a
/// shell) it says nothing.
struct ServiceManagerLink {
    private let notifier: SystemdNotifier?
    private(set) var isReady = false

    init(_ notifier: SystemdNotifier?) {
        self.notifier = notifier
    }

    /// The first frame is presented; true only the first time.
    mutating func firstFramePresented() -> Bool {
        guard !isReady else { return false }
        isReady = true
        send("READY=1\nSTATUS=Showing the lock screen")
        return true
    }

    func watchdog() { send("WATCHDOG=1") }

    func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock.now().nanoseconds / 1000)") }

    func reloaded() { send("READY=1") }

    func stopping() { send("STOPPING=1") }

    /// A lost datagram is no reason to stop a lock: systemd's watchdog is what notices.
    private func send(_ state: String) { try? notifier?.notify(state) }
}
