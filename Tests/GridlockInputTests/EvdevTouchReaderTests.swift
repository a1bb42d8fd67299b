import GridlockCore
import GridlockInput
import GridlockEvdev
import LinuxSys
import Testing

@Suite("EvdevTouchReader: draining, SYN_DROPPED, device loss")
struct EvdevTouchReaderTests {
    typealias C = InputCodes

    /// FT5406: protocol B, axes 0...799 x 0...479, on an 800x480 frame.
    static func reader() throws -> EvdevTouchReader {
        let device = try Fixtures.device("ft5406-multitouch")
        let pipeline = try TouchPipeline(
            device: device, calibration: .identity, rotation: .none, frame: Size(width: 800, height: 480))
        return EvdevTouchReader(pipeline: pipeline)
    }

    /// Where the pipeline puts a raw position (computed by the mapper, so rounding agrees).
    static func p(_ x: Int32, _ y: Int32) -> Point {
        let mapper = try! CoordinateMapper(
            x: AbsInfo(minimum: 0, maximum: 799), y: AbsInfo(minimum: 0, maximum: 479), frame: Size(width: 800, height: 480))
        let point = mapper.point(x: x, y: y)
        // The FT5406's half-unit centring, checked once here so the tests read in device units.
        precondition(abs(point.x - (Double(x) + 0.5)) < 1e-9 && abs(point.y - (Double(y) + 0.5)) < 1e-9)
        return point
    }

