import GridlockCore
import Testing

@testable import GridlockDisplay

// A model of the display, the finger and the daemon's loop, in virtual time, driving the real
// `FlipSchedule` (and its `LatchMargin`) for thousands of frames. Everything random comes from
// one seeded SplitMix generator, so every run sees the same vblanks, touches and render times; no
// clock is read and nothing sleeps. The goals it checks, for every machine modelled:
//
// 1. Missed deadlines under 1 %: of the input frames read before their interval's latch point
//    (the next vblank less the margin in force), fewer than 1 in 100 reach the screen a
//    vblank later than that vblank.
// 2. Age p99 (vblank time less the newest input a flip carried) at most the margin plus one
//    input period plus the render p99: what a latch can promise.
// 3. The margin settled on at most render p99 + (copy + commit) p99 + 1 ms: a huge margin
//    would meet the first two for nothing.

/// The model's draws from the suite's seeded generator (`SplitMix`, BufferDamageTests).
extension SplitMix {
    /// Uniform in [0, 1), from the top 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in `low..<high`.
    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Bell-shaped in `low..<high` (the mean of three uniforms), without a libm call.
    mutating func bell(_ low: Double, _ high: Double) -> Double { low + (high - low) * (unit() + unit() + unit()) / 3 }
}

/// A duration as the recordings show them: a bell-shaped body, a tail of slower frames, and
/// rare spikes (a descheduled CPU, a page fault storm). All in milliseconds.
struct ModelDistribution {
    var body: (Double, Double)
    var tail: (share: Double, low: Double, high: Double)
    var spikes: (share: Double, low: Double, high: Double)

    func draw(_ rng: inout SplitMix) -> Int64 {
        let roll = rng.unit()
        let ms: Double
        if roll < spikes.share {
            ms = rng.uniform(spikes.low, spikes.high)
        } else if roll < spikes.share + tail.share {
            ms = rng.uniform(tail.low, tail.high)
        } else {
            ms = rng.bell(body.0, body.1)
        }
        return Int64(ms * 1_000_000)
    }

    /// A desktop-class machine drawing the lock screen's damage: about 2 ms.
    static let desktopRender = ModelDistribution(body: (1.4, 2.8), tail: (0.04, 2.8, 4.5), spikes: (0.001, 8, 20))
    /// A slow ARM board: about 8 ms.
    static let slowBoardRender = ModelDistribution(body: (6.8, 8.6), tail: (0.04, 8.6, 10), spikes: (0.001, 15, 30))
    /// A fast PC: about 0.3 ms.
    static let fastPCRender = ModelDistribution(body: (0.2, 0.4), tail: (0.04, 0.4, 0.9), spikes: (0.001, 2, 6))
    /// The same desktop when something else takes its GPU: about 7 ms.
    static let loadedRender = ModelDistribution(body: (6.0, 7.5), tail: (0.04, 7.5, 9), spikes: (0.001, 12, 20))
    /// Copying the damaged rectangles into the dumb buffer.
    static let copy = ModelDistribution(body: (0.08, 0.3), tail: (0.02, 0.3, 0.6), spikes: (0, 0, 0))
    /// The page-flip call, from call to return: what the shell can time.
    static let commitCall = ModelDistribution(body: (0.1, 0.3), tail: (0.02, 0.3, 0.8), spikes: (0, 0, 0))
    /// What the driver still does after the call returned, unseen by the shell.
    static let driverTail = ModelDistribution(body: (0.05, 0.4), tail: (0, 0, 0), spikes: (0, 0, 0))
    /// The same driver waiting for something else on the display engine: about 5 ms.
    static let slowDriverTail = ModelDistribution(body: (4, 6), tail: (0, 0, 0), spikes: (0, 0, 0))
}

/// What the model asks of a flip schedule: the real `FlipSchedule`, or a fixed-margin one
/// to show that the goals can fail.
protocol ModelSchedule {
    var margin: Duration { get }
    func deadline(now: Instant) -> Instant?
    mutating func frameRendered(_ render: Duration)
    mutating func flipRequested(at now: Instant, copy: Duration, commit: Duration)
    mutating func flipLanded(at vblank: Instant, period: Duration) -> Bool
}

extension FlipSchedule: ModelSchedule {}

/// The schedule as it was before the margin was learnt (a fixed margin, 1 ms wider per late
/// flip up to half a frame, never narrower), or with `widens` false a margin that never
/// moves; with `margin` nil every flip goes out at once. The vblank clock is `FlipSchedule`'s.
struct FixedMarginSchedule: ModelSchedule {
    private var clock = FlipSchedule()
    private var fixed: Duration?
    var widens: Bool

