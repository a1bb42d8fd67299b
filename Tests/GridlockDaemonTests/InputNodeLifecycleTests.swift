import Foundation
import Glibc
import GridlockCore
import LinuxSys
@testable import GridlockEvdev
import Testing
@testable import GridlockDaemon

@Suite("InputNodeLifecycle: a node chosen, watched, lost, waited for, found again", .serialized)
final class InputNodeLifecycleTests {
    /// An open node: a pipe the loop can watch.
    final class Node {
        let path: String
        let readEnd: FileDescriptor
        let writeEnd: FileDescriptor
        private(set) var closed = false

        init(path: String) throws {
            self.path = path
            (readEnd, writeEnd) = try FileDescriptor.pipe()
        }

        deinit { close() }

        func makeReadable() {
            var byte: UInt8 = 1
            _ = Glibc.write(writeEnd.rawValue, &byte, 1)
        }

        func drain() {
            var byte: UInt8 = 0
            _ = Glibc.read(readEnd.rawValue, &byte, 1)
        }

        func close() {
            guard !closed else { return }
            closed = true
            readEnd.close()
            writeEnd.close()
        }
    }

    let directory: String
    let logs = LogLines()
    let scripted: ScriptedLoop
    /// The event nodes the hooks may open now, the first one taken.
    var available: [String] = []
    var opened: [Node] = []
    var reads: [String] = []
    /// For each close: whether the loop still watched the node's descriptor then.
    var watchedAtClose: [Bool] = []
    private var current: InputNodeLifecycle<Node>?

    init() throws {
        directory = try makeTemporaryDirectory()
        scripted = try ScriptedLoop(at: .ns(1_000_000))
    }

    deinit { removeDirectory(directory) }

    var loop: EventLoop { scripted.loop }

    func lifecycle(quietAfterLoss: Bool = false) throws -> InputNodeLifecycle<Node> {
        let lifecycle = try InputNodeLifecycle<Node>(
            directory: directory, cause: "test node", quietAfterLoss: quietAfterLoss, log: logs.log,
            hooks: .init(
                open: { [unowned self] _ in
                    guard let path = available.first, let node = try? Node(path: path) else {
                        current?.report(.warning, "no node in \(directory)")
                        return nil
                    }
                    opened.append(node)
                    logs.log(.info, "using \(path)")
                    return node
                },
                close: { [unowned self] node in
                    watchedAtClose.append(loop.isWatching(node.readEnd))
                    node.close()
                },
                descriptor: { $0.readEnd },
                readable: { [unowned self] node, _ in
                    node.drain()
                    reads.append(node.path)
                },
                gone: { [unowned self] node in available.contains(node.path) ? nil : "\(node.path) is gone" }))
        current = lifecycle
        lifecycle.start(now: scripted.time)
        lifecycle.attach(to: loop)
        return lifecycle
    }

    /// Creates or deletes an event node, as udev does, and runs the round that sees it.
    func hotplug(_ name: String, present: Bool, at instant: Instant) throws {
        let path = "\(directory)/\(name)"
        if present {
            available.append(path)
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        } else {
            available.removeAll { $0 == path }
            try FileManager.default.removeItem(atPath: path)
        }
        try scripted.turn(at: instant)
    }

    @Test("present at start, lost, present again: watched while open, unwatched before it is closed, the loss and the return said")
    func lostAndBack() throws {
        try hotplug("event0", present: true, at: .ns(1_000_000))
        let lifecycle = try self.lifecycle()
        let first = try #require(lifecycle.node)
        #expect(first.path == "\(directory)/event0")
        #expect(loop.isWatching(first.readEnd))
        first.makeReadable()
        try scripted.turn(at: .ns(2_000_000))
        #expect(reads == [first.path])

        try hotplug("event0", present: false, at: .ns(3_000_000))
        #expect(lifecycle.node == nil)
        #expect(first.closed)
        #expect(watchedAtClose == [false])
        #expect(logs.count("\(first.path) is gone") == 1)
        // One look after the settle time, then nothing but the directory watch.
        #expect(lifecycle.rescanDue == .ns(3_000_000) + InputNodeLifecycle<Node>.settle)
        try scripted.turn(at: .ns(3_000_000) + InputNodeLifecycle<Node>.settle)
        #expect(lifecycle.node == nil)
        #expect(lifecycle.rescanDue == nil)
        #expect(logs.count("no node") == 1)

        try hotplug("event1", present: true, at: .ns(100_000_000))
        let due = try #require(lifecycle.rescanDue)
        #expect(due == .ns(100_000_000) + InputNodeLifecycle<Node>.settle)
        try scripted.turn(at: due)
        let second = try #require(lifecycle.node)
        #expect(second.path == "\(directory)/event1")
        #expect(loop.isWatching(second.readEnd))
        #expect(logs.count("using ") == 2)
        second.makeReadable()
        try scripted.turn(at: .ns(200_000_000))
        #expect(reads == [first.path, second.path])
    }

    @Test("missing at start: waiting, said once, no deadline; a burst of hotplug events is one look, and the node is taken")
    func missingAtStart() throws {
        let lifecycle = try self.lifecycle()
        #expect(lifecycle.node == nil)
        #expect(lifecycle.rescanDue == nil)
        #expect(logs.count("no node") == 1)
        // Not an event node: no look at all.
        _ = FileManager.default.createFile(atPath: "\(directory)/mouse0", contents: nil)
        try scripted.turn(at: .ns(2_000_000))
        #expect(lifecycle.rescanDue == nil)

        try hotplug("event4", present: true, at: .ns(3_000_000))
        try hotplug("event5", present: true, at: .ns(4_000_000))
        // The first event's look stands: a burst does not push it back.
        #expect(lifecycle.rescanDue == .ns(3_000_000) + InputNodeLifecycle<Node>.settle)
        try scripted.turn(at: .ns(3_000_000) + InputNodeLifecycle<Node>.settle + .nanoseconds(-1))
        #expect(lifecycle.node == nil)
        try scripted.turn(at: .ns(3_000_000) + InputNodeLifecycle<Node>.settle)
        #expect(lifecycle.node?.path == "\(directory)/event4")
        #expect(opened.count == 1)
        #expect(logs.count("no node") == 1)
    }

    @Test("two losses in a row are said once and close once; quiet after a loss, the empty rescans say nothing until a node is back")
    func lossSaidOnce() throws {
        try hotplug("event2", present: true, at: .ns(1_000_000))
        let lifecycle = try self.lifecycle(quietAfterLoss: true)
        let first = try #require(lifecycle.node)
        // A write fails (ENODEV), then the node's deletion arrives: one loss.
        lifecycle.lose(.warning, "node lost: write failed", now: .ns(2_000_000))
        try hotplug("event2", present: false, at: .ns(2_000_001))
        lifecycle.lose(.warning, "node lost: write failed", now: .ns(2_000_002))
        #expect(logs.count("node lost") == 1)
        #expect(!logs.contains("is gone"))
        #expect(watchedAtClose == [false])
        #expect(first.closed)
        try scripted.turn(at: .ns(2_000_000) + InputNodeLifecycle<Node>.settle)
        #expect(lifecycle.node == nil)
        #expect(!logs.contains("no node"))

        try hotplug("event3", present: true, at: .ns(5_000_000))
        try scripted.turn(at: try #require(lifecycle.rescanDue))
        #expect(lifecycle.node?.path == "\(directory)/event3")
        // A loss after the return is news again.
        lifecycle.lose(.warning, "node lost: write failed", now: .ns(6_000_000))
        #expect(logs.count("node lost") == 2)
    }
}
