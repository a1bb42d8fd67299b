import GridlockCore
import GridlockInput
import GridlockEvdev
import LinuxSys

/// A scripted device: what libevdev would return in normal and in sync mode, and the
/// state it would hold after a sync. Records which modes were asked for.
final class FakeEventSource: EvdevEventSource {
    var normal: [EvdevReadResult]
    var sync: [EvdevReadResult]
    var snapshot: TouchSnapshot
    private(set) var reads: [(sync: Bool, result: EvdevReadResult)] = []

    init(normal: [EvdevReadResult] = [], sync: [EvdevReadResult] = [], snapshot: TouchSnapshot = TouchSnapshot(touching: false)) {
        self.normal = normal
        self.sync = sync
        self.snapshot = snapshot
    }

    func nextEvent(sync inSync: Bool) -> EvdevReadResult {
        let result: EvdevReadResult
        if inSync {
            result = sync.isEmpty ? .exhausted : sync.removeFirst()
        } else {
            result = normal.isEmpty ? .exhausted : normal.removeFirst()
        }
        reads.append((inSync, result))
        return result
    }

    func touchSnapshot() -> TouchSnapshot { snapshot }
}

extension Array where Element == InputEvent {
    var asReads: [EvdevReadResult] { map { .event($0) } }
}

/// Touch events with their times, as the reader emits them.
struct Emitted: Equatable {
    var touch: TouchEvent
    var time: Instant
}