    @Test("SYN_DROPPED: sync events read in sync mode to EAGAIN, stroke cancelled, held finger ignored until it lifts")
    func droppedEventsCancelTheStroke() throws {
        var reader = try Self.reader()
        var before = EventScript()
        before.key(C.BTN_TOUCH, 1)
        before.contact(slot: 0, id: 1, x: 100, y: 100)
        before.report()
        before.contact(slot: 0, x: 150, y: 100)
        before.report()
        let dropTime = before.time
        let dropped = InputEvent(time: dropTime, type: C.EV_SYN, code: C.SYN_DROPPED, value: 0)

        var after = EventScript(time: dropTime + .milliseconds(50))
        after.contact(slot: 0, x: 300, y: 100)  // the finger held across the drop moves on
        after.report()
        after.lift(slot: 0)
        after.key(C.BTN_TOUCH, 0)
        after.report()
        after.key(C.BTN_TOUCH, 1)
        after.contact(slot: 1, id: 2, x: 400, y: 200)  // a new touch starts a stroke
        after.report()

        let syncTime = dropTime + .milliseconds(5)
        let source = FakeEventSource(
            normal: before.events.asReads + [.syncNeeded(dropped)] + after.events.asReads,
            sync: [
                .event(InputEvent(time: syncTime, type: C.EV_ABS, code: C.ABS_MT_POSITION_X, value: 250)),
                .event(InputEvent(time: syncTime, type: C.EV_SYN, code: C.SYN_REPORT, value: 0)),
            ],
            snapshot: TouchSnapshot(
                currentSlot: 0, slots: [.init(trackingID: 1, x: 250, y: 100)], touching: true))

        var emitted: [Emitted] = []
        let outcome = reader.drain(source, now: .seconds(99)) { emitted.append(Emitted(touch: $0, time: $1)) }

        #expect(outcome == .drained)
        #expect(emitted.map(\.touch) == [
            .down(Self.p(100, 100)), .move(Self.p(150, 100)), .cancel(.eventsDropped), .down(Self.p(400, 200)),
        ])
        // The cancel carries the time of the last sync event, not the loop's clock.
        #expect(emitted[2].time == syncTime)
        #expect(reader.dropCount == 1)
        #expect(reader.lastFrameTime == after.events.last!.time)
        // Normal reads stop at SYN_DROPPED, sync reads run to EAGAIN, then normal reads go on.
        let modes = source.reads.map(\.sync)
        let firstSync = try #require(modes.firstIndex(of: true))
        #expect(modes[firstSync..<(firstSync + 3)] == [true, true, true])
        #expect(source.reads[firstSync + 2].result == .exhausted)
        #expect(source.reads[firstSync - 1].result == .syncNeeded(dropped))
        #expect(!modes[(firstSync + 3)...].contains(true))
        #expect(source.reads.last?.result == .exhausted)
    }

    @Test("SYN_DROPPED with nothing down: the next touch is a normal stroke")
    func dropWithoutFinger() throws {
        var reader = try Self.reader()
        var script = EventScript()
        script.key(C.BTN_TOUCH, 1)
        script.contact(slot: 0, id: 7, x: 10, y: 20)
        script.report()
        let dropped = InputEvent(time: .milliseconds(0), type: C.EV_SYN, code: C.SYN_DROPPED, value: 0)
        let source = FakeEventSource(normal: [.syncNeeded(dropped)] + script.events.asReads)
        var emitted: [TouchEvent] = []
        _ = reader.drain(source, now: .zero) { touch, _ in emitted.append(touch) }
        #expect(emitted == [.down(Self.p(10, 20))])
    }

    @Test("a device lost mid-stroke cancels it at the loop's time", arguments: [Errno.noSuchDevice, Errno.ioError])
    func lossCancelsTheStroke(error: Errno) throws {
        var reader = try Self.reader()
        var script = EventScript()
        script.key(C.BTN_TOUCH, 1)
        script.contact(slot: 0, id: 1, x: 100, y: 100)
        script.report()
        let source = FakeEventSource(normal: script.events.asReads + [.failed(error)] + script.events.asReads)
        var emitted: [Emitted] = []
        let outcome = reader.drain(source, now: .seconds(5)) { emitted.append(Emitted(touch: $0, time: $1)) }
        #expect(outcome == .lost(error))
        #expect(emitted == [
            Emitted(touch: .down(Self.p(100, 100)), time: script.events.last!.time),
            Emitted(touch: .cancel(.deviceLost), time: .seconds(5)),
        ])
        // Nothing is read after the failure.
        #expect(source.normal.count == script.events.count)
    }

    @Test("a device lost while syncing cancels the stroke as lost")
    func lossDuringSync() throws {
        var reader = try Self.reader()
        var script = EventScript()
        script.key(C.BTN_TOUCH, 1)
        script.contact(slot: 0, id: 1, x: 100, y: 100)
        script.report()
        let dropped = InputEvent(time: script.time, type: C.EV_SYN, code: C.SYN_DROPPED, value: 0)
        let source = FakeEventSource(
            normal: script.events.asReads + [.syncNeeded(dropped)], sync: [.failed(.noSuchDevice)])
        var emitted: [TouchEvent] = []
        let outcome = reader.drain(source, now: .seconds(1)) { touch, _ in emitted.append(touch) }
        #expect(outcome == .lost(.noSuchDevice))
        #expect(emitted == [.down(Self.p(100, 100)), .cancel(.deviceLost)])
    }

    @Test("a finger already down when the device is opened does not start a stroke")
    func fingerDownAtOpen() throws {
        var reader = try Self.reader()
        let source = FakeEventSource(
            snapshot: TouchSnapshot(currentSlot: 0, slots: [.init(trackingID: 3, x: 50, y: 50)], touching: true))
        var emitted: [TouchEvent] = []
        reader.start(source, at: .zero) { touch, _ in emitted.append(touch) }
        var script = EventScript()
        script.contact(slot: 0, x: 60, y: 50)
        script.report()
        script.lift(slot: 0)
        script.key(C.BTN_TOUCH, 0)
        script.report()
        script.key(C.BTN_TOUCH, 1)
        script.contact(slot: 0, id: 4, x: 70, y: 80)
        script.report()
        source.normal = script.events.asReads
        _ = reader.drain(source, now: .zero) { touch, _ in emitted.append(touch) }
        #expect(emitted == [.down(Self.p(70, 80))])
    }
}
