import GridlockCore
import GridlockInput
import GridlockEvdev
import Testing

@Suite("TouchDecoder on recordings")
struct TouchDecoderRecordingTests {
    @Test(
        "one finger drawing 1-2-3-6-9 decodes to one stroke through those nodes",
        arguments: [
            ("protocol-b-1-2-3-6-9.evemu", TouchProtocol.protocolB),
            ("protocol-a-1-2-3-6-9.evemu", .protocolA),
            ("single-touch-1-2-3-6-9.evemu", .singleTouch),
        ])
    func singleStroke(fixture: String, expected: TouchProtocol) throws {
        let recording = try Fixtures.recording(fixture)
        #expect(try TouchProtocol(device: recording.device) == expected)
        let steps = try decode(recording)
        let all = strokes(steps)
        try #require(all.count == 1)
        let stroke = all[0]
        guard case .down = stroke.first?.touch else { Issue.record("stroke must start with down"); return }
        #expect(stroke.last?.touch == .up)
        #expect(stroke.dropFirst().dropLast().allSatisfy { if case .move = $0.touch { true } else { false } })
        #expect(stroke.count > 50, "every frame is a sample")
        #expect(zip(stroke, stroke.dropFirst()).allSatisfy { $0.time < $1.time })
        let frame = try #require(Fixtures.screen(for: recording.device))
        #expect(try nodesVisited(stroke, device: recording.device, frame: frame) == [1, 2, 3, 6, 9])
        // The up comes with the lift frame's SYN_REPORT, the recording's last event.
        #expect(stroke.last?.time == recording.events.last?.time)
    }

    @Test("a second finger landing mid-stroke neither moves nor restarts the stroke")
    func secondFinger() throws {
        let recording = try Fixtures.recording("second-finger-1-2-3-6-9.evemu")
        let secondSlotEvents = recording.events.filter {
            $0.type == InputCodes.EV_ABS && $0.code == InputCodes.ABS_MT_SLOT && $0.value == 1
        }
        #expect(!secondSlotEvents.isEmpty, "the fixture must really have a second finger")
        let all = strokes(try decode(recording))
        try #require(all.count == 1)
        let frame = try #require(Fixtures.screen(for: recording.device))
        #expect(try nodesVisited(all[0], device: recording.device, frame: frame) == [1, 2, 3, 6, 9])
        #expect(all[0].last?.touch == .up)
        // The second finger is still down when the primary lifts; it must not start a stroke.
        let lifts = recording.events.filter { $0.code == InputCodes.ABS_MT_TRACKING_ID && $0.value == -1 }
        try #require(lifts.count == 2)
        #expect(all[0].last!.time == lifts[0].time)
        #expect(all[0].last!.time < lifts[1].time)
    }

    @Test("Goodix-style panels: BTN_TOUCH 0 releases, and the next touch without a TRACKING_ID starts a stroke")
    func goodixRelease() throws {
        let recording = try Fixtures.recording("goodix-release-1-2-3-6-9.evemu")
        #expect(!recording.events.contains { $0.code == InputCodes.ABS_MT_TRACKING_ID && $0.value == -1 })
        let all = strokes(try decode(recording))
        try #require(all.count == 2)
        let frame = try #require(Fixtures.screen(for: recording.device))
        for stroke in all {
            #expect(stroke.last?.touch == .up)
            #expect(try nodesVisited(stroke, device: recording.device, frame: frame) == [1, 2, 3, 6, 9])
        }
        #expect(all[1][0].time.duration(since: all[0].last!.time) >= .seconds(1.5))
    }

    @Test(
        "multi-stroke recordings decode to the patterns they were drawn with",
        arguments: [
            ("demo-wrong-then-right.evemu", [[1, 4, 7, 8], [1, 2, 3, 6, 9]]),
            (
                "lockout-five-wrong.evemu",
                [[1, 4, 7, 8], [3, 2, 1, 4, 7], [7, 5, 3, 6], [1, 5, 9, 8], [2, 5, 8, 7], [1, 2, 3, 6, 9]]
            ),
            ("too-short.evemu", [[1, 2, 3]]),
        ])
    func multiStroke(fixture: String, patterns: [[Int]]) throws {
        let recording = try Fixtures.recording(fixture)
        let all = strokes(try decode(recording))
        let frame = try #require(Fixtures.screen(for: recording.device))
        #expect(try all.map { try nodesVisited($0, device: recording.device, frame: frame) } == patterns)
        #expect(all.allSatisfy { $0.last?.touch == .up })
    }

