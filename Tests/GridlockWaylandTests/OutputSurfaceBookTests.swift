@testable import GridlockWayland
import Testing

@Suite struct OutputSurfaceBookTests {
    @Test("outputs get lock surfaces only once locking is asked for, then each output one")
    func surfacesComeWithTheLock() {
        var book = OutputSurfaceBook()
        #expect(book.outputReady(5).isEmpty)
        #expect(book.outputReady(7).isEmpty)
        #expect(book.lockRequested() == [.create(output: 5, SurfaceID(rawValue: 1)), .create(output: 7, SurfaceID(rawValue: 2))])
        #expect(book.outputReady(5).isEmpty, "a second done of the same output makes no second surface")
    }

    @Test("an output plugged in while locked gets a surface; one unplugged loses its own")
    func hotplugWhileLocked() {
        var book = OutputSurfaceBook()
        _ = book.outputReady(5)
        _ = book.lockRequested()
        #expect(book.outputReady(9) == [.create(output: 9, SurfaceID(rawValue: 2))])
        #expect(book.outputRemoved(5) == [.destroy(SurfaceID(rawValue: 1))])
        #expect(book.outputRemoved(5).isEmpty)
        #expect(book.surfaces == [9: SurfaceID(rawValue: 2)])
    }

    @Test("ending the lock destroys every surface, and locking again makes new ones with new identities")
    func relockMakesNewSurfaces() {
        var book = OutputSurfaceBook()
        _ = book.outputReady(5)
        _ = book.outputReady(7)
        _ = book.lockRequested()
        #expect(book.lockEnded() == [.destroy(SurfaceID(rawValue: 1)), .destroy(SurfaceID(rawValue: 2))])
        #expect(book.outputReady(8).isEmpty, "not locking: no surface")
        #expect(book.lockRequested().map { action -> Int in
            guard case .create(_, let id) = action else { return 0 }
            return id.rawValue
        } == [3, 4, 5])
    }
}
