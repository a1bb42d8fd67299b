import GridlockConfiguration
import GridlockCore
import GridlockInput
import GridlockEvdev
import LinuxSys

extension DaemonParts {
    /// `[feedback] beeper=` as a source; nil for `off`. A beeper is never a reason not to
    /// start: without one (or without inotify for its hotplug) the lock is silent.
    static func beeper(for choice: BeeperChoice, now: Instant) -> BeeperSource? {
        let selector: BeeperSelector
        switch choice {
        case .off: return nil
        case .auto: selector = .auto
        case .path(let path): selector = .path(path)
        }
        do {
            return try BeeperSource(settings: .init(selector: selector), now: now)
        } catch {
            BeeperSource.journal(.warning, "beeper: cannot watch \(InputDeviceDirectory.defaultPath): \(error); sounds are off")
            return nil
        }
    }
}