    @Test("the lockout recording waits 35 s before the right pattern")
    func lockoutTiming() throws {
        let all = strokes(try decode(try Fixtures.recording("lockout-five-wrong.evemu")))
        try #require(all.count == 6)
        let pause = all[5][0].time.duration(since: all[4].last!.time)
        #expect(pause >= .seconds(35) && pause < .seconds(36))
    }
}

@Suite("TouchDecoder on hand-written event streams")
struct TouchDecoderScriptTests {
    @Test("SYN_DROPPED mid-stroke cancels it; the held finger is ignored; the next stroke works")
    func droppedMidStroke() throws {
        let recording = try Fixtures.recording("protocol-b-1-2-3-6-9.evemu")
        let events = recording.events
        let middle = try #require(
            events.indices.filter { events[$0].code == InputCodes.SYN_REPORT && events[$0].type == 0 }
                .dropFirst(30).first)
        var stream = Array(events[...middle])
        let t = events[middle].time
        stream.append(InputEvent(time: t, type: InputCodes.EV_SYN, code: InputCodes.SYN_DROPPED, value: 0))
        // What arrives between SYN_DROPPED and the next SYN_REPORT is to be ignored.
        stream.append(InputEvent(time: t, type: InputCodes.EV_ABS, code: InputCodes.ABS_MT_POSITION_X, value: 9))
        stream += events[(middle + 1)...]
        let offset = events.last!.time.duration(since: .zero) + .seconds(2)
        stream += events.map { InputEvent(time: $0.time + offset, type: $0.type, code: $0.code, value: $0.value) }

