import Foundation
import Glibc
import GridlockCore
@testable import GridlockDaemon
import GridlockInput
@testable import GridlockEvdev
import LinuxSys
import Testing

extension Instant {
    /// A CLOCK_MONOTONIC reading in nanoseconds, for scripted times.
    static func ns(_ nanoseconds: Int64) -> Instant { Instant(nanoseconds: nanoseconds) }
}

/// A device over a pipe: real descriptors for the loop, scripted reads.
final class FakeDevice: EvdevDeviceHandle {
    let path: String
    let description: DeviceDescription
    let fileDescriptor: FileDescriptor
    private let writeEnd: FileDescriptor
    var normal: [EvdevReadResult] = []
    var snapshot = TouchSnapshot(touching: false)
    var grabError: Errno?
    private(set) var grabCalls: [Bool] = []
    private(set) var closed = false

    init(path: String, description: DeviceDescription) throws {
        self.path = path
        self.description = description
        (fileDescriptor, writeEnd) = try FileDescriptor.pipe()
    }

    deinit { close() }

    /// Called (on the reader's thread) when the reader has taken the last queued event: a
    /// test that waits for "the stroke was read" waits for this, never for a time.
    var onDrained: () -> Void = {}

    func nextEvent(sync: Bool) -> EvdevReadResult {
        if sync || normal.isEmpty {
            // Read to EAGAIN, as libevdev does, so a loop stops seeing the pipe readable.
            var byte: UInt8 = 0
            while Glibc.read(fileDescriptor.rawValue, &byte, 1) == 1 {}
            return .exhausted
        }
        let event = normal.removeFirst()
        if normal.isEmpty { onDrained() }
        return event
    }

    /// Queues `events` and makes the descriptor readable, as the kernel does for a real device.
    func deliver(_ events: [EvdevReadResult]) {
        normal += events
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd.rawValue, &byte, 1)
    }

    func touchSnapshot() -> TouchSnapshot { snapshot }

    func setGrabbed(_ grabbed: Bool) throws(EvdevError) {
        grabCalls.append(grabbed)
        if grabbed, let grabError { throw .grab(path: path, grabError) }
    }

    func close() {
        guard !closed else { return }
        closed = true
        fileDescriptor.close()
        writeEnd.close()
    }
}

final class FakeEnvironment: EvdevEnvironment {
    var nodes: [String: DeviceDescription] = [:]
    var links: [String: String] = [:]
    var udev: UdevDatabase.Calibration = .none
    var grabError: Errno?
    private(set) var opened: [FakeDevice] = []

    func scan(_ directory: String) throws(SystemCallError) -> [ScannedDevice] {
        nodes.keys.filter { $0.hasPrefix(directory + "/") }.map(describe)
    }

    func describe(_ path: String) -> ScannedDevice {
        guard let device = nodes[path] else {
            return ScannedDevice(path: path, device: .failure(.open(path: path, .noSuchFile)))
        }
        return ScannedDevice(path: path, device: .success(device))
    }

    func resolve(_ path: String) throws(SystemCallError) -> String {
        if let target = links[path] { return target }
        guard nodes[path] != nil else { throw SystemCallError(operation: "realpath", path: path, errno: .noSuchFile) }
        return path
    }

    func open(_ path: String) throws(EvdevError) -> any EvdevDeviceHandle {
        guard let description = nodes[path] else { throw .open(path: path, .noSuchFile) }
        let device: FakeDevice
        do {
            device = try FakeDevice(path: path, description: description)
        } catch {
            throw .open(path: path, .noSpace)
        }
        device.grabError = grabError
        opened.append(device)
        return device
    }

    func udevCalibration(of device: any EvdevDeviceHandle) -> UdevDatabase.Calibration { udev }
}

final class LogLines: @unchecked Sendable {
    var lines: [(LogPriority, String)] = []
    func log(_ priority: LogPriority, _ message: String) { lines.append((priority, message)) }
    func contains(_ text: String) -> Bool { lines.contains { $0.1.contains(text) } }
    func count(_ text: String) -> Int { lines.filter { $0.1.contains(text) }.count }
}

@Suite("EvdevTouchSource: choice, hotplug, loss, grab, calibration", .serialized)
final class EvdevTouchSourceTests {
    let directory: String
    let environment = FakeEnvironment()
    let logs = LogLines()
    let scripted: ScriptedLoop
    /// Every touch the sources of a test emitted, with its time, in order.
    let emitted = Emitted()
    static let frame = Size(width: 800, height: 480)
    static let settle = Duration.milliseconds(50)

    init() throws {
        directory = try makeTemporaryDirectory()
        scripted = try ScriptedLoop(at: .ns(1_000))
    }

    final class Emitted {
        var touches: [TouchEvent] = []
        var times: [Instant] = []
    }

