import GridlockCore

/// A program's parts, started in order and stopped in the reverse order, once, whatever
/// happened: a start that fails stops what it had started as a full stop would (the console
/// gets its picture back, the socket's name goes), so no failure path cleans up by hand.
/// As swift-service-lifecycle's `ServiceGroup`, on one loop: a part whose stop leaves work
/// to finish (an action told to end, an `[on stop]` hook) says when it is quiet, and the
/// group runs the loop until the quiet-saying parts stopped together are, for at most
/// `stopLimit`, before it stops the parts started before them.
public final class PartGroup {
    private struct Part {
        let name: String
        let stop: () -> Void
        let isQuiet: (() -> Bool)?
    }

    /// How long a stop waits for its parts to be quiet before it goes on without them
    /// (each part bounds its own work first: an action's kill grace, `[on stop]`'s 5 s).
    public static let defaultStopLimit: Duration = .seconds(15)

    private var parts: [Part] = []
    private let stopLimit: Duration
    public private(set) var isStopped = false

    public init(stopLimit: Duration = PartGroup.defaultStopLimit) {
        self.stopLimit = stopLimit
    }

    /// The names of the parts in the order they started.
    public var names: [String] { parts.map(\.name) }

    /// Adds a part that has started: `stop` stops it; `isQuiet`, when given, says when the
    /// work its stop left has ended.
    public func add(_ name: String, isQuiet: (() -> Bool)? = nil, stop: @escaping () -> Void) {
        parts.append(Part(name: name, stop: stop, isQuiet: isQuiet))
    }

    /// One step of the start: what it makes, or, when it fails, every part started so far
    /// stopped (in reverse) before the error goes on.
    public func step<Value, Failure: Error>(_ make: () throws(Failure) -> Value) throws(Failure) -> Value {
        do {
            return try make()
        } catch {
            stopAll(on: nil)
            throw error
        }
    }

    /// Stops every part in the reverse order of their start, once. Parts that say when they
    /// are quiet are stopped together and waited for on `loop` (nil: not waited for, at a
    /// failed start, when none of them runs anything yet) before the parts before them.
    public func stopAll(on loop: EventLoop?) {
        guard !isStopped else { return }
        isStopped = true
        var stopping: [Part] = []
        for part in parts.reversed() {
            if part.isQuiet == nil, !stopping.isEmpty {
                wait(for: stopping, on: loop)
                stopping = []
            }
            part.stop()
            if part.isQuiet != nil { stopping.append(part) }
        }
        wait(for: stopping, on: loop)
        parts = []
    }

    private func wait(for stopping: [Part], on loop: EventLoop?) {
        guard let loop, !stopping.isEmpty else { return }
        var timedOut = false
        let limit = loop.deadline("stop limit", clock: .real) { _ in timedOut = true }
        limit.due = loop.now() + stopLimit
        defer { limit.due = nil }
        do {
            try loop.run(until: { timedOut || stopping.allSatisfy { $0.isQuiet?() != false } })
        } catch {
            Journal.log(.error, "event loop while stopping \(stopping.map(\.name).joined(separator: ", ")): \(error)")
            return
        }
        let running = stopping.filter { $0.isQuiet?() == false }.map(\.name)
        if !running.isEmpty {
            Journal.log(.error, "stopping: \(running.joined(separator: ", ")) still running after \(stopLimit.secondsRoundedUp) s; going on without them")
        }
    }
}
