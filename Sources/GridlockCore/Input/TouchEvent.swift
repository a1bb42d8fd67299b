/// One step of the primary finger, already mapped into frame coordinates.
public enum TouchEvent: Hashable, Sendable {
    case down(Point)
    case move(Point)
    /// The finger lifted. Controllers rarely report a position with the release,
    /// so the last `move` is where it ended.
    case up
    /// The stroke cannot be trusted (device lost, events dropped, a stuck contact):
    /// discard it without counting an attempt.
    case cancel(CancelReason)
}

public enum CancelReason: String, Hashable, Sendable {
    case deviceLost = "device-lost"
    case eventsDropped = "events-dropped"
    case stuckTouch = "stuck-touch"
    case displayLost = "display-lost"
    /// A reloaded configuration moved the grid, so the nodes under the finger are others.
    case gridChanged = "grid-changed"
    /// The compositor took the touch over (`wl_touch.cancel`, a gesture), or the pointer left
    /// the lock surface with its button down.
    case inputTakenOver = "input-taken-over"
}