    var loop: EventLoop { scripted.loop }

    deinit { removeDirectory(directory) }

    func source(_ selector: DeviceSelector = .auto, grab: Bool = true, calibration: CalibrationMatrix? = nil, directory: String? = nil) throws -> EvdevTouchSource {
        let settings = EvdevTouchSource.Settings(
            selector: selector, grab: grab, calibration: calibration, directory: directory ?? self.directory)
        let source = try EvdevTouchSource(
            settings: settings, frame: Self.frame, rotation: .none, now: .ns(1_000), environment: environment,
            log: logs.log)
        source.attach(to: loop) { [emitted] touch, time in
            emitted.touches.append(touch)
            emitted.times.append(time)
        }
        return source
    }

    /// The touches a round at `now` emitted.
    func turn(at now: Instant) throws -> [TouchEvent] {
        let before = emitted.touches.count
        try scripted.turn(at: now)
        return Array(emitted.touches[before...])
    }

    /// A device node appears: the fake knows it, and a file of that name makes inotify speak.
    func plug(_ name: String, _ fixture: String) throws {
        environment.nodes["\(directory)/\(name)"] = try deviceFixture(fixture)
        let fd = try FileDescriptor.open("\(directory)/\(name)", [.create, .writeOnly])
        fd.close()
    }

    func unplug(_ name: String) {
        environment.nodes["\(directory)/\(name)"] = nil
        unlink("\(directory)/\(name)")
    }

    /// Lets the source see inotify's news in a round at `now`, then runs its rescan when it asked for one.
    func deliverHotplug(_ source: EvdevTouchSource, now: Instant) throws {
        try scripted.turn(at: now)
        if let due = source.rescanDue { try scripted.turn(at: due) }
    }

    static func stroke(id: Int32, x: Int32, y: Int32, moveTo: Int32) -> [EvdevReadResult] {
        var t = Int64(1_000_000)
        func e(_ type: UInt16, _ code: UInt16, _ value: Int32) -> EvdevReadResult {
            .event(InputEvent(time: Instant(nanoseconds: t), type: type, code: code, value: value))
        }
        var result = [
            e(1, InputCodes.BTN_TOUCH, 1), e(3, InputCodes.ABS_MT_SLOT, 0), e(3, InputCodes.ABS_MT_TRACKING_ID, id),
            e(3, InputCodes.ABS_MT_POSITION_X, x), e(3, InputCodes.ABS_MT_POSITION_Y, y), e(0, InputCodes.SYN_REPORT, 0),
        ]
        t += 10_000_000
        result += [e(3, InputCodes.ABS_MT_POSITION_X, moveTo), e(0, InputCodes.SYN_REPORT, 0)]
        return result
    }

    func point(_ x: Int32, _ y: Int32, calibration: CalibrationMatrix = .identity) throws -> Point {
        let device = try deviceFixture("ft5406-multitouch")
        return try CoordinateMapper(
            x: device.absInfo(InputCodes.ABS_MT_POSITION_X)!, y: device.absInfo(InputCodes.ABS_MT_POSITION_Y)!,
            calibration: calibration, frame: Self.frame
        ).point(x: x, y: y)
    }

    @Test("no device: said once, no polling; a plugged touchscreen is taken within the settle time and grabbed")
    func hotplug() throws {
        try plug("event0", "logitech-mouse")
        let source = try self.source()
        #expect(source.devicePath == nil)
        #expect(environment.opened.isEmpty)
        #expect(source.rescanDue == nil)
        #expect(logs.count("no touch device matches device=auto (1 input device(s) looked at)") == 1)
        #expect(logs.contains("skipped \(directory)/event0"))

        // A node that is not an event node changes nothing.
        _ = try FileDescriptor.open("\(directory)/mouse0", [.create, .writeOnly]).close()
        _ = try turn(at: .ns(2_000))
        #expect(source.rescanDue == nil)

        try plug("event5", "ft5406-multitouch")
        _ = try turn(at: .ns(3_000))
        let due = try #require(source.rescanDue)
        #expect(due == .ns(3_000) + Self.settle)
        _ = try turn(at: due + .nanoseconds(-1))
        #expect(source.devicePath == nil)
        _ = try turn(at: due)
        #expect(source.devicePath == "\(directory)/event5")
        #expect(source.rescanDue == nil)
        #expect(loop.isWatching(environment.opened[0].fileDescriptor))
        #expect(environment.opened[0].grabCalls == [true])
        #expect(source.isGrabbed)
        #expect(logs.contains("touch device \(directory)/event5 \"FT5406 memory based driver\": first touchscreen (multitouch, protocol B)"))
        #expect(logs.contains("reading touches from \(directory)/event5 \"FT5406 memory based driver\": multitouch protocol B, 10 slots, x 0...799, y 0...479"))
        #expect(logs.contains("calibration of \(directory)/event5: none"))
    }

