import GridlockCore
import GridlockInput

extension FuzzTargets {
    /// Arbitrary kernel event streams through `TouchPipeline` (decoder and mapper) into a
    /// `LockMachine`, with a shell that does what `LockService` and the daemon's loop do:
    /// persists (sometimes failing, as a full disk does), answers checks, fires timers.
    /// Besides not crashing, the properties that make it a lock must hold for every stream.
    static let touchPipeline = FuzzTarget(
        name: "touch-pipeline",
        summary: "kernel event streams through the touch decoder, mapper, tracker and lock machine; the lock's rules hold",
        maximumLength: TouchPipelineFuzz.headerLength + TouchPipelineFuzz.maximumRecords * TouchPipelineFuzz.recordLength,
        run: { bytes throws(FuzzFinding) in try TouchPipelineFuzz.run(bytes) },
        seeds: TouchPipelineFuzz.seeds)
}

/// The input: a 4-byte header, then 8-byte records.
///
/// - header 0: the panel (`panels`);
/// - header 1: bits 0-1 rotation, 2-3 calibration, 4 no path shown, 5 no stuck-touch timeout,
///   6 time starts ten minutes before the end of `Instant`;
/// - header 2: bits 0-1 lockout schedule, 2-3 minimum nodes;
/// - header 3: bits 0-1 grid, 2-4 every how many writes of the state file one fails (0: none),
///   5-7 the state read at start;
/// - record: byte 0 the event type (its low five bits), or from 0xF0 to 0xF4 something the
///   daemon does (resync after SYN_DROPPED, device lost, rotation changed, a spurious timer,
///   `reset-lockout`); bytes 1-2 the code, 3-6 the value (little-endian); byte 7 the time
///   since the last record (`step`).
enum TouchPipelineFuzz {
    static let headerLength = 4
    static let recordLength = 8
    /// Enough for a whole pattern drawn at 100 Hz; longer inputs only run slower.
    static let maximumRecords = 512
    /// Ten minutes before the end of time, to run the saturating time arithmetic.
    static let nearEndOfTime = Instant(nanoseconds: .max - 600_000_000_000)

    struct Panel: Sendable {
        var device: DeviceDescription
        /// The screen the fixture recordings of this panel were drawn for.
        var screen: Size
    }

    /// The panels of the recordings in Tests/Fixtures (so their seeds draw real patterns),
    /// and one with extreme axes.
    static let panels: [Panel] = [
        Panel(device: device("ILITEK ILITEK-TP", multitouchB(x: 0...4095, y: 0...4095), timestamps: true),
              screen: Size(width: 1280, height: 800)),
        Panel(device: device("FT5406 memory based driver", multitouchB(x: 0...799, y: 0...479)),
              screen: Size(width: 800, height: 480)),
        Panel(device: device("Goodix Capacitive TouchScreen", multitouchB(x: 0...799, y: 0...479, contactSize: true)),
              screen: Size(width: 800, height: 480)),
        Panel(device: device("ft5x0x_ts", [
                  InputCodes.ABS_MT_TOUCH_MAJOR: AbsInfo(minimum: 0, maximum: 255), 0x32: AbsInfo(minimum: 0, maximum: 200),
                  InputCodes.ABS_MT_POSITION_X: AbsInfo(minimum: 0, maximum: 1023),
                  InputCodes.ABS_MT_POSITION_Y: AbsInfo(minimum: 0, maximum: 599),
              ], direct: false),
              screen: Size(width: 1024, height: 600)),
        Panel(device: device("eGalax Inc. USB TouchController", [
                  InputCodes.ABS_X: AbsInfo(minimum: 0, maximum: 2047, fuzz: 4),
                  InputCodes.ABS_Y: AbsInfo(minimum: 0, maximum: 2047, fuzz: 4),
              ], direct: false),
              screen: Size(width: 1024, height: 768)),
        Panel(device: device("extreme axes", multitouchB(x: Int32.min...Int32.max, y: -1...0)),
              screen: Size(width: 800, height: 480)),
    ]

    static let calibrations: [CalibrationMatrix] = [
        .identity,
        try! CalibrationMatrix(values: [0, -1, 1, 1, 0, 0]),  // libinput's 90° example
        try! CalibrationMatrix(values: [1.2, 0.1, -0.1, 0, 0.9, 0.05]),
        try! CalibrationMatrix(values: [-1, 0, 1, 0, 1, 0]),
    ]

    static let schedules: [LockoutSchedule] = [
        .android, try! LockoutSchedule(text: "0,0,1,5,60"), .none,
        try! LockoutSchedule(text: "0,0,\(LockoutSchedule.longestDelay.components.seconds)"),
    ]

    static let shapes: [GridShape] = [.standard, try! GridShape(rows: 4, columns: 4), try! GridShape(rows: 2, columns: 2),
                                      try! GridShape(rows: 5, columns: 3)]