    init(margin: Duration?, widens: Bool) { (fixed, self.widens) = (margin, widens) }

    var margin: Duration { fixed ?? .zero }

    func deadline(now: Instant) -> Instant? {
        guard let fixed, let next = clock.nextVblank(after: now) else { return nil }
        let latch = next + (.zero - fixed)
        return latch > now ? latch : nil
    }

    mutating func frameRendered(_ render: Duration) {}

    mutating func flipRequested(at now: Instant, copy: Duration, commit: Duration) {
        clock.flipRequested(at: now, copy: copy, commit: commit)
    }

    mutating func flipLanded(at vblank: Instant, period: Duration) -> Bool {
        let late = clock.flipLanded(at: vblank, period: period)
        if late, widens, let fixed { self.fixed = min(fixed + .milliseconds(1), period / 2) }
        return late
    }
}

/// One machine and finger to model: the render times (switching to `laterRender` at
/// `switchAt` seconds and back at `switchBack`), the touch rate, how long to run.
struct ModelMachine {
    var render: ModelDistribution
    var touchHz: Double
    var seconds: Double = 60
    var laterRender: (ModelDistribution, switchAt: Double, switchBack: Double)? = nil
    /// What the driver does after the page-flip call returns, which the shell cannot time.
    var driverTail: ModelDistribution = .driverTail
    var laterDriverTail: (ModelDistribution, switchAt: Double, switchBack: Double)? = nil
    var seed: UInt64 = 0x6C6F_636B_7363_7265
}

/// What a run measured.
struct ModelFigures {
    /// Input frames shown, and of them those shown at the first vblank after their read (+1).
    var inputsShown = 0
    var atFirstVblank = 0
    var inputsBeforeLatch = 0
    var missed = 0
    var lateFlips: [Int64] = []
    /// Per flip: vblank less the newest input it carried, in ns.
    var ages: [Int64] = []
    var renders: [Int64] = []
    /// Copy plus page-flip call, per flip.
    var flipCosts: [Int64] = []
    /// The margin at each flip request: (when, margin), in ns.
    var margins: [(at: Int64, margin: Int64)] = []
    /// One input period: the p99 of the gaps between touch reports (their jitter widens some).
    var touchPeriod: Int64 = 0

    var missedRate: Double { inputsBeforeLatch == 0 ? 1 : Double(missed) / Double(inputsBeforeLatch) }
    var ageP99: Int64 { Self.p99(ages) }
    var renderP99: Int64 { Self.p99(renders) }
    var flipCostP99: Int64 { Self.p99(flipCosts) }

    /// The margin settled on between `from` and `to` seconds: the median at flip requests.
    func settledMargin(from: Double, to: Double) -> Int64 {
        let inside = margins.filter { $0.at >= Int64(from * 1e9) && $0.at < Int64(to * 1e9) }.map(\.margin).sorted()
        return inside.isEmpty ? 0 : inside[inside.count / 2]
    }

    /// The smallest margin between `from` and `to` seconds.
    func narrowestMargin(from: Double, to: Double) -> Int64 {
        margins.filter { $0.at >= Int64(from * 1e9) && $0.at < Int64(to * 1e9) }.map(\.margin).min() ?? 0
    }

    func lateFlips(between from: Double, and to: Double) -> Int {
        lateFlips.filter { $0 >= Int64(from * 1e9) && $0 < Int64(to * 1e9) }.count
    }

    static func p99(_ values: [Int64]) -> Int64 {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, (sorted.count * 99 + 99) / 100 - 1)]
    }

    /// For a failure message: milliseconds with two decimals.
    static func ms(_ ns: Int64) -> String {
        let hundredths = (ns + 5_000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }

    var summary: String {
        "missed \(missed)/\(inputsBeforeLatch), age p99 \(Self.ms(ageP99)), render p99 \(Self.ms(renderP99)), "
            + "copy+commit p99 \(Self.ms(flipCostP99)), late flips \(lateFlips.count), at +1 \(atFirstVblank)/\(inputsShown)"
    }
}