    @Test("waiting: each node's 'not a touchscreen' line is said once while it stays, whatever rescans its siblings cause")
    func skippedOnce() throws {
        try plug("event0", "logitech-mouse")
        let source = try self.source()
        // A touchpad's nodes appear one by one (hid-multitouch: mouse, touchpad, pen...).
        try plug("event1", "synaptics-touchpad")
        try deliverHotplug(source, now: .ns(2_000))
        try plug("event2", "wacom-pen-tablet")
        try deliverHotplug(source, now: .ns(3_000))
        #expect(source.devicePath == nil)
        #expect(logs.count("no touch device matches device=auto") == 3)
        for node in ["event0", "event1", "event2"] {
            #expect(logs.count("skipped \(directory)/\(node) ") == 1, "\(node)")
        }
        #expect(logs.contains("skipped \(directory)/event1 \"SynPS/2 Synaptics TouchPad\": not a touchscreen: touchpad"))
        // Gone and back: said again.
        unplug("event1")
        try deliverHotplug(source, now: .ns(4_000))
        try plug("event1", "synaptics-touchpad")
        try deliverHotplug(source, now: .ns(5_000))
        #expect(logs.count("skipped \(directory)/event1 ") == 2)
        // A choice is logged whole: every other node with why it was not taken.
        try plug("event5", "ft5406-multitouch")
        try deliverHotplug(source, now: .ns(6_000))
        #expect(source.devicePath == "\(directory)/event5")
        #expect(logs.count("skipped \(directory)/event0 ") == 2)
    }

    @Test("a device lost mid-stroke: stroke cancelled, device closed, daemon waits; the returning device works")
    func lossAndReturn() throws {
        try plug("event3", "ft5406-multitouch")
        let source = try self.source()
        let first = try #require(environment.opened.first)
        let firstDescriptor = first.fileDescriptor
        first.deliver(Self.stroke(id: 1, x: 100, y: 100, moveTo: 150))
        #expect(try turn(at: .ns(5_000)) == [.down(point(100, 100)), .move(point(150, 100))])
        // Each touch carries its input frame's kernel time, not the time it was read.
        #expect(emitted.times == [.ns(1_000_000), .ns(11_000_000)])

        first.deliver([.failed(.noSuchDevice)])
        unplug("event3")
        #expect(try turn(at: .ns(6_000)) == [.cancel(.deviceLost)])
        #expect(first.closed)
        #expect(source.devicePath == nil)
        // Unwatched before it was closed: its number is free for the next file.
        #expect(!loop.isWatching(firstDescriptor))
        #expect(logs.contains("touch device \(directory)/event3 \"FT5406 memory based driver\" lost: \(Errno.noSuchDevice)"))
        #expect(logs.count("lost:") == 1)
        // One look for another device, the settle time after the loss.
        #expect(source.rescanDue == .ns(6_000) + Self.settle)
        _ = try turn(at: .ns(6_000) + Self.settle)
        #expect(source.devicePath == nil)
        #expect(source.rescanDue == nil)
        #expect(logs.count("no touch device matches device=auto") == 1)

        try plug("event3", "ft5406-multitouch")
        try deliverHotplug(source, now: .ns(7_000))
        let second = try #require(environment.opened.last)
        #expect(second !== first)
        #expect(source.devicePath == "\(directory)/event3")
        // A new registration, even where the new device got the old one's number.
        #expect(loop.isWatching(second.fileDescriptor))
        second.deliver(Self.stroke(id: 2, x: 300, y: 200, moveTo: 310))
        #expect(try turn(at: .ns(8_000)) == [.down(point(300, 200)), .move(point(310, 200))])
    }