    /// What the state file said at start: clean, a few failures, a lockout in force, the saturated count.
    static let startingStates: [AttemptState] = [
        .clean, AttemptState(failures: 4), AttemptState(failures: 5, lockoutPending: true),
        AttemptState(failures: 9), AttemptState(failures: 140, lockoutPending: true),
        AttemptState(failures: AttemptState.maximumFailures - 1),
        AttemptState(failures: AttemptState.maximumFailures, lockoutPending: true), AttemptState(failures: 1),
    ]

    static func run(_ bytes: [UInt8]) throws(FuzzFinding) {
        guard bytes.count >= headerLength else { return }
        let header = Array(bytes.prefix(headerLength))
        let panel = panels[Int(header[0]) % panels.count]
        var rotation = Rotation.allCases[Int(header[1] & 3)]
        let shape = shapes[Int(header[3] & 3)]
        var settings = LockSettings()
        settings.showPath = header[1] & 0x10 == 0
        settings.stuckTouchTimeout = header[1] & 0x20 == 0 ? .milliseconds(5000) : nil
        settings.schedule = schedules[Int(header[2] & 3)]
        settings.minimumNodes = min([4, 2, 3, 5][Int(header[2] >> 2 & 3)], shape.nodeCount)

        var pipeline: TouchPipeline
        do {
            pipeline = try TouchPipeline(
                device: panel.device, calibration: calibrations[Int(header[1] >> 2 & 3)], rotation: rotation,
                frame: rotation.logicalSize(physical: panel.screen))
        } catch {
            throw FuzzFinding("the built-in panel '\(panel.device.name)' is refused: \(error)")
        }
        var shell = Shell(
            machine: LockMachine(
                layout: layout(shape, rotation.logicalSize(physical: panel.screen)), settings: settings,
                attempts: startingStates[Int(header[3] >> 5)]),
            now: header[1] & 0x40 != 0 ? nearEndOfTime : .seconds(1000),
            failingWrite: Int(header[3] >> 2 & 7), disk: startingStates[Int(header[3] >> 5)])
        try shell.start()

        var touches: [(TouchEvent, Instant)] = []
        var offset = headerLength
        while offset + recordLength <= bytes.count {
            let record = bytes[offset..<(offset + recordLength)]
            offset += recordLength
            let r = Array(record)
            let at = shell.now + step(r[7])
            try shell.runTimers(until: at)
            shell.now = max(shell.now, at)
            let code = UInt16(r[1]) | UInt16(r[2]) << 8
            let value = Int32(bitPattern: UInt32(r[3]) | UInt32(r[4]) << 8 | UInt32(r[5]) << 16 | UInt32(r[6]) << 24)
            touches.removeAll(keepingCapacity: true)
            switch r[0] {
            case 0xF0:
                pipeline.resync(snapshot(code: code, value: value, slots: Int(r[1] % 12)), at: shell.now) { touches.append(($0, $1)) }
            case 0xF1:
                pipeline.deviceLost(at: shell.now) { touches.append(($0, $1)) }
            case 0xF2:
                // The display turned: the daemon moves the touch frame and lays the grid out anew.
                rotation = Rotation.allCases[Int(r[1] & 3)]
                let frame = rotation.logicalSize(physical: panel.screen)
                pipeline.setFrame(frame, rotation: rotation)
                try shell.reconfigure(layout: layout(shape, frame))
            case 0xF3:
                try shell.handle(.timerFired)
            case 0xF4:
                try shell.clearFailures()
            default:
                pipeline.feed(InputEvent(time: shell.now, type: UInt16(r[0] & 0x1f), code: code, value: value)) {
                    touches.append(($0, $1))
                }
            }
            for (touch, time) in touches {
                switch touch {
                case .down(let p), .move(let p):
                    try require(p.x.isFinite && p.y.isFinite, "the mapper made a point that is not finite: \(p)")
                case .up, .cancel: break
                }
                try require(time <= shell.now, "a touch at \(time), after the event that ended its frame (\(shell.now))")
                try shell.handle(.touch(touch))
            }
        }
        // A minute after the last event, as if nobody touched the panel any more.
        try shell.runTimers(until: shell.now + .seconds(60))
    }

    /// Byte 7 of a record: 0-199 milliseconds, then 1-50 seconds, then 1-5 hours, then a day.
    static func step(_ byte: UInt8) -> Duration {
        switch byte {
        case 0..<200: .milliseconds(Int(byte))
        case 200..<250: .seconds(Int(byte) - 199)
        case 250..<255: .seconds(3600 * (Int(byte) - 249))
        default: .seconds(86400)
        }
    }

    static func layout(_ shape: GridShape, _ frame: Size) -> GridLayout {
        try! GridLayout(shape: shape, frame: Rect(origin: .zero, size: frame))
    }