/// The model itself: a display whose vblank comes every 16.67 ms give or take 50 us, a touch
/// controller reporting at its own rate (drifting against the display, each report give or
/// take 0.3 ms), and the daemon's one loop, which does one thing at a time.
///
/// The loop sleeps until the earliest of: the flip event (the vblank a flip landed at, 0.05-0.3
/// ms later), the next touch report, the latch deadline. Woken, it handles the card first (the
/// schedule learns the vblank; what waited may go out, or wait for the latch), then every touch
/// report read by then, with one render for them all (the loop is busy for the render; what is
/// due meanwhile waits), then a latch deadline that has passed (what waits goes out at once).
/// Presenting follows `Presenter.flush`: while a flip is in flight the frame waits for its
/// event; otherwise it waits for the latch deadline if the schedule gives one, or goes out at
/// once. A flip costs a copy and the page-flip call (the loop is busy for both) and then the
/// driver's unseen tail; it makes the first vblank after all of that.
struct FlipScheduleModel<Schedule: ModelSchedule> {
    static var period: Int64 { 16_666_667 }

    var schedule: Schedule
    let machine: ModelMachine
    private var rng: SplitMix
    private var vblanks: [Int64] = []
    private var touches: [Int64] = []
    private(set) var figures = ModelFigures()

    /// The loop is busy until then.
    private var now: Int64 = 0
    private var nextTouch = 0
    /// Drawn and not yet in a flip: the touch reports it answers, with the margin in force
    /// when each was read.
    private var waiting: [(read: Int64, margin: Int64)] = []
    private var latchDue: Int64?
    private var inFlight: (vblank: Int64, eventAt: Int64, carries: [(read: Int64, margin: Int64)])?

    init(_ schedule: Schedule, on machine: ModelMachine) {
        self.schedule = schedule
        self.machine = machine
        rng = SplitMix(state: machine.seed)
        makeDisplayAndFinger()
    }

    /// The vblanks of the whole run, each jittered around its nominal time, and the touch
    /// reports: a period 0.3 % longer than nominal, so that their phase against the display
    /// walks through the whole frame during the run, each report jittered.
    private mutating func makeDisplayAndFinger() {
        let end = Int64(machine.seconds * 1e9)
        var k: Int64 = 1
        while k * Self.period < end + 2 * Self.period {
            vblanks.append(k * Self.period + Int64(rng.uniform(-50_000, 50_000)))
            k += 1
        }
        let touchPeriod = 1e9 / machine.touchHz * 1.003
        var i = 0.0
        while true {
            let t = Int64(3_000_000 + i * touchPeriod + rng.uniform(-300_000, 300_000))
            guard t < end else { break }
            touches.append(max(t, (touches.last ?? 0) + 1))
            i += 1
        }
        figures.touchPeriod = ModelFigures.p99(zip(touches.dropFirst(), touches).map { $0 - $1 })
    }

    /// Runs the loop until every touch report is on screen.
    mutating func run() -> ModelFigures {
        while nextTouch < touches.count || !waiting.isEmpty || inFlight != nil {
            let due = [inFlight?.eventAt, nextTouch < touches.count ? touches[nextTouch] : nil, latchDue].compactMap { $0 }
            guard let earliest = due.min() else { break }  // waiting with nothing due cannot happen: see present
            now = max(now, earliest)
            if let flight = inFlight, flight.eventAt <= now { flipEvent(flight) }
            if nextTouch < touches.count, touches[nextTouch] <= now { readAndRender() }
            if let latch = latchDue, latch <= now {
                latchDue = nil
                if inFlight == nil && !waiting.isEmpty { flip() }
            }
        }
        return figures
    }

    /// The flip event: the schedule learns the vblank (and whether the flip was late), what
    /// the flip carried is on screen, and what waited goes out now or at the latch.
    private mutating func flipEvent(_ flight: (vblank: Int64, eventAt: Int64, carries: [(read: Int64, margin: Int64)])) {
        inFlight = nil
        if schedule.flipLanded(at: Instant(nanoseconds: flight.vblank), period: .nanoseconds(Self.period)) {
            figures.lateFlips.append(flight.vblank)
        }
        if let newest = flight.carries.map(\.read).max() { figures.ages.append(flight.vblank - newest) }
        for input in flight.carries {
            // The first vblank after the read; the latch point is the margin before it.
            let target = firstVblank { $0 > input.read }
            figures.inputsShown += 1
            if flight.vblank <= target + Self.period / 2 { figures.atFirstVblank += 1 }
            guard input.read < target - input.margin else { continue }
            figures.inputsBeforeLatch += 1
            if flight.vblank > target + Self.period / 2 { figures.missed += 1 }
        }
        present()
    }

    /// Every touch report read by now gets one render, during which the loop does nothing else.
    private mutating func readAndRender() {
        let margin = schedule.margin.nanoseconds
        while nextTouch < touches.count, touches[nextTouch] <= now {
            waiting.append((touches[nextTouch], margin))
            nextTouch += 1
        }
        let render = renderDistribution(at: now).draw(&rng)
        figures.renders.append(render)
        now += render
        present()
        schedule.frameRendered(.nanoseconds(render))  // as `noteFrame` does, after the present
    }

