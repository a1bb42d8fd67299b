import GridlockConfiguration
import GridlockCore
import LinuxSys

/// `gridlock reset-lockout` while gridlockd holds the state file (`StateLock`): the tool may
/// not write the file gridlockd owns, so it leaves this request beside it
/// (`attempts.reset`, in the state directory only root may write) and sends SIGHUP; gridlockd
/// applies it to its own running state, writes the state file itself, says in the journal
/// who asked for what, and removes the request. A gridlockd started later applies a request
/// still waiting.
///
///     gridlock-reset 1
///     requester=uid 0 (sudo by alice)
///     pid=4242
///     uses=visitor,courier
///     crc32=1a2b3c4d
public struct ResetRequest: Hashable, Sendable {
    /// Who ran the tool, as the journal should say it.
    public var requester: String
    public var pid: Int32
    /// Patterns whose uses start afresh (`--uses`), by name.
    public var usesAfresh: [String]

    public init(requester: String, pid: Int32, usesAfresh: [String]) {
        self.requester = requester
        self.pid = pid
        self.usesAfresh = usesAfresh
    }

    static let magic = "gridlock-reset 1"
    /// 500 names of 64 bytes and their commas, with room.
    static let maximumSize = 64 * 1024

    public static func path(beside stateFile: String) -> String { stateFile + ".reset" }

    /// Written atomically and durably: a power cut leaves the request whole or absent.
    public func save(beside stateFile: String) throws(SystemCallError) {
        try AtomicFile.write(encode(), to: Self.path(beside: stateFile), mode: AttemptStore.fileMode)
    }

    /// Waits (on an event loop: inotify on the state directory and a deadline) until the
    /// request beside `stateFile` is gone, taken by gridlockd, or `limit` has passed; true
    /// when it was taken.
    public static func waitUntilTaken(beside stateFile: String, within limit: Duration) throws(SystemCallError) -> Bool {
        let path = path(beside: stateFile)
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let loop = try EventLoop()
        let watch = try Inotify()
        defer { watch.fileDescriptor.close() }
        _ = try watch.watch(directory: directory, mask: Inotify.entryRemoved)
        var gone = !PathLookup.exists(path)
        var expired = false
        try loop.watch(watch.fileDescriptor, as: "reset request") {
            let events = (try? watch.readEvents()) ?? []
            if events.contains(where: { $0.name == name || $0.isOverflow }) { gone = !PathLookup.exists(path) }
        }
        let deadline = loop.deadline("reset request not taken", clock: .real) { _ in expired = true }
        deadline.due = loop.now() + limit
        // The watch came after the request was written: it may be gone already.
        gone = gone || !PathLookup.exists(path)
        try loop.run(until: { gone || expired })
        loop.unwatch(watch.fileDescriptor)
        return gone
    }

    public enum Taken: Hashable, Sendable {
        case none
        case request(ResetRequest)
        /// Something is there but it is no request: removed, and said so.
        case unreadable(reason: String)
    }

    /// The request waiting beside `stateFile`. A readable one stays on disk until
    /// `remove(beside:)`, called once it has been applied and written: the tool waiting for
    /// it to go then finds the state file written. One that cannot be read is removed at once.
    public static func take(beside stateFile: String) -> Taken {
        let path = path(beside: stateFile)
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.regularFileContents(of: path, limit: maximumSize)
        } catch where error.errno == .noSuchFile {
            return .none
        } catch {
            _ = unlinkIfPresent(path)
            return .unreadable(reason: error.reason)
        }
        guard let request = decode(bytes) else {
            _ = unlinkIfPresent(path)
            return .unreadable(reason: "not a gridlock reset request")
        }
        return .request(request)
    }

    public static func remove(beside stateFile: String) {
        _ = unlinkIfPresent(path(beside: stateFile))
    }

    func encode() -> [UInt8] {
        let clean = requester.map { $0.isNewline ? " " : $0 }
        let body = Array("\(Self.magic)\nrequester=\(String(clean))\npid=\(pid)\nuses=\(usesAfresh.joined(separator: ","))\n".utf8)
        return body + Array("crc32=\(AttemptFileFormat.hex(CRC32.checksum(body)))\n".utf8)
    }

    static func decode(_ bytes: [UInt8]) -> ResetRequest? {
        guard bytes.last == UInt8(ascii: "\n") else { return nil }
        let lines = bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard lines.count == 5, lines[0] == magic,
              lines[4] == "crc32=\(AttemptFileFormat.hex(CRC32.checksum(bytes[..<(bytes.count - lines[4].utf8.count - 1)])))",
              lines[1].hasPrefix("requester="), lines[2].hasPrefix("pid="), let pid = Int32(lines[2].dropFirst(4)),
              lines[3].hasPrefix("uses=")
        else { return nil }
        let uses = lines[3].dropFirst(5).split(separator: ",").map(String.init)
        return ResetRequest(requester: String(lines[1].dropFirst(10)), pid: pid, usesAfresh: uses)
    }
}
