import LinuxSys

/// The compositor's end of a socket pair, writing the wire protocol's events by hand
/// (wayland.xml; native-endian 32-bit words, strings NUL-terminated and padded to 4 bytes).
/// libwayland numbers a new client's objects in order: wl_display is 1, connect's
/// get_registry makes 2 and its roundtrip's sync 3, so the replies can be written before
/// the client connects and no compositor need run.
struct FakeCompositor {
    let client: FileDescriptor
    let server: FileDescriptor
    private(set) var bytes: [UInt8] = []

    init() throws {
        (client, server) = try FileDescriptor.streamSocketPair()
    }

    private mutating func event(object: UInt32, opcode: UInt32, _ words: [UInt8]) {
        let size = UInt32(8 + words.count)
        bytes += Self.word(object) + Self.word(size << 16 | opcode) + words
    }

    static func word(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    static func string(_ text: String) -> [UInt8] {
        var utf8 = Array(text.utf8) + [0]
        let length = UInt32(utf8.count)
        while utf8.count % 4 != 0 { utf8.append(0) }
        return word(length) + utf8
    }

    /// wl_registry.global(name, interface, version) on the registry.
    mutating func global(_ name: UInt32, _ interface: String, version: UInt32) {
        event(object: 2, opcode: 0, Self.word(name) + Self.string(interface) + Self.word(version))
    }

    /// The end of connect's roundtrip: wl_callback.done on the sync, then wl_display.delete_id.
    mutating func roundtripDone() {
        event(object: 3, opcode: 0, Self.word(1))
        event(object: 1, opcode: 1, Self.word(3))
    }

    /// wl_display.error(object, code, message): the compositor rejects a request.
    mutating func error(object: UInt32, code: UInt32, _ message: String) {
        event(object: 1, opcode: 0, Self.word(object) + Self.word(code) + Self.string(message))
    }

    /// Reads what the client sent (connect's requests, flushed before its roundtrip ended),
    /// so closing the socket is an end of file to the client rather than a reset.
    func drain() throws {
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = try buffer.withUnsafeMutableBytes { try server.read(into: $0) }
    }

    mutating func send() throws {
        try server.writeAll(bytes)
        bytes = []
    }
}
