import GridlockInput
import LinuxSys

/// Hotplug for whatever the daemon reads from `/dev/input` (the touch panel, the beeper):
/// inotify on the directory, or, while it does not exist (devtmpfs makes it with the
/// first input device), on its parent for its creation. It only says *that* an event
/// node came, went or changed; its owner looks again.
package final class InputDirectoryWatch {
    package let directory: String
    private let inotify: Inotify
    private let log: (LogPriority, String) -> Void
    /// Watching the directory itself, or (while it does not exist) its parent.
    private var watchingDirectory = false

    init(directory: String, log: @escaping (LogPriority, String) -> Void) throws(SystemCallError) {
        self.directory = directory
        self.log = log
        inotify = try Inotify()
        try watch()
    }

    package var fileDescriptor: FileDescriptor { inotify.fileDescriptor }

    /// Reads the queued changes; true when an event node may have appeared, gone or
    /// changed (or events were lost), so the owner should scan again.
    package func readChanges() -> Bool {
        let events: [Inotify.Event]
        do {
            events = try inotify.readEvents()
        } catch {
            log(.error, "inotify on \(directory): \(error)")
            return false
        }
        var relevant = false
        for event in events {
            if !watchingDirectory {
                if event.name == Self.lastComponent(of: directory) {
                    do {
                        try inotify.watch(directory: directory)
                        watchingDirectory = true
                        relevant = true
                    } catch {
                        log(.error, "cannot watch \(directory): \(error)")
                    }
                }
                continue
            }
            if event.isOverflow || InputDeviceDirectory.isEventNode(event.name) { relevant = true }
        }
        return relevant
    }

    private func watch() throws(SystemCallError) {
        do {
            try inotify.watch(directory: directory)
            watchingDirectory = true
        } catch where error.errno == .noSuchFile {
            let parent = Self.parent(of: directory)
            try inotify.watch(directory: parent, mask: Inotify.entryCreated)
            watchingDirectory = false
            log(.notice, "\(directory) does not exist yet; watching \(parent) for it")
        }
    }

    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    package static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
