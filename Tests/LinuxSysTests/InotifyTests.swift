import Glibc
import LinuxSys
import Testing

@Suite struct InotifyTests {
    @Test("reports creation and deletion by name") func reportsCreationAndDeletionByName() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let inotify = try Inotify()
        try inotify.watch(directory: directory)
        #expect(try inotify.readEvents().isEmpty)

        let fd = try FileDescriptor.open("\(directory)/event7", [.create, .writeOnly])
        fd.close()
        unlink("\(directory)/event7")

        let events = try inotify.readEvents()
        #expect(events.contains { $0.name == "event7" && $0.has(IN_CREATE) })
        #expect(events.contains { $0.name == "event7" && $0.has(IN_CLOSE_WRITE) })
        #expect(events.contains { $0.name == "event7" && $0.has(IN_DELETE) })
        #expect(try inotify.readEvents().isEmpty)
    }

    @Test("watching a missing directory names it") func watchingAMissingDirectoryNamesIt() throws {
        let inotify = try Inotify()
        #expect(throws: SystemCallError(operation: "inotify_add_watch", path: "/nonexistent/input", errno: .noSuchFile)) {
            try inotify.watch(directory: "/nonexistent/input")
        }
    }
}
