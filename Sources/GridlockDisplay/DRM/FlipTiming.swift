import GridlockCore
import LinuxSys

/// When flips go out and at which vblank each input frame reached the screen: the
/// latch deadline of `FlipSchedule` and the per-stroke records of `VblankLatency`, fed
/// by the scan-out's flips and the card's flip events.
struct FlipTiming {
    private(set) var schedule = FlipSchedule()
    private(set) var latency = VblankLatency()
    /// Whether flip events carry a vblank sequence; unknown (nil) until the first one.
    private var hasVblankClock: Bool?
    /// When the newest page flip was requested.
    private var lastFlipQueued: Instant?
    /// Copying the damage and requesting the flip during the current `present`, which the
    /// daemon's drawing time includes and its render time does not.
    private var copyDuringPresent: Duration = .zero
    private var commitDuringPresent: Duration = .zero
    /// The latest moment to request the flip that carries what waits (the loop's
    /// "display flip" deadline); nil while nothing waits for it.
    var latchDue: Instant?

    mutating func presentBegins() { (copyDuringPresent, commitDuringPresent) = (.zero, .zero) }

    /// Whether the flip for what is stale now should wait for the latch deadline, so that
    /// input read until shortly before the coming vblank rides the same flip. Without a
    /// fresh vblank clock (or inside the margin already) it goes out at once.
    mutating func holdsFlip(now: Instant) -> Bool {
        guard let deadline = schedule.deadline(now: now) else { return false }
        if latchDue == nil { latchDue = deadline }
        return true
    }

    /// `copy` is what copying the damage took, `commit` the page-flip call (or modeset),
    /// which ended at `now`.
    mutating func shown(_ shown: ScanOut.Shown, copy: Duration, commit: Duration, at now: Instant) {
        copyDuringPresent += copy
        commitDuringPresent += commit
        switch shown {
        case .flipQueued:
            let queued = now
            lastFlipQueued = queued
            schedule.flipRequested(at: queued, copy: copy, commit: commit)
            latchDue = nil
            latency.flipQueued(at: queued, copy: copy)
        case .modeset, .fellBackToOneBuffer:
            abandon()
        case .drawn:
            break
        }
    }

    /// Which flip the frame just presented rides: the one in flight if it was queued for
    /// it, the next one if it waits, none if a modeset or DirtyFB showed it at once.
    /// Its render time (the drawing less copy and commit) is a sample for the latch margin.
    mutating func noteFrame(
        answering inputs: [Instant], samples: [TipLagMeter.Sample] = [], tip: Point? = nil, drawing: Duration, on scanOut: ScanOut,
        now: Instant
    ) {
        guard scanOut.flips else { return }
        let render = drawing - copyDuringPresent - commitDuringPresent
        schedule.frameRendered(render)
        guard !inputs.isEmpty, hasVblankClock != false else { return }
        let queued: Instant?
        if scanOut.damage.hasUnshownDamage {
            queued = nil  // waits for the pending flip; goes out with the next one
        } else if scanOut.damage.flipPending, let lastFlipQueued {
            queued = lastFlipQueued
        } else {
            return  // shown at once by a modeset, or not at all: no vblank to count
        }
        latency.presented(answering: inputs, render: render, now: now, queued: queued, samples: samples, tip: tip)
    }

    mutating func endStroke() {
        if let report = latency.endStroke() { log(report) }
    }

    /// Whatever waits for a flip that will not come is given up (and counted as such).
    mutating func abandon() {
        if let report = latency.abandon() { log(report) }
    }

    /// A flip landed at the vblank `event` names: the schedule learns the vblank phase
    /// (and widens its margin at once if the flip missed the vblank it aimed at), and the frames
    /// it carried are on screen since then.
    mutating func flipLanded(_ event: (sequence: UInt32, time: Instant), mode: KMSMode) {
        guard event.sequence != 0 else {
            // The driver has no vblank (bochs, virtio-gpu: the event comes when the flip is
            // done, with sequence 0 and the time of sending): nothing to latch to or count on.
            hasVblankClock = false
            latency = VblankLatency()
            return
        }
        hasVblankClock = true
        let period = Self.framePeriod(mode)
        if schedule.flipLanded(at: event.time, period: period) {
            latency.noteLateFlip()
            Journal.log(.debug, "display: a flip landed a vblank late; requesting flips \(schedule.margin.nanoseconds / 1000) us before the vblank")
        }
        if let report = latency.flipCompleted(
            sequence: event.sequence, vblank: event.time, period: period, latchMargin: schedule.margin) {
            log(report)
        }
    }

    /// Per stroke, at debug priority: what `gridlock latency` reads back.
    private func log(_ report: VblankStrokeReport) {
        Journal.log(.debug, report.logLine)
    }

    /// The mode's frame period, as the kernel computes it (`drm_calc_timestamping_constants`).
    static func framePeriod(_ mode: KMSMode) -> Duration {
        if mode.clock > 0, mode.htotal > 0, mode.vtotal > 0 {
            return .nanoseconds(Int64(mode.htotal) * Int64(mode.vtotal) * 1_000_000 / Int64(mode.clock))
        }
        return .nanoseconds(1_000_000_000 / Int64(max(mode.vrefresh, 1)))
    }
}