    /// The first vblank of the run for which `after` holds (false, then true along the run:
    /// vblanks are in order, their jitter far below a period), by bisection.
    private func firstVblank(after: (Int64) -> Bool) -> Int64 {
        var lo = 0, hi = vblanks.count
        while lo < hi {  // `after` is false, then true, along the run
            let mid = (lo + hi) / 2
            if after(vblanks[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo < vblanks.count ? vblanks[lo] : .max
    }

    private func renderDistribution(at t: Int64) -> ModelDistribution {
        Self.during(machine.laterRender, at: t) ?? machine.render
    }

    private func driverTailDistribution(at t: Int64) -> ModelDistribution {
        Self.during(machine.laterDriverTail, at: t) ?? machine.driverTail
    }

    private static func during(_ later: (ModelDistribution, switchAt: Double, switchBack: Double)?, at t: Int64) -> ModelDistribution? {
        guard let later, t >= Int64(later.switchAt * 1e9), t < Int64(later.switchBack * 1e9) else { return nil }
        return later.0
    }

    /// What waits goes out: not while a flip is in flight, at the latch deadline if the
    /// schedule gives one (the first one set stands, as in `FlipTiming.holdsFlip`), else now.
    private mutating func present() {
        guard !waiting.isEmpty, inFlight == nil else { return }
        if let deadline = schedule.deadline(now: Instant(nanoseconds: now)) {
            if latchDue == nil { latchDue = deadline.nanoseconds }
            return
        }
        flip()
    }

    /// Copy, page-flip call (both on the loop), the driver's tail; the first vblank after it.
    private mutating func flip() {
        let copy = ModelDistribution.copy.draw(&rng)
        let commit = ModelDistribution.commitCall.draw(&rng)
        now += copy + commit
        figures.flipCosts.append(copy + commit)
        schedule.flipRequested(at: Instant(nanoseconds: now), copy: .nanoseconds(copy), commit: .nanoseconds(commit))
        figures.margins.append((now, schedule.margin.nanoseconds))
        let ready = now + driverTailDistribution(at: now).draw(&rng)
        let vblank = firstVblank { $0 >= ready }
        inFlight = (vblank, vblank + Int64(rng.uniform(50_000, 300_000)), waiting)
        waiting = []
        latchDue = nil
    }
}

@Suite("the flip schedule in a model of display, finger and loop")
struct FlipScheduleModelTests {
    static let period = FlipScheduleModel<FlipSchedule>.period

    static func run<Schedule: ModelSchedule>(_ schedule: Schedule, on machine: ModelMachine) -> ModelFigures {
        var model = FlipScheduleModel(schedule, on: machine)
        return model.run()
    }

    /// The three goals, for a run of a machine whose render times do not change; returns the
    /// margin settled on (the median over the run's second half).
    @discardableResult
    static func expectGoals(_ figures: ModelFigures, _ machine: ModelMachine, _ sourceLocation: SourceLocation = #_sourceLocation) -> Int64 {
        let settled = figures.settledMargin(from: machine.seconds / 2, to: machine.seconds)
        let ageBound = settled + figures.touchPeriod + figures.renderP99
        let marginBound = figures.renderP99 + figures.flipCostP99 + 1_000_000
        let said = "\(figures.summary), margin \(ModelFigures.ms(settled))"
        #expect(figures.inputsBeforeLatch > Int(machine.seconds * machine.touchHz) / 10, "\(said)", sourceLocation: sourceLocation)
        #expect(figures.missedRate < 0.01, "\(said)", sourceLocation: sourceLocation)
        #expect(figures.ageP99 <= ageBound, "age bound \(ModelFigures.ms(ageBound)); \(said)", sourceLocation: sourceLocation)
        #expect(settled <= marginBound, "margin bound \(ModelFigures.ms(marginBound)); \(said)", sourceLocation: sourceLocation)
        return settled
    }

    @Test("on a desktop, 120 or 240 Hz touch: under 1 % missed, age p99 and the margin within their bounds", arguments: [120.0, 240.0])
    func desktop(touchHz: Double) {
        let machine = ModelMachine(render: .desktopRender, touchHz: touchHz)
        Self.expectGoals(Self.run(FlipSchedule(), on: machine), machine)
    }

    /// The board's touch reports at 60 Hz: at 120 Hz an 8 ms render leaves the loop busy most
    /// of the time, and a report read during one render waits for it before its own; no
    /// margin of render + copy + commit covers that wait (docs/performance.md has the figures).
    @Test("a slow board settles on a wider margin than a fast PC, each meeting the goals")
    func slowBoardAndFastPC() {
        let board = ModelMachine(render: .slowBoardRender, touchHz: 60)
        let pc = ModelMachine(render: .fastPCRender, touchHz: 240)
        let boardMargin = Self.expectGoals(Self.run(FlipSchedule(), on: board), board)
        let pcMargin = Self.expectGoals(Self.run(FlipSchedule(), on: pc), pc)
        // The renders' p99 differ by some 9 ms; so must the margins, give or take the tails.
        #expect(boardMargin - pcMargin > 7_000_000, "board \(ModelFigures.ms(boardMargin)), PC \(ModelFigures.ms(pcMargin))")
        #expect(pcMargin < 3_000_000, "PC \(ModelFigures.ms(pcMargin))")
    }

    @Test("when render times jump up the margin widens at once, and narrows back after they drop")
    func renderJump() {
        let machine = ModelMachine(render: .desktopRender, touchHz: 120, seconds: 70, laterRender: (.loadedRender, switchAt: 20, switchBack: 40))
        let figures = Self.run(FlipSchedule(), on: machine)
        let before = figures.settledMargin(from: 10, to: 20)
        let during = figures.settledMargin(from: 30, to: 40)
        let after = figures.settledMargin(from: 60, to: 70)
        let said = "before \(ModelFigures.ms(before)), during \(ModelFigures.ms(during)), after \(ModelFigures.ms(after)); \(figures.summary)"
        #expect(during - before > 4_000_000, "\(said)")
        // Two frames after the jump, and from then on, every flip has the wider margin.
        #expect(figures.narrowestMargin(from: 20.05, to: 40) - before > 3_000_000, "\(said)")
        #expect(after - before < 500_000, "\(said)")
        #expect(figures.missedRate < 0.01, "\(said)")
    }

    @Test("when the driver's unseen part of the commit grows, late flips widen the margin; when it shrinks, quiet periods narrow it")
    func unseenDriverTime() {
        let machine = ModelMachine(render: .desktopRender, touchHz: 120, seconds: 70, laterDriverTail: (.slowDriverTail, switchAt: 20, switchBack: 40))
        let figures = Self.run(FlipSchedule(), on: machine)
        let before = figures.settledMargin(from: 10, to: 20)
        let during = figures.settledMargin(from: 30, to: 40)
        let after = figures.settledMargin(from: 60, to: 70)
        let said = "before \(ModelFigures.ms(before)), during \(ModelFigures.ms(during)), after \(ModelFigures.ms(after)); \(figures.summary)"
        #expect(figures.lateFlips(between: 20, and: 22) > 0, "\(said)")
        #expect(during - before > 2_000_000, "\(said)")
        #expect(after - before < 500_000, "\(said)")
        #expect(figures.missedRate < 0.01, "\(said)")
    }

    // The model's own checks: each goal fails for a schedule that should fail it.

    @Test("the model fails the old fixed 2 ms schedule on a slow board: more than 1 % missed")
    func oldScheduleMissesOnASlowBoard() {
        let board = ModelMachine(render: .slowBoardRender, touchHz: 60)
        let figures = Self.run(FixedMarginSchedule(margin: .milliseconds(2), widens: true), on: board)
        #expect(figures.missedRate > 0.01, "\(figures.summary)")
    }

    @Test("the model fails a huge fixed margin on a fast PC on the third goal alone")
    func hugeMarginFailsTheMarginGoal() {
        let pc = ModelMachine(render: .fastPCRender, touchHz: 240)
        let figures = Self.run(FixedMarginSchedule(margin: .nanoseconds(Self.period * 7 / 8), widens: false), on: pc)
        let margin = Self.period * 7 / 8
        #expect(figures.missedRate < 0.01, "\(figures.summary)")
        #expect(figures.ageP99 <= margin + figures.touchPeriod + figures.renderP99, "\(figures.summary)")
        #expect(margin > figures.renderP99 + figures.flipCostP99 + 1_000_000, "\(figures.summary)")
    }

    @Test("the model fails flips requested at once on the age goal: each frame waits a vblank behind the one in flight")
    func flipsAtOnceFailTheAgeGoal() {
        let machine = ModelMachine(render: .desktopRender, touchHz: 120)
        let figures = Self.run(FixedMarginSchedule(margin: nil, widens: false), on: machine)
        #expect(figures.ageP99 > figures.touchPeriod + figures.renderP99, "\(figures.summary)")
    }
}
