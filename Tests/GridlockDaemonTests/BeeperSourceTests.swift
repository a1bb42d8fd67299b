import Foundation
import GridlockCore
import GridlockInput
@testable import GridlockEvdev
import LinuxSys
import Testing
@testable import GridlockDaemon

/// A buzzer that records every tone written to it, with the time it was written.
final class FakeToneWriter: ToneWriter {
    let path: String
    private(set) var tones: [(hertz: Int, at: Instant)] = []
    private(set) var closed = false
    /// Makes every later write fail with this (ENODEV: unplugged).
    var failure: Errno?

    init(path: String) { self.path = path }

    /// Called after each tone written (a test paces its touches by the sounds).
    var onSound: (Int) -> Void = { _ in }

    func sound(hertz: Int) throws(BeeperError) {
        if let failure { throw .write(path: path, failure) }
        tones.append((hertz, MonotonicClock.now()))
        onSound(hertz)
    }

    func close() { closed = true }

    var pitches: [Int] { tones.map(\.hertz) }
}

/// Input nodes with descriptions; beepers open as `FakeToneWriter`s.
final class FakeBeeperEnvironment: BeeperEnvironment {
    var nodes: [String: DeviceDescription] = [:]
    private(set) var opened: [FakeToneWriter] = []

    func scan(_ directory: String) throws(SystemCallError) -> [ScannedDevice] {
        nodes.keys.filter { $0.hasPrefix(directory + "/") }.sorted().map(describe)
    }

    func describe(_ path: String) -> ScannedDevice {
        guard let device = nodes[path] else { return ScannedDevice(path: path, device: .failure(.open(path: path, .noSuchFile))) }
        return ScannedDevice(path: path, device: .success(device))
    }

    func resolve(_ path: String) throws(SystemCallError) -> String {
        guard nodes[path] != nil else { throw SystemCallError(operation: "realpath", path: path, errno: .noSuchFile) }
        return path
    }

    func openBeeper(_ path: String, kind: BeeperKind) throws(BeeperError) -> any ToneWriter {
        guard nodes[path] != nil else { throw .open(path: path, .noSuchFile) }
        let writer = FakeToneWriter(path: path)
        opened.append(writer)
        return writer
    }

    static func buzzer(_ name: String, sounds: Set<UInt16>) -> DeviceDescription {
        DeviceDescription(
            name: name, id: DeviceID(bustype: 0x10, vendor: 0x1f, product: 0x1, version: 0x100),
            codes: [InputCodes.EV_SYN: [0], InputCodes.EV_SND: sounds])
    }

    static let speaker = buzzer("PC Speaker", sounds: [InputCodes.SND_BELL, InputCodes.SND_TONE])
    static let bell = buzzer("Keyboard bell", sounds: [InputCodes.SND_BELL])
}

@Suite("BeeperSource: choice, loss, hotplug", .serialized)
final class BeeperSourceTests {
    let directory: String
    let environment = FakeBeeperEnvironment()
    let logs = LogLines()
    let scripted: ScriptedLoop

    init() throws {
        directory = try makeTemporaryDirectory()
        scripted = try ScriptedLoop(at: .ns(1_000_000))
    }

    var now: Instant { scripted.time }

    deinit { removeDirectory(directory) }

    func source(_ selector: BeeperSelector = .auto) throws -> BeeperSource {
        let source = try BeeperSource(
            settings: .init(selector: selector, directory: directory), now: now,
            environment: environment, log: logs.log)
        source.attach(to: scripted.loop)
        return source
    }

    /// A node appears as udev makes one: a file in the watched directory (inotify), then a
    /// round of the loop a second later, and the rescan's when one was asked for.
    func plug(_ name: String, _ description: DeviceDescription?, into source: BeeperSource) throws {
        let path = "\(directory)/\(name)"
        if let description {
            environment.nodes[path] = description
            FileManager.default.createFile(atPath: path, contents: nil)
        } else {
            environment.nodes[path] = nil
            try FileManager.default.removeItem(atPath: path)
        }
        try scripted.turn(at: now + .seconds(1))
        if let due = source.rescanDue { try scripted.turn(at: due) }
    }