    @Test("SYN_DROPPED mid-stroke: the stroke is cancelled, the drop logged, the next stroke works")
    func dropped() throws {
        try plug("event3", "ft5406-multitouch")
        let source = try self.source()
        let device = try #require(environment.opened.first)
        let drop = InputEvent(time: .milliseconds(30), type: InputCodes.EV_SYN, code: InputCodes.SYN_DROPPED, value: 0)
        // After the sync the kernel says nothing is down, so the new contact starts a stroke.
        device.deliver(Self.stroke(id: 1, x: 100, y: 100, moveTo: 150) + [.syncNeeded(drop)]
            + Self.stroke(id: 2, x: 300, y: 200, moveTo: 310))
        #expect(try turn(at: .ns(2_000)) == [
            .down(point(100, 100)), .move(point(150, 100)), .cancel(.eventsDropped),
            .down(point(300, 200)), .move(point(310, 200)),
        ])
        #expect(source.dropCount == 1)
        #expect(logs.contains("touch device \(directory)/event3 dropped events (SYN_DROPPED, 1 so far)"))
        #expect(source.devicePath != nil)
    }

    @Test("a grab held elsewhere is logged with fuser advice and the device is read anyway")
    func grabFailure() throws {
        environment.grabError = .busy
        try plug("event1", "goodix-multitouch")
        let source = try self.source()
        #expect(source.devicePath == "\(directory)/event1")
        #expect(!source.isGrabbed)
        let warning = try #require(logs.lines.first { $0.1.contains("EVIOCGRAB") })
        #expect(warning.0 == .warning)
        #expect(warning.1.contains("fuser -v \(directory)/event1"))
        #expect(warning.1.contains("carrying on without exclusive access"))
    }

    @Test("handover: setGrabbed releases and retakes the grab; grab=false never grabs")
    func handover() throws {
        try plug("event1", "goodix-multitouch")
        let source = try self.source()
        let device = try #require(environment.opened.first)
        source.setGrabbed(false)
        #expect(!source.isGrabbed)
        source.setGrabbed(true)
        #expect(source.isGrabbed)
        #expect(device.grabCalls == [true, false, true])

        let ungrabbed = try self.source(grab: false)
        ungrabbed.setGrabbed(true)
        #expect(!ungrabbed.isGrabbed)
        #expect(environment.opened.last!.grabCalls == [])
    }

    @Test("calibration: udev's LIBINPUT_CALIBRATION_MATRIX without a configured one; the config's wins")
    func calibration() throws {
        let swap = try CalibrationMatrix(parsing: "0 1 0 1 0 0")
        environment.udev = .matrix(swap, source: "/run/udev/data/c13:67")
        try plug("event2", "ft5406-multitouch")
        let fromUdev = try self.source()
        #expect(logs.contains("calibration of \(directory)/event2: 0 1 0 1 0 0 (LIBINPUT_CALIBRATION_MATRIX from /run/udev/data/c13:67)"))
        _ = fromUdev
        environment.opened.last!.deliver(Self.stroke(id: 1, x: 100, y: 300, moveTo: 100))
        var touches = try turn(at: .ns(2_000))
        #expect(try touches.first == .down(point(100, 300, calibration: swap)))
        #expect(try touches.first != .down(point(100, 300)))

        let configured = try self.source(calibration: .identity)
        #expect(logs.contains("calibration of \(directory)/event2: 1 0 0 0 1 0 ([touch] calibration=)"))
        _ = configured
        environment.opened.last!.deliver(Self.stroke(id: 1, x: 100, y: 300, moveTo: 100))
        touches = try turn(at: .ns(3_000))
        #expect(try touches.first == .down(point(100, 300)))

        environment.udev = .invalid("LIBINPUT_CALIBRATION_MATRIX=1 0: wrong", source: "db")
        _ = try self.source()
        #expect(logs.lines.contains { $0.0 == .warning && $0.1.contains("ignoring db") })
    }

    @Test("explicit path through a link, explicit name, and a configured path that is not there yet")
    func explicit() throws {
        try plug("event0", "egalax-single-touch")
        try plug("event1", "goodix-multitouch")
        let link = "/dev/input/by-path/platform-goodix-event"
        environment.links[link] = "\(directory)/event1"
        let byPath = try self.source(.path(link))
        #expect(byPath.devicePath == "\(directory)/event1")
        #expect(logs.contains("configured by path (via \(link))"))

        let byName = try self.source(.name("eGalax"))
        #expect(byName.devicePath == "\(directory)/event0")

        let missing = try self.source(.path("\(directory)/event9"))
        #expect(missing.devicePath == nil)
        #expect(logs.contains("touch device \(directory)/event9 (device=) is not there"))
        try plug("event9", "ilitek-multitouch")
        try deliverHotplug(missing, now: .ns(5_000))
        #expect(missing.devicePath == "\(directory)/event9")
    }

    @Test("no /dev/input yet: the parent is watched until it appears")
    func missingDirectory() throws {
        let input = "\(directory)/input"
        let source = try self.source(directory: input)
        #expect(logs.contains("\(input) does not exist yet; watching \(directory) for it"))
        try Directory.create(input)
        _ = try turn(at: .ns(2_000))
        let due = try #require(source.rescanDue)
        _ = try turn(at: due)
        // Now the directory itself is watched: a node created in it is noticed.
        environment.nodes["\(input)/event0"] = try deviceFixture("ft5406-multitouch")
        _ = try FileDescriptor.open("\(input)/event0", [.create, .writeOnly]).close()
        _ = try turn(at: .ns(100_000_000))
        let next = try #require(source.rescanDue)
        _ = try turn(at: next)
        #expect(source.devicePath == "\(input)/event0")
    }
}

func deviceFixture(_ name: String) throws -> DeviceDescription {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/devices/\(name).evemu")
    return try EvemuRecording(parsing: String(contentsOf: url, encoding: .utf8), file: url.path).device
}