    /// The kernel's state handed over after a SYN_DROPPED: from the record's code and value.
    static func snapshot(code: UInt16, value: Int32, slots: Int) -> TouchSnapshot {
        let x = Int32(truncatingIfNeeded: value & 0xffff)
        let y = Int32(truncatingIfNeeded: value >> 16)
        let slotStates = (0..<slots).map { index in
            TouchSnapshot.Slot(trackingID: code & (1 << (index % 8 + 8)) != 0 ? Int32(index) : -1, x: x, y: y)
        }
        return TouchSnapshot(
            currentSlot: Int32(code >> 4 & 0xf) - 1, slots: slotStates, touching: code & 1 != 0, x: x, y: y)
    }

    /// The pattern the shell's verifier accepts: the top row, then down the right column
    /// (`1-2-3-6-9` on 3 x 3, the pattern the fixture recordings draw).
    static func secret(_ shape: GridShape) -> [Int] {
        Array(0..<shape.columns) + (1..<shape.rows).map { $0 * shape.columns + shape.columns - 1 }
    }

    // MARK: Panels

    static func device(
        _ name: String, _ axes: [UInt16: AbsInfo], direct: Bool = true, timestamps: Bool = false
    ) -> DeviceDescription {
        DeviceDescription(
            name: name, id: DeviceID(bustype: 3, vendor: 0, product: 0, version: 0),
            properties: direct ? [InputCodes.INPUT_PROP_DIRECT] : [],
            codes: [
                InputCodes.EV_SYN: [InputCodes.SYN_REPORT, InputCodes.SYN_CONFIG, InputCodes.SYN_DROPPED],
                InputCodes.EV_KEY: [InputCodes.BTN_TOUCH], InputCodes.EV_ABS: Set(axes.keys),
                InputCodes.EV_MSC: timestamps ? [InputCodes.MSC_TIMESTAMP] : [],
            ],
            axes: axes)
    }

    static func multitouchB(x: ClosedRange<Int32>, y: ClosedRange<Int32>, contactSize: Bool = false) -> [UInt16: AbsInfo] {
        var axes: [UInt16: AbsInfo] = [
            InputCodes.ABS_X: AbsInfo(minimum: x.lowerBound, maximum: x.upperBound),
            InputCodes.ABS_Y: AbsInfo(minimum: y.lowerBound, maximum: y.upperBound),
            InputCodes.ABS_MT_SLOT: AbsInfo(minimum: 0, maximum: 9),
            InputCodes.ABS_MT_POSITION_X: AbsInfo(minimum: x.lowerBound, maximum: x.upperBound),
            InputCodes.ABS_MT_POSITION_Y: AbsInfo(minimum: y.lowerBound, maximum: y.upperBound),
            InputCodes.ABS_MT_TRACKING_ID: AbsInfo(minimum: 0, maximum: 65535),
        ]
        if contactSize {
            axes[InputCodes.ABS_MT_TOUCH_MAJOR] = AbsInfo(minimum: 0, maximum: 255)
            axes[0x32] = AbsInfo(minimum: 0, maximum: 255)  // ABS_MT_WIDTH_MAJOR
        }
        return axes
    }

    // MARK: Seeds

    /// Each fixture recording whose panel is in `panels`, its events as records; time steps
    /// are rounded to what a record can say.
    static func seeds(_ fixtures: String) -> [FuzzSeed] {
        FixtureFiles.seeds(fixtures, "", suffix: ".evemu").compactMap { seed in
            guard let recording = try? EvemuRecording(parsing: String(decoding: seed.bytes, as: UTF8.self)),
                  let index = panels.firstIndex(where: { $0.device.name == recording.device.name })
            else { return nil }
            var bytes: [UInt8] = [UInt8(index), 0, 0, 0]
            var last = recording.events.first?.time ?? .zero
            for event in recording.events.prefix(maximumRecords) {
                let gap = event.time.duration(since: last)
                last = event.time
                let milliseconds = max(0, gap.nanoseconds / 1_000_000)
                let stepByte: UInt8 = milliseconds < 200 ? UInt8(milliseconds) : UInt8(min(249, 199 + (milliseconds + 500) / 1000))
                let value = UInt32(bitPattern: event.value)
                bytes += [UInt8(event.type), UInt8(event.code & 0xff), UInt8(event.code >> 8)]
                bytes += [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24), stepByte]
            }
            return FuzzSeed(seed.name, bytes)
        }
    }
}

/// What `LockService` and the daemon's loop do with the machine's effects, plus the checks.
private struct Shell {
    var machine: LockMachine
    var now: Instant
    /// Every how many writes of the state file one fails (0: none).
    let failingWrite: Int
    /// What the state file holds.
    var disk: AttemptState
    var writes = 0
    var deadline: Instant?
    /// No pattern may be checked before this instant (a lockout reported earlier).
    var lockedUntil: Instant?
    var pending: [LockEvent] = []