    @Test("auto takes the first device with SND_TONE, passing over a bell-only one and a touchscreen")
    func autoPrefersTone() throws {
        environment.nodes["\(directory)/event0"] = try deviceFixture("ft5406-multitouch")
        environment.nodes["\(directory)/event1"] = FakeBeeperEnvironment.bell
        environment.nodes["\(directory)/event2"] = FakeBeeperEnvironment.speaker
        let source = try source()
        #expect(source.devicePath == "\(directory)/event2")
        #expect(logs.contains("beeper: \(directory)/event2 \"PC Speaker\" (SND_TONE)"))
        source.sound(hertz: 2000, now: now)
        // Silence first: a tone a killed predecessor left on ends when the beeper is taken.
        #expect(environment.opened.last?.pitches == [0, 2000])
    }

    @Test("with only SND_BELL, auto takes it and says it has one pitch")
    func bellOnly() throws {
        environment.nodes["\(directory)/event3"] = FakeBeeperEnvironment.bell
        let source = try source()
        #expect(source.devicePath == "\(directory)/event3")
        #expect(logs.contains("(SND_BELL: one pitch only)"))
    }

    @Test("a path without EV_SND is refused with a warning; sounds are off")
    func pathWithoutSound() throws {
        environment.nodes["\(directory)/event0"] = try deviceFixture("ft5406-multitouch")
        let source = try source(.path("\(directory)/event0"))
        #expect(source.devicePath == nil)
        #expect(logs.contains("has no EV_SND"))
        #expect(environment.opened.isEmpty)
    }

    @Test("none at start: said once; one plugged in later is taken through the directory watch")
    func hotplugIn() throws {
        let source = try source()
        #expect(source.devicePath == nil)
        try plug("event5", try deviceFixture("ft5406-multitouch"), into: source)
        #expect(source.devicePath == nil)
        #expect(logs.count("no beeper") == 1)
        try plug("event6", FakeBeeperEnvironment.speaker, into: source)
        #expect(source.devicePath == "\(directory)/event6")
    }

    @Test("unplugged: a failing write is logged once, sounds are off, and a new beeper is taken when it appears")
    func lostThenBack() throws {
        environment.nodes["\(directory)/event1"] = FakeBeeperEnvironment.speaker
        FileManager.default.createFile(atPath: "\(directory)/event1", contents: nil)
        let source = try source()
        let first = try #require(environment.opened.last)
        first.failure = .noSuchDevice
        source.sound(hertz: 2000, now: now)
        #expect(source.devicePath == nil)
        #expect(first.closed)
        // The node is gone too; rescans find nothing and say nothing more.
        try plug("event1", nil, into: source)
        source.sound(hertz: 440, now: now)
        source.sound(hertz: 0, now: now)
        #expect(logs.count("beeper lost") == 1)
        #expect(logs.count("no beeper") == 0)
        #expect(logs.lines.filter { $0.0 == .warning }.count == 1)
        try plug("event7", FakeBeeperEnvironment.speaker, into: source)
        #expect(source.devicePath == "\(directory)/event7")
        source.sound(hertz: 1047, now: now)
        #expect(environment.opened.last?.pitches == [0, 1047])
    }

    @Test("a node deleted under an idle beeper is noticed at once, before a tone is lost on it")
    func deletedWhileIdle() throws {
        environment.nodes["\(directory)/event2"] = FakeBeeperEnvironment.speaker
        FileManager.default.createFile(atPath: "\(directory)/event2", contents: nil)
        let source = try source()
        #expect(source.devicePath == "\(directory)/event2")
        try plug("event2", nil, into: source)
        #expect(source.devicePath == nil)
        #expect(logs.count("beeper lost: \(directory)/event2 is gone") == 1)
    }

    @Test("EAGAIN drops one tone and keeps the device")
    func wouldBlock() throws {
        environment.nodes["\(directory)/event2"] = FakeBeeperEnvironment.speaker
        let source = try source()
        let writer = try #require(environment.opened.last)
        writer.failure = .wouldBlock
        source.sound(hertz: 2000, now: now)
        writer.failure = nil
        source.sound(hertz: 0, now: now)
        #expect(source.devicePath == "\(directory)/event2")
        #expect(writer.pitches == [0, 0])
        #expect(!logs.contains("beeper lost"))
    }
}
