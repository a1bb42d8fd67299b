import GridlockCore

/// `struct input_event` as a 64-bit Linux kernel hands it to read(2) from an evdev node:
/// `struct timeval` (seconds, microseconds, 8 bytes each), type, code (2 bytes each),
/// value (4 bytes), little-endian on the machines gridlock runs on (amd64, arm64).
public enum InputEventBytes {
    public static let size = 24

    /// `events` as the kernel would write them.
    public static func encode(_ events: [InputEvent]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * size)
        for event in events { append(event, to: &bytes) }
        return bytes
    }

    public static func append(_ event: InputEvent, to bytes: inout [UInt8]) {
        let nanoseconds = event.time.nanoseconds
        // Floor division: a time before the epoch keeps its microseconds in 0..<1_000_000.
        let (seconds, rest) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let (wholeSeconds, microseconds) = rest < 0 ? (seconds - 1, (rest + 1_000_000_000) / 1000) : (seconds, rest / 1000)
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        put(wholeSeconds)
        put(microseconds)
        put(event.type)
        put(event.code)
        put(event.value)
    }

    /// The event that starts at `offset` in `bytes`, which holds at least `size` bytes there.
    public static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> InputEvent {
        func get<T: FixedWidthInteger>(_: T.Type, _ at: Int) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + at, as: T.self))
        }
        let seconds = get(Int64.self, 0), microseconds = get(Int64.self, 8)
        return InputEvent(
            time: Instant(seconds: seconds, fraction: microseconds, perSecond: 1_000_000),
            type: get(UInt16.self, 16), code: get(UInt16.self, 18), value: get(Int32.self, 20))
    }
}
