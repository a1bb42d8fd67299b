import GridlockCore
import Testing

@testable import GridlockDisplay

@Suite("DRM master lease")
struct MasterLeaseTests {
    static let t0 = Instant(nanoseconds: 1_000_000_000)

    func held() -> MasterLease {
        var lease = MasterLease()
        expectMove(&lease, taken: true) { $0.took() }
        return lease
    }

    /// Makes one move and expects it taken or refused (`#expect` cannot capture a mutating call).
    func expectMove(
        _ lease: inout MasterLease, taken: Bool, sourceLocation: SourceLocation = #_sourceLocation,
        _ move: (inout MasterLease) -> Bool
    ) {
        let moved = move(&lease)
        #expect(moved == taken, sourceLocation: sourceLocation)
    }

    @Test("taking master twice, or while a release waits, is refused and changes nothing")
    func noDoubleTake() {
        var lease = held()
        expectMove(&lease, taken: false) { $0.took() }
        #expect(lease.state == .held)
        expectMove(&lease, taken: true) { $0.release(flipPending: true, now: Self.t0) }
        expectMove(&lease, taken: false) { $0.took() }
        #expect(lease.state == .releasing(by: Self.t0 + MasterLease.flipTimeout))
    }

    @Test("giving master away twice is refused: the second drop never reaches the kernel")
    func noDoubleRelease() {
        var lease = held()
        expectMove(&lease, taken: true) { $0.release(flipPending: false, now: Self.t0) }
        #expect(lease.state == .released)
        expectMove(&lease, taken: false) { $0.release(flipPending: false, now: Self.t0) }
        var releasing = held()
        expectMove(&releasing, taken: true) { $0.release(flipPending: true, now: Self.t0) }
        expectMove(&releasing, taken: false) { $0.release(flipPending: false, now: Self.t0) }
        #expect(releasing.releaseDue == Self.t0 + MasterLease.flipTimeout)
    }

    @Test("a release under a flip in flight waits for it; the flip settling is the only way on")
    func releaseWaitsForTheFlip() {
        var lease = held()
        expectMove(&lease, taken: true) { $0.release(flipPending: true, now: Self.t0) }
        #expect(lease.holdsMaster)  // still ours until the flip lands
        #expect(!lease.isHeld)  // but no frame goes out meanwhile
        expectMove(&lease, taken: false) { $0.lost() }
        expectMove(&lease, taken: true) { $0.flipSettled() }
        #expect(lease.state == .released)
        expectMove(&lease, taken: false) { $0.flipSettled() }
    }

    @Test("wanted again before the flip landed: master is kept, never dropped and taken back")
    func keptDuringRelease() {
        var lease = held()
        expectMove(&lease, taken: false) { $0.keep() }  // nothing to keep: it is held
        expectMove(&lease, taken: true) { $0.release(flipPending: true, now: Self.t0) }
        expectMove(&lease, taken: true) { $0.keep() }
        #expect(lease.state == .held)
        #expect(lease.releaseDue == nil)
    }

    @Test("refusals back off from 250 ms doubling up to 8 s; a refusal while held is refused")
    func backOff() {
        var lease = MasterLease()
        var now = Self.t0
        var delays: [Duration] = []
        for _ in 0..<7 {
            expectMove(&lease, taken: true) { $0.refused(now: now) }
            let due = try! #require(lease.retryDue)
            delays.append(due.duration(since: now))
            now = due
        }
        #expect(delays == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8)])
        expectMove(&lease, taken: true) { $0.took() }
        #expect(lease.retryDue == nil)
        expectMove(&lease, taken: false) { $0.refused(now: now) }
        #expect(lease.state == .held)
    }

    @Test("giving the display away while waiting for master gives up the retry, with nothing to drop")
    func releaseWhileWaiting() {
        var lease = MasterLease()
        expectMove(&lease, taken: true) { $0.refused(now: Self.t0) }
        expectMove(&lease, taken: true) { $0.release(flipPending: true, now: Self.t0) }
        #expect(lease.state == .released)
        #expect(lease.retryDue == nil)
    }

    @Test("master lost to another program only from held; the card going away always releases")
    func lostAndGone() {
        var lease = MasterLease()
        expectMove(&lease, taken: false) { $0.lost() }
        lease = held()
        expectMove(&lease, taken: true) { $0.lost() }
        #expect(lease.state == .released)
        lease = held()
        expectMove(&lease, taken: true) { $0.release(flipPending: true, now: Self.t0) }
        lease.cardGone()
        #expect(lease.state == .released)
        #expect(lease.releaseDue == nil)
    }
}
