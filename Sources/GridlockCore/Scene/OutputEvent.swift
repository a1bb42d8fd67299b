/// What the loop must do after an output (a display, a compositor's surface) handled an
/// event: news for whoever draws on it, in the core so that the daemon hears it through
/// `LockPresenter` without linking a display library.
public enum OutputEvent: Equatable, Sendable {
    case none
    /// The picture was lost (display came back, master regained): present the whole frame.
    case redrawAll
    /// A display appeared or changed mode: lay out, render and present anew at this size.
    case resized(Size)
}
