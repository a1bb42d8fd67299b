import GridlockCore

/// One `struct input_event` as the kernel delivers it, with its timestamp already an `Instant`.
public struct InputEvent: Hashable, Sendable {
    public var time: Instant
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Instant, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}
