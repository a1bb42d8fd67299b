import Glibc
import LinuxSys
import Testing

/// How the session socket's listener makes its name: never through a path another user
/// could swap, and never visible with another mode than asked.
@Suite struct SeqPacketListenerTests {
    @Test("the socket's name appears by a rename, already with its mode, and no hidden name is left")
    func theNameAppearsReady() throws {
        let folder = try makeTemporaryDirectory()
        defer { Directory.removeTree(folder) }
        chmod(folder, 0o755)
        let inotify = try Inotify()
        _ = try inotify.watch(directory: folder, mask: UInt32(bitPattern: IN_CREATE | IN_MOVED_TO | IN_ATTRIB))
        let listener = try SeqPacketListener(path: "\(folder)/session.sock", mode: 0o660, group: 0)
        defer { listener.close() }
        let events = try inotify.readEvents().filter { $0.name == "session.sock" }
        #expect(events.map { $0.has(IN_MOVED_TO) } == [true], "only a rename brings the name: \(events)")
        let status = try FileStatus(entryAt: listener.path)
        #expect(status.isSocket && status.permissions == 0o660)
        #expect(try Directory.entries(folder) == ["session.sock"])
        // A second start replaces it in one step, as a socket an earlier run left.
        let again = try SeqPacketListener(path: listener.path, mode: 0o666, group: nil)
        again.descriptor.close()
        #expect(try FileStatus(entryAt: listener.path).permissions == 0o666)
    }

    @Test("a folder another user owns or others may write to is refused, and a link at the name is left alone")
    func unsafeFoldersAndLinksAreRefused() throws {
        let folder = try makeTemporaryDirectory()
        defer { Directory.removeTree(folder) }
        chmod(folder, 0o755)
        let victim = "\(folder)/root-file"
        let file = open(victim, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        try #require(file >= 0)
        close(file)
        chmod(victim, 0o600)
        symlink(victim, "\(folder)/session.sock")
        #expect(throws: SystemCallError.self) { try SeqPacketListener(path: "\(folder)/session.sock", mode: 0o666, group: nil) }
        #expect(try FileStatus(entryAt: victim).permissions == 0o600, "nothing followed the link")

        let theirs = "\(folder)/theirs"
        try Directory.create(theirs, mode: 0o755)
        try #require(chown(theirs, 65534, 65534) == 0)
        var refused: SystemCallError?
        do throws(SystemCallError) {
            _ = try SeqPacketListener(path: "\(theirs)/session.sock", mode: 0o666, group: nil)
        } catch {
            refused = error
        }
        #expect(refused?.path == theirs)
        try #require(chown(theirs, getuid(), getgid()) == 0)
        chmod(theirs, 0o777)
        #expect(throws: SystemCallError.self) { try SeqPacketListener(path: "\(theirs)/session.sock", mode: 0o666, group: nil) }
        #expect(try Directory.entries(theirs).isEmpty, "nothing was bound there")
        // A link in place of the folder is not followed either.
        chmod(theirs, 0o755)
        symlink(theirs, "\(folder)/linked")
        #expect(throws: SystemCallError.self) { try SeqPacketListener(path: "\(folder)/linked/session.sock", mode: 0o666, group: nil) }
    }

    @Test("a socket path of the longest length a config allows is bound, the hidden name fitting beside it")
    func theLongestPathIsBound() throws {
        let folder = try makeTemporaryDirectory()
        defer { Directory.removeTree(folder) }
        chmod(folder, 0o755)
        let path = folder + "/" + String(repeating: "s", count: 107 - folder.utf8.count - 1)
        #expect(path.utf8.count == 107)
        let listener = try SeqPacketListener(path: path, mode: 0o666, group: nil)
        defer { listener.close() }
        #expect(try FileStatus(entryAt: path).isSocket)
    }
}
