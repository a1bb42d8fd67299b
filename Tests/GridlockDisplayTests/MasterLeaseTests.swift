import GridlockCore
import Testing

@testable import GridlockDisplay

@Suite("DRM master lease")
struct MasterLeaseTests {
    static let t0 = Instant(nanoseconds: 1_000_000_000)

    func held() -> MasterLease {
        var moved: Bool  // set outside #expect, which cannot capture a mutating call
        var lease = MasterLease()
        moved = lease.took()
        #expect(moved)
        return lease
    }

    @Test("taking master twice, or while a release waits, is refused and changes nothing")
    func noDoubleTake() {
        var moved: Bool  // set outside #expect, which cannot capture a mutating call
        var lease = held()
        moved = lease.took()
        #expect(!moved)
        #expect(lease.state == .held)
        moved = lease.release(flipPending: true, now: Self.t0)
        #expect(moved)
        moved = lease.took()
        #expect(!moved)
        #expect(lease.state == .releasing(by: Self.t0 + MasterLease.flipTimeout))
    }

    @Test("giving master away twice is refused: the second drop never reaches the kernel")
    func noDoubleRelease() {
        var moved: Bool  // set outside #expect, which cannot capture a mutating call
        var lease = held()
        moved = lease.release(flipPending: false, now: Self.t0)
        #expect(moved)
        #expect(lease.state == .released)
        moved = lease.release(flipPending: false, now: Self.t0)
        #expect(!moved)
        var releasing = held()
        moved = releasing.release(flipPending: true, now: Self.t0)
        #expect(moved)
        moved = releasing.release(flipPending: false, now: Self.t0)
        #expect(!moved)
        #expect(releasing.releaseDue == Self.t0 + MasterLease.flipTimeout)
    }

    @Test("a release under a flip in flight waits for it; the flip settling is the only way on")
    func releaseWaitsForTheFlip() {
        var moved: Bool  // set outside #expect, which cannot capture a mutating call
        var lease = held()
        moved = lease.release(flipPending: true, now: Self.t0)
        #expect(moved)
        #expect(lease.holdsMaster)  // still ours until the flip lands
        #expect(!lease.isHeld)  // but no frame goes out meanwhile
        moved = lease.lost()
        #expect(!moved)
        moved = lease.flipSettled()
        #expect(moved)
        #expect(lease.state == .released)
        moved = lease.flipSettled()
        #expect(!moved)
    }

    @Test("wanted again before the flip landed: master is kept, never dropped and taken back")
    func keptDuringRelease() {
        var moved: Bool  // set outside #expect, which cannot capture a mutating call
        var lease = held()
        moved = lease.keep()
        #expect(!moved)  // nothing to keep: it is held
        moved = lease.release(flipPending: true, now: Self.t0)
        #expect(moved)
        moved = lease.keep()
        #expect(moved)
        #expect(lease.state == .held)
        #expect(lease.releaseDue == nil)
    }

    @Test("refusals back off from 250 ms doubling up to 8 s; a refusal while held is refused")
    func backOff() {
        var moved: Bool  // set outside #expect, which cannot capture a mutating call
        var lease = MasterLease()
        var now = Self.t0
        var delays: [Duration] = []
        for _ in 0..<7 {
            moved = lease.refused(now: now)
            #expect(moved)
            let due = try! #require(lease.retryDue)
            delays.append(due.duration(since: now))
            now = due
        }
        #expect(delays == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8)])
        moved = lease.took()
        #expect(moved)
        #expect(lease.retryDue == nil)
        moved = lease.refused(now: now)
        #expect(!moved)
        #expect(lease.state == .held)
    }

    @Test("giving the display away while waiting for master gives up the retry, with nothing to drop")
    func releaseWhileWaiting() {
        var moved: Bool  // set outside #expect, which cannot capture a mutating call
        var lease = MasterLease()
        moved = lease.refused(now: Self.t0)
        #expect(moved)
        moved = lease.release(flipPending: true, now: Self.t0)
        #expect(moved)
        #expect(lease.state == .released)
        #expect(lease.retryDue == nil)
    }

    @Test("master lost to another program only from held; the card going away always releases")
    func lostAndGone() {
        var moved: Bool  // set outside #expect, which cannot capture a mutating call
        var lease = MasterLease()
        moved = lease.lost()
        #expect(!moved)
        lease = held()
        moved = lease.lost()
        #expect(moved)
        #expect(lease.state == .released)
        lease = held()
        moved = lease.release(flipPending: true, now: Self.t0)
        #expect(moved)
        lease.cardGone()
        #expect(lease.state == .released)
        #expect(lease.releaseDue == nil)
    }
}
