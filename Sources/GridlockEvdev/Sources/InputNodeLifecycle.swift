import GridlockCore
import LinuxSys

/// The life of the one `/dev/input` node a source uses (the touch panel, the beeper),
/// written once for both: chosen and opened (at start, or when hotplug says one may have
/// come), watched on the loop while open, lost (a read or write failing, its node
/// deleted), the loss said once, then one look after the settle time and, until a node
/// is found, nothing but the directory's inotify watch. There is no polling.
///
/// It registers on the loop itself and keeps the tokens: a node's descriptor is
/// unwatched before it is closed, so a new node's descriptor that reuses the number is
/// registered afresh, never mistaken for the old one.
package final class InputNodeLifecycle<Node> {
    /// What differs between sources: how a node is chosen, opened, read and let go.
    package struct Hooks {
        /// Chooses a node and opens it, logging the choice and the return; nil when there
        /// is none to use now (the lifecycle then waits for hotplug).
        var open: (Instant) -> Node?
        var close: (Node) -> Void
        /// What the loop watches while the node is open; nil: nothing (a beeper's echo of
        /// its own tones is of no interest).
        var descriptor: (Node) -> FileDescriptor? = { _ in nil }
        var readable: (Node, Instant) -> Void = { _, _ in }
        /// After a hotplug event: why the open node is gone (its node deleted), or nil.
        var gone: (Node) -> String? = { _ in nil }
    }

    /// Hotplug events come in bursts (create, then attribute changes, one per link udev
    /// makes); one scan 50 ms after the first is enough and still well within a second.
    package static var settle: Duration { .milliseconds(50) }

    private let hooks: Hooks
    /// Names the watches in the loop's wake-up counts, and the rescan deadline.
    private let cause: String
    private let log: (LogPriority, String) -> Void
    /// After a loss, the rescans that find nothing say nothing more until a node is found.
    private let quietAfterLoss: Bool
    private let directory: InputDirectoryWatch
    private(set) var node: Node?
    private var loop: EventLoop?
    private var directoryWatching: EventLoop.Watching?
    private var nodeWatching: EventLoop.Watching?
    private var rescan: EventLoop.Deadline?
    private var lastProblem: String?
    private var quiet = false

    package init(
        directory: String, cause: String, quietAfterLoss: Bool,
        log: @escaping (LogPriority, String) -> Void, hooks: Hooks
    ) throws(SystemCallError) {
        self.directory = try InputDirectoryWatch(directory: directory, log: log)
        self.cause = cause
        self.quietAfterLoss = quietAfterLoss
        self.log = log
        self.hooks = hooks
    }

    /// The first look, at start, before the loop runs.
    package func start(now: Instant) { open(now: now) }

    /// When the next look is due (after hotplug or a loss), nil while only waiting.
    package var rescanDue: Instant? { rescan?.due }

    package func attach(to loop: EventLoop) {
        self.loop = loop
        rescan = loop.deadline(cause) { [weak self] now in self?.rescanFired(now: now) }
        directoryWatching = watch(directory.fileDescriptor) { [weak self, unowned loop] in
            self?.hotplug(now: loop.now())
        }
        if let node { watch(node) }
    }

    /// Leaves the loop and lets the node go (the program stops).
    package func detach() {
        if let directoryWatching { loop?.unwatch(directoryWatching) }
        directoryWatching = nil
        rescan?.due = nil
        if let node {
            unwatchNode()
            hooks.close(node)
            self.node = nil
        }
    }

    /// The node failed (ENODEV, EIO, deleted): let it go and say so once, then look again
    /// once the settle time has passed. A second loss before a node is back is not said.
    package func lose(_ priority: LogPriority, _ message: String, now: Instant) {
        guard let node else { return }
        unwatchNode()
        hooks.close(node)
        self.node = nil
        log(priority, message)
        lastProblem = nil
        quiet = quietAfterLoss
        // Another node may already be there (auto): look once, then wait for hotplug.
        scheduleRescan(now: now)
    }

    /// Says a problem of the choice or the opening, once while it stays the same.
    package func report(_ priority: LogPriority, _ problem: String) {
        guard problem != lastProblem, !quiet else { return }
        lastProblem = problem
        log(priority, problem)
    }

    // MARK: Transitions the loop drives

    package func hotplug(now: Instant) {
        guard directory.readChanges() else { return }
        if let node, let why = hooks.gone(node) { lose(.warning, why, now: now) }
        if node == nil { scheduleRescan(now: now) }
    }

    package func rescanFired(now: Instant) {
        if node == nil { open(now: now) }
    }

    private func open(now: Instant) {
        guard let opened = hooks.open(now) else { return }
        node = opened
        lastProblem = nil
        quiet = false
        watch(opened)
    }

    private func scheduleRescan(now: Instant) {
        let due = now + Self.settle
        rescan?.due = min(rescan?.due ?? due, due)
    }

    private func watch(_ node: Node) {
        guard let descriptor = hooks.descriptor(node), let loop else { return }
        nodeWatching = watch(descriptor) { [weak self, unowned loop] in
            // Read only while it is still the node: a handler earlier in the round may have lost it.
            guard let self, let node = self.node, hooks.descriptor(node) == descriptor else { return }
            hooks.readable(node, loop.now())
        }
    }

    private func watch(_ descriptor: FileDescriptor, _ handler: @escaping () -> Void) -> EventLoop.Watching? {
        do {
            return try loop?.watch(descriptor, as: cause, handler)
        } catch {
            log(.error, "cannot watch \(descriptor) for the \(cause): \(error)")
            return nil
        }
    }

    /// Before the close: by token, so a number already reused by another file stays watched.
    private func unwatchNode() {
        if let nodeWatching { loop?.unwatch(nodeWatching) }
        nodeWatching = nil
    }
}
