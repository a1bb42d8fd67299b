/// A device description and the events it sent: what `evemu-record` writes and
/// `evemu-play` replays, and what replay tests and `gridlock record` work with.
public struct EvemuRecording: Hashable, Sendable {
    public var device: DeviceDescription
    public var events: [InputEvent]

    public init(device: DeviceDescription, events: [InputEvent] = []) {
        self.device = device
        self.events = events
    }
}