        let all = strokes(try decode(EvemuRecording(device: recording.device, events: stream)))
        try #require(all.count == 2)
        #expect(all[0].last?.touch == .cancel(.eventsDropped))
        #expect(all[0].last?.time == t)
        #expect(all[1].last?.touch == .up)
        let frame = try #require(Fixtures.screen(for: recording.device))
        #expect(try nodesVisited(all[1], device: recording.device, frame: frame) == [1, 2, 3, 6, 9])
    }

    @Test(
        "a device unplugged mid-stroke: the input core's key release (SYN_REPORT 1) cancels the stroke, never ends it",
        arguments: [TouchProtocol.protocolB, .protocolA, .singleTouch])
    func unpluggedMidStroke(touchProtocol: TouchProtocol) {
        var script = EventScript()
        func finger(_ x: Int32, id: Int32? = nil) {
            switch touchProtocol {
            case .protocolB: script.contact(slot: 0, id: id, x: x, y: 50)
            case .protocolA:
                script.abs(InputCodes.ABS_MT_POSITION_X, x)
                script.abs(InputCodes.ABS_MT_POSITION_Y, 50)
                script.mtReport()
            case .singleTouch:
                script.abs(InputCodes.ABS_X, x)
                script.abs(InputCodes.ABS_Y, 50)
            }
        }
        finger(100, id: 1); script.key(InputCodes.BTN_TOUCH, 1); script.report()
        finger(200); script.report()
        // The cable is pulled: hid-multitouch sends nothing more; the input core releases
        // BTN_TOUCH (and BTN_TOOL_FINGER) and closes the frame with SYN_REPORT 1. Without
        // this rule the frame reads as a Goodix-style lift and the stroke counts as an attempt.
        script.inputCoreRelease(keys: [InputCodes.BTN_TOOL_FINGER, InputCodes.BTN_TOUCH])
        var decoder = TouchDecoder(protocol: touchProtocol, slotCount: 4)
        let steps = decode(script.events, with: &decoder)
        #expect(steps.map(\.touch) == [.down(x: 100, y: 50), .move(x: 200, y: 50), .cancel(.deviceLost)])
        #expect(steps.last?.time == script.events.last?.time)
        #expect(!decoder.isStrokeActive)

        // The same release at a reset (resume) keeps the device: a new touch starts a new stroke.
        var next = EventScript()
        next.time = script.time
        if touchProtocol == .protocolA { next.report() }  // protocol A: a frame with no contact first
        switch touchProtocol {
        case .protocolB: next.contact(slot: 0, id: 2, x: 300, y: 60)
        case .protocolA:
            next.abs(InputCodes.ABS_MT_POSITION_X, 300); next.abs(InputCodes.ABS_MT_POSITION_Y, 60); next.mtReport()
        case .singleTouch: next.abs(InputCodes.ABS_X, 300); next.abs(InputCodes.ABS_Y, 60)
        }
        next.key(InputCodes.BTN_TOUCH, 1); next.report()
        #expect(decode(next.events, with: &decoder).map(\.touch) == [.down(x: 300, y: 60)])
    }

    @Test("a drivers' lift frame (SYN_REPORT 0) still ends the stroke, Goodix-style BTN_TOUCH 0 included")
    func driverLiftStillEnds() {
        var script = EventScript()
        script.contact(slot: 0, id: 1, x: 100, y: 50); script.key(InputCodes.BTN_TOUCH, 1); script.report()
        script.key(InputCodes.BTN_TOUCH, 0); script.report()
        var decoder = TouchDecoder(protocol: .protocolB)
        #expect(decode(script.events, with: &decoder).map(\.touch) == [.down(x: 100, y: 50), .up])
    }

    @Test("a second finger that lands first in slot 1 is the primary; slot 0 landing later is ignored")
    func primaryIsFirstDown() {
        var script = EventScript()
        script.contact(slot: 1, id: 7, x: 100, y: 100)
        script.report()
        script.contact(slot: 0, id: 8, x: 500, y: 500)
        script.report()
        script.contact(slot: 0, x: 510, y: 510)
        script.report()
        script.contact(slot: 1, x: 120, y: 100)
        script.report()
        script.lift(slot: 1)
        script.report()
        script.contact(slot: 0, x: 520, y: 520)  // still down: no new stroke
        script.report()
        script.lift(slot: 0)
        script.report()
        script.contact(slot: 0, id: 9, x: 300, y: 300)  // everything lifted: a new stroke
        script.report()
        var decoder = TouchDecoder(protocol: .protocolB, slotCount: 10)
        let touches = decode(script.events, with: &decoder).map(\.touch)
        #expect(touches == [.down(x: 100, y: 100), .move(x: 120, y: 100), .up, .down(x: 300, y: 300)])
    }

    @Test("frames without a change of the primary emit nothing; each changed frame emits one step")
    func oneStepPerFrame() {
        var script = EventScript()
        script.contact(slot: 0, id: 1, x: 10, y: 10)
        script.report()
        script.abs(InputCodes.ABS_MT_POSITION_X, 10)  // unchanged value
        script.report()
        script.abs(InputCodes.ABS_MT_POSITION_X, 11)
        script.report()
        script.abs(InputCodes.ABS_MT_POSITION_X, 12)
        script.report()
        var decoder = TouchDecoder(protocol: .protocolB)
        let steps = decode(script.events, with: &decoder)
        #expect(steps.map(\.touch) == [.down(x: 10, y: 10), .move(x: 11, y: 10), .move(x: 12, y: 10)])
        #expect(steps.map(\.time) == [.milliseconds(1), .milliseconds(21), .milliseconds(31)])
    }

    @Test("MT axes win over the pointer emulation's ABS_X/ABS_Y")
    func prefersMultitouch() throws {
        let device = try Fixtures.device("ilitek-multitouch")
        #expect(try TouchProtocol(device: device) == .protocolB)
        var script = EventScript()
        script.contact(slot: 0, id: 1, x: 10, y: 20)
        script.key(InputCodes.BTN_TOUCH, 1)
        script.abs(InputCodes.ABS_X, 999)
        script.abs(InputCodes.ABS_Y, 999)
        script.report()
        var decoder = try TouchDecoder(device: device)
        #expect(decode(script.events, with: &decoder).map(\.touch) == [.down(x: 10, y: 20)])
    }

    @Test("protocol A with tracking IDs follows the primary's ID, not the first listed contact")
    func protocolATrackingIDs() {
        var script = EventScript()
        func contact(_ id: Int32, _ x: Int32) {
            script.abs(InputCodes.ABS_MT_TRACKING_ID, id)
            script.abs(InputCodes.ABS_MT_POSITION_X, x)
            script.abs(InputCodes.ABS_MT_POSITION_Y, 50)
            script.mtReport()
        }
        contact(4, 100); script.report()
        contact(5, 900); contact(4, 110); script.report()  // the second finger is listed first
        contact(5, 905); script.report()  // the primary is gone
        contact(5, 910); script.report()  // still a finger down: nothing
        script.mtReport(); script.report()  // all lifted
        contact(6, 300); script.report()
        var decoder = TouchDecoder(protocol: .protocolA)
        #expect(
            decode(script.events, with: &decoder).map(\.touch)
                == [.down(x: 100, y: 50), .move(x: 110, y: 50), .up, .down(x: 300, y: 50)])
    }

    @Test("protocol A after SYN_DROPPED waits until every finger has lifted")
    func protocolADrop() {
        var script = EventScript()
        func contact(_ x: Int32) {
            script.abs(InputCodes.ABS_MT_POSITION_X, x)
            script.abs(InputCodes.ABS_MT_POSITION_Y, 50)
            script.mtReport()
        }
        contact(100); script.report()
        script.dropped(); contact(120); script.report()
        contact(130); script.report()  // the held finger: ignored
        script.report()  // a frame without contacts: released
        contact(200); script.report()
        var decoder = TouchDecoder(protocol: .protocolA)
        #expect(
            decode(script.events, with: &decoder).map(\.touch)
                == [.down(x: 100, y: 50), .cancel(.eventsDropped), .down(x: 200, y: 50)])
    }

    @Test("single touch: BTN_TOUCH starts and ends the stroke; position changes move it")
    func singleTouch() {
        var script = EventScript()
        script.abs(InputCodes.ABS_X, 5); script.abs(InputCodes.ABS_Y, 6); script.key(InputCodes.BTN_TOUCH, 1)
        script.report()
        script.abs(InputCodes.ABS_Y, 7); script.report()
        script.key(InputCodes.BTN_TOUCH, 0); script.report()
        script.abs(InputCodes.ABS_X, 8); script.report()  // hovering resistive noise: nothing
        var decoder = TouchDecoder(protocol: .singleTouch)
        #expect(decode(script.events, with: &decoder).map(\.touch) == [.down(x: 5, y: 6), .move(x: 5, y: 7), .up])
    }

    @Test("resync cancels the stroke and waits for the fingers the kernel says are down")
    func resync() {
        var decoder = TouchDecoder(protocol: .protocolB, slotCount: 4)
        var steps: [Step] = []
        var script = EventScript()
        script.contact(slot: 0, id: 1, x: 10, y: 10)
        script.report()
        for event in script.events { decoder.feed(event) { steps.append(Step(touch: $0, time: $1)) } }
        decoder.feed(InputEvent(time: .milliseconds(20), type: 0, code: InputCodes.SYN_DROPPED, value: 0)) {
            steps.append(Step(touch: $0, time: $1))
        }
        let snapshot = TouchSnapshot(
            currentSlot: 2, slots: [.empty, .empty, TouchSnapshot.Slot(trackingID: 3, x: 40, y: 40)], touching: true)
        decoder.resync(snapshot, at: .milliseconds(25)) { steps.append(Step(touch: $0, time: $1)) }
        #expect(!decoder.isStrokeActive)
        var after = EventScript()
        after.time = .milliseconds(30)
        after.abs(InputCodes.ABS_MT_POSITION_X, 41)  // slot 2, as the snapshot says
        after.report()
        after.contact(slot: 0, id: 4, x: 70, y: 70)  // another finger while slot 2 is down: ignored
        after.report()
        after.lift(slot: 0); after.lift(slot: 2); after.key(InputCodes.BTN_TOUCH, 0)
        after.report()
        after.contact(slot: 1, id: 5, x: 90, y: 90); after.key(InputCodes.BTN_TOUCH, 1)
        after.report()
        steps += decode(after.events, with: &decoder)
        #expect(
            steps.map(\.touch) == [.down(x: 10, y: 10), .cancel(.eventsDropped), .down(x: 90, y: 90)])
        #expect(steps[1].time == .milliseconds(20))
    }

    @Test("reset forgets the stroke and the fingers")
    func reset() {
        var script = EventScript()
        script.contact(slot: 0, id: 1, x: 10, y: 10)
        script.contact(slot: 1, id: 2, x: 20, y: 20)
        script.report()
        var decoder = TouchDecoder(protocol: .protocolB)
        _ = decode(script.events, with: &decoder)
        #expect(decoder.isStrokeActive)
        decoder.reset()
        #expect(!decoder.isStrokeActive)
        var next = EventScript()
        next.contact(slot: 3, id: 9, x: 1, y: 2)
        next.report()
        #expect(decode(next.events, with: &decoder).map(\.touch) == [.down(x: 1, y: 2)])
    }

    @Test("a device without position axes is refused with its name")
    func noPositionAxes() throws {
        let mouse = try Fixtures.device("logitech-mouse")
        #expect(throws: TouchDecoderError.noPositionAxes(device: "Logitech USB Optical Mouse")) {
            try TouchDecoder(device: mouse)
        }
    }

    @Test("the slot count comes from ABS_MT_SLOT; slots beyond it are ignored")
    func slotCount() throws {
        let decoder = try TouchDecoder(device: try Fixtures.device("ilitek-multitouch"))
        #expect(decoder.slotCount == 10)
        var script = EventScript()
        script.contact(slot: 12, id: 1, x: 5, y: 5)
        script.report()
        var copy = decoder
        #expect(decode(script.events, with: &copy).isEmpty)
    }
}
