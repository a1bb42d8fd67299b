import GridlockCore
import LinuxSys

/// DRM master as one state, the way seatd and logind treat a seat: held, waited for,
/// being given away, or not ours. Every move is a method that refuses (returns false and
/// changes nothing) when it does not start from a state it may start from, so that no
/// path can, say, drop master twice or drop it under a flip still in flight.
///
/// The moves are pure (and tested as such); `ask(on:now:)` and `drop(on:)` make the two
/// master ioctls and move accordingly. The deadlines the lease asks for (`retryDue`,
/// `releaseDue`) are set on the event loop by the output.
struct MasterLease: Equatable {
    enum State: Equatable {
        /// Not ours: never taken, given away on purpose, lost to another program, or the
        /// card went away.
        case released
        /// Ours; frames may be shown.
        case held
        /// Wanted, but another program holds it (`EBUSY`/`EPERM` from drmSetMaster):
        /// asked again at `retryAt`, each miss doubling `delay` up to `retryMax`.
        case waiting(retryAt: Instant, delay: Duration)
        /// To be given away, but a page flip is in flight: dropping master now makes the
        /// kernel refuse the drop or complete the flip on a CRTC already someone else's.
        /// Dropped when the flip's event comes, or at `by` if it never does.
        case releasing(by: Instant)
    }

    static let retryFirst = Duration.milliseconds(250)
    static let retryMax = Duration.seconds(8)
    /// How long a flip may take to land before master is given away regardless: far longer
    /// than any frame (a 30 Hz panel flips in 33 ms), short enough not to hold up a hand-over.
    static let flipTimeout = Duration.milliseconds(500)

    private(set) var state: State = .released

    /// Master is ours to use (held, or held until the flip in flight lands).
    var holdsMaster: Bool {
        switch state {
        case .held, .releasing: true
        case .released, .waiting: false
        }
    }

    var isHeld: Bool { state == .held }

    var isWaiting: Bool { retryDue != nil }

    var retryDue: Instant? {
        if case .waiting(let at, _) = state { return at }
        return nil
    }

    var releaseDue: Instant? {
        if case .releasing(let by) = state { return by }
        return nil
    }

    /// drmSetMaster succeeded. Refused unless master was asked for (from `.released` or
    /// `.waiting`).
    @discardableResult
    mutating func took() -> Bool {
        switch state {
        case .released, .waiting:
            state = .held
            return true
        case .held, .releasing:
            return false
        }
    }

    /// drmSetMaster was refused because someone else holds master: wait, backing off.
    /// Refused unless master was being asked for.
    @discardableResult
    mutating func refused(now: Instant) -> Bool {
        switch state {
        case .released:
            state = .waiting(retryAt: now + Self.retryFirst, delay: Self.retryFirst)
            return true
        case .waiting(_, let delay):
            let next = min(delay * 2, Self.retryMax)
            state = .waiting(retryAt: now + next, delay: next)
            return true
        case .held, .releasing:
            return false
        }
    }

    /// The display is to be given away. With a flip in flight the drop waits for it
    /// (`.releasing`); otherwise master is to be dropped now (`.released`, and the caller
    /// drops it). A pending retry is given up. Refused from `.released` and `.releasing`.
    @discardableResult
    mutating func release(flipPending: Bool, now: Instant) -> Bool {
        switch state {
        case .held:
            state = flipPending ? .releasing(by: now + Self.flipTimeout) : .released
            return true
        case .waiting:
            state = .released
            return true
        case .released, .releasing:
            return false
        }
    }

    /// The flip that held up the release landed or timed out: master is to be dropped
    /// now. Refused unless a release was waiting.
    @discardableResult
    mutating func flipSettled() -> Bool {
        guard case .releasing = state else { return false }
        state = .released
        return true
    }

    /// Wanted again before the release went through: master was never dropped, so it is
    /// kept. Refused unless a release was waiting.
    @discardableResult
    mutating func keep() -> Bool {
        guard case .releasing = state else { return false }
        state = .held
        return true
    }

    /// Another program took master without telling us (a VT switch): a frame was refused
    /// with EPERM. Refused unless master was held.
    @discardableResult
    mutating func lost() -> Bool {
        guard state == .held else { return false }
        state = .released
        return true
    }

    /// The card is closed or went away: whatever was held went with it. Always allowed.
    mutating func cardGone() { state = .released }

    /// Asks the kernel for master; true when it was taken. Someone else holding it
    /// (EBUSY, EPERM) starts or continues the back-off, said once per wait; any other
    /// error is logged and nothing is retried.
    mutating func ask(on device: any KMSDevice, now: Instant) -> Bool {
        guard !holdsMaster else { return false }
        do {
            try device.setMaster()
        } catch {
            let errno = error.errno
            guard errno == .notPermitted || errno == .permissionDenied || errno == .busy else {
                Journal.log(.error, "display: \(error)")
                return false
            }
            if !isWaiting {
                Journal.log(.warning, "display: another program holds DRM master on \(device.path); trying again with back-off")
            }
            refused(now: now)
            return false
        }
        return took()
    }

    /// The display is given away: master is dropped now, or, under a flip in flight,
    /// once that flip settles (`settle(on:)`).
    mutating func giveAway(flipPending: Bool, now: Instant, on device: any KMSDevice) {
        let held = isHeld
        if release(flipPending: flipPending, now: now), held, state == .released { drop(on: device) }
    }

    /// The flip in flight landed or timed out: a release that waited for it goes through.
    mutating func settle(on device: any KMSDevice) {
        if flipSettled() { drop(on: device) }
    }

    /// Gives master away; the lease already says released. A refusal is only logged:
    /// there is nothing to retry, the next holder's drmSetMaster tells them.
    func drop(on device: any KMSDevice) {
        do {
            try device.dropMaster()
            Journal.log(.info, "display: gave up DRM master on \(device.path)")
        } catch {
            Journal.log(.warning, "display: \(error)")
        }
    }
}
