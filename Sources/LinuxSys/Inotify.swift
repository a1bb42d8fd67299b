import Glibc

/// Directory change notifications; the daemon watches /dev/input for hotplug.
public final class Inotify {
    public struct Event: Hashable, Sendable {
        public var watch: Int32
        public var mask: UInt32
        public var cookie: UInt32
        /// Empty for events about the watched directory itself.
        public var name: String

        public func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
        /// The kernel dropped events: rescan the directory instead of trusting them.
        public var isOverflow: Bool { has(IN_Q_OVERFLOW) }
    }

    /// What announces a directory being created inside the watched one.
    public static let entryCreated: UInt32 = UInt32(bitPattern: IN_CREATE | IN_MOVED_TO)
    /// What announces an entry leaving the watched directory (removed, or renamed away).
    public static let entryRemoved: UInt32 = UInt32(bitPattern: IN_DELETE | IN_MOVED_FROM)
    public static let deviceChanges: UInt32 =
        UInt32(bitPattern: IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO | IN_CLOSE_WRITE)

    public let fileDescriptor: FileDescriptor
    /// Large enough for many events with maximal names in one read(2).
    private let buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: 16 * (16 + Int(NAME_MAX) + 1), alignment: 8)

    public init() throws(SystemCallError) {
        let fd = try systemCall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        fileDescriptor = FileDescriptor(rawValue: fd)
    }

    deinit {
        fileDescriptor.close()
        buffer.deallocate()
    }

    /// IN_ATTRIB matters because udev creates a node and only then sets its group and
    /// mode: the device can be opened after the attribute change, not at creation.
    @discardableResult
    public func watch(directory: String, mask: UInt32 = Inotify.deviceChanges) throws(SystemCallError) -> Int32 {
        try systemCall("inotify_add_watch", path: directory) {
            inotify_add_watch(fileDescriptor.rawValue, directory, mask | UInt32(bitPattern: IN_ONLYDIR))
        }
    }

    /// Every queued event; empty when none is queued.
    public func readEvents() throws(SystemCallError) -> [Event] {
        var events: [Event] = []
        while true {
            guard let count = try fileDescriptor.read(into: buffer), count > 0 else { break }
            do {
                let raw = UnsafeRawBufferPointer(buffer)
                var offset = 0
                // Each record: wd, mask, cookie, len (4 bytes each), then len bytes of
                // NUL-padded name.
                while offset + 16 <= count {
                    let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let cookie = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = raw[(offset + 16)..<min(offset + 16 + length, count)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    events.append(Event(watch: watch, mask: mask, cookie: cookie, name: name))
                    offset += 16 + length
                }
            }
        }
        return events
    }
}