    init(machine: LockMachine, now: Instant, failingWrite: Int, disk: AttemptState) {
        self.machine = machine
        self.now = now
        self.failingWrite = failingWrite
        self.disk = disk
    }

    mutating func start() throws(FuzzFinding) {
        let before = machine.attempts
        try perform(machine.start(at: now), before: before, reset: false)
    }

    mutating func handle(_ event: LockEvent) throws(FuzzFinding) {
        let before = machine.attempts
        try perform(machine.handle(event, at: now), before: before, reset: false)
    }

    mutating func reconfigure(layout: GridLayout) throws(FuzzFinding) {
        let before = machine.attempts
        try perform(machine.reconfigure(layout: layout, settings: machine.settings, at: now), before: before, reset: false)
    }

    mutating func clearFailures() throws(FuzzFinding) {
        lockedUntil = nil
        let before = machine.attempts
        try perform(machine.clearFailures(at: now), before: before, reset: true)
    }

    /// Fires the timer at each deadline up to `limit`, as the loop would. After 2,000 firings
    /// in one gap (a long lockout counting down second by second) the rest come late, at
    /// `limit`, as after a suspend: the machine must cope with late firings too.
    mutating func runTimers(until limit: Instant) throws(FuzzFinding) {
        var fired = 0
        while let due = deadline, due <= limit {
            fired += 1
            try require(fired <= 2_002, "the timer keeps firing at \(now)")
            now = max(now, fired <= 2_000 ? due : limit)
            deadline = nil
            try handle(.timerFired)
            if let next = deadline {
                try require(next > now || now.nanoseconds == .max, "after firing at \(now) the timer was set for \(next)")
            }
        }
    }

    private mutating func perform(_ effects: [LockEffect], before: AttemptState, reset: Bool) throws(FuzzFinding) {
        var unrecorded = false
        var accepted = reset
        for effect in effects {
            switch effect {
            case .persist(let state):
                writes += 1
                if failingWrite > 0, writes % failingWrite == 0 {
                    unrecorded = true
                } else {
                    disk = state
                }
            case .verify where unrecorded:
                break
            case .verify(let pattern):
                try check(pattern)
                pending.append(.verified(patternName: pattern.nodes == TouchPipelineFuzz.secret(machine.layout.shape) ? "door" : nil))
            case .runAction:
                pending.append(.actionFinished)
            case .armTimer(let at):
                deadline = at
            case .disarmTimer:
                deadline = nil
            case .report(.accepted):
                accepted = true
            case .report(.lockout(let seconds, let failures)):
                let delay = machine.settings.schedule.delay(afterFailures: failures)
                try require(
                    seconds > 0 && Int64(seconds) == delay.secondsRoundedUp && failures == machine.attempts.failures,
                    "a lockout of \(seconds) s after \(failures) failures (machine: \(machine.attempts.failures)); the schedule says \(delay)")
                lockedUntil = now + delay
            case .answer(let check, _):
                // Only the panel's finger draws here: no face asked for anything.
                try require(false, "answered \(check), which no face asked for")
            case .render, .report, .enrolled:
                break
            }
        }
        let after = machine.attempts
        try require(
            after.failures >= before.failures || accepted,
            "the failure count fell from \(before.failures) to \(after.failures) with no pattern accepted")
        try require(after.failures <= AttemptState.maximumFailures, "failure count \(after.failures) beyond the maximum")
        if unrecorded { try handle(.persistFailed) }
        while !pending.isEmpty { try handle(pending.removeFirst()) }
        try require(!waitsForTimer || deadline != nil, "\(machine.phase) waits for a timer that is not set")
    }

    /// A pattern is only ever checked with its failure already on disk, never during a
    /// lockout, and only when it is long enough.
    private func check(_ pattern: Pattern) throws(FuzzFinding) {
        try require(
            disk == machine.attempts && disk.failures > 0,
            "a pattern is checked before its failure is on disk (disk \(disk), machine \(machine.attempts))")
        if let lockedUntil {
            try require(now >= lockedUntil, "a pattern is checked at \(now), during a lockout until \(lockedUntil)")
        }
        try require(
            pattern.count >= machine.settings.minimumNodes && pattern.nodes.allSatisfy { $0 < machine.layout.shape.nodeCount },
            "checked a pattern of \(pattern.count) nodes on \(machine.layout.shape) (minimum \(machine.settings.minimumNodes))")
    }

    /// Phases that end only when the timer fires.
    private var waitsForTimer: Bool {
        switch machine.phase {
        case .rejected, .tooShort, .notRecorded, .lockedOut, .enrollRetry, .accepted(_, _, _, false): true
        default: false
        }
    }
}
