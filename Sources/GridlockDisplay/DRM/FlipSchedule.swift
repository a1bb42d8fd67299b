import GridlockCore

/// When to request the next page flip: as late before the coming vblank as the flip still
/// makes it, so that every input frame read until then rides it.
///
/// Requesting a flip the moment the previous one lands keeps one in flight all the time
/// under a steady stream of input: what is drawn meanwhile waits for that flip, rides the
/// next one and reaches the screen a vblank later than it could (measured on vkms with a
/// 120 Hz finger: every input frame at vblank +2). Latching instead at `margin` before the
/// predicted vblank shows everything read up to then at the next vblank.
///
/// The vblank clock is predicted from the last flip event (its timestamp plus whole frame
/// periods); a prediction older than `staleAfter` is not trusted (the kernel stops an idle
/// CRTC's vblank interrupt and its phase may change), and the flip goes out at once. The
/// margin is learnt (`LatchMargin`) from the render, copy and commit times the shell
/// measures, and a flip that lands a vblank later than predicted widens it at once. A latch
/// timer that wakes the loop late (a busy or descheduled CPU) is not counted: the flip is
/// aimed at the vblank after the moment it was actually requested. Widening for a late
/// wakeup was tried in the QEMU guest (when the margin was a fixed 2 ms plus 1 ms per late
/// flip) and drove the margin to half a frame under host load, losing more than it saved.
struct FlipSchedule: Hashable, Sendable {
    static let staleAfter = Duration.milliseconds(500)

    private(set) var learner = LatchMargin()
    private var lastVblank: Instant?
    private var period: Duration = .zero
    /// The vblank the flip in flight was requested for, when one was predicted.
    private var aimedAt: Instant?

    /// How long before the predicted vblank the flip is requested.
    var margin: Duration { learner.margin(period: period) }

    /// The vblank after `now`, if the clock is known and fresh.
    func nextVblank(after now: Instant) -> Instant? {
        guard let lastVblank, period > .zero, now.duration(since: lastVblank) < Self.staleAfter else { return nil }
        let p = period.nanoseconds
        let elapsed = max(now.nanoseconds - lastVblank.nanoseconds, 0)
        return Instant(nanoseconds: lastVblank.nanoseconds + (elapsed / p + 1) * p)
    }

    /// When a frame presented at `now` reaches the glass: the vblank its flip is requested
    /// for (the latch is `margin` before it), if the clock is known and fresh.
    func displayTime(ofFramePresentedAt now: Instant) -> Instant? {
        nextVblank(after: now + margin)
    }

    /// When to request the flip for what is presented at `now`: nil means at once (no
    /// fresh vblank clock, or already inside the margin of the coming vblank).
    func deadline(now: Instant) -> Instant? {
        guard let next = nextVblank(after: now) else { return nil }
        let latch = next + (.zero - margin)
        return latch > now ? latch : nil
    }

    /// A frame was drawn in `render` (its copy and commit not counted).
    mutating func frameRendered(_ render: Duration) {
        learner.rendered(render)
    }

    /// A flip was requested at `now` (when the page-flip call returned), after `copy` of
    /// copying the damage and `commit` in that call.
    mutating func flipRequested(at now: Instant, copy: Duration, commit: Duration) {
        aimedAt = nextVblank(after: now)
        learner.flipRequested(copy: copy, commit: commit)
    }

    /// The flip landed at the vblank timestamped `vblank`; `period` is the mode's frame
    /// period. Returns true when it landed later than the vblank it was requested for.
    mutating func flipLanded(at vblank: Instant, period: Duration) -> Bool {
        self.period = period
        lastVblank = vblank
        defer { aimedAt = nil }
        let late = aimedAt.map { vblank.duration(since: $0) > period / 2 } ?? false
        learner.flipLanded(late: late, period: period)
        return late
    }
}
