import LinuxSys

/// What went wrong talking to the compositor, said so a person can act on it.
public enum WaylandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// wl_display_connect failed: no compositor listens at `socket` (or it is not ours to use).
    case noCompositor(socket: String, errno: Errno)
    /// The compositor lacks globals the face needs (interface names, with a version when too old).
    case missingProtocols([String])
    /// The connection broke: the compositor exited or closed it (EPIPE, a hang-up).
    case disconnected(errno: Errno)
    /// The compositor rejected a request and closed the connection.
    case protocolError(interface: String, objectID: UInt32, code: UInt32)
    /// Connected, but no first roundtrip within the handshake's limit: not a compositor, or
    /// a hung one.
    case noAnswer(socket: String, seconds: Int)
    case system(SystemCallError)

    public var description: String {
        switch self {
        case .noCompositor(let socket, let errno):
            return "no Wayland compositor at \(socket): \(errno); run in the session (WAYLAND_DISPLAY and XDG_RUNTIME_DIR set)"
        case .missingProtocols(let names):
            var text = "the compositor lacks \(names.joined(separator: ", "))"
            if names.contains(where: { $0.hasPrefix(RequiredGlobals.sessionLockManager) }) {
                text += "; ext-session-lock-v1 is offered by sway 1.8+ (wlroots 0.16+) and labwc 0.6+, not by cage, weston or GNOME"
            }
            return text
        case .disconnected(let errno):
            return "the compositor closed the connection: \(errno)"
        case .protocolError(let interface, let objectID, let code):
            return "the compositor reported protocol error \(code) on \(interface)@\(objectID) and closed the connection"
        case .noAnswer(let socket, let seconds):
            return "no Wayland compositor answered at \(socket) within \(seconds) s (it accepted the connection and never finished the first roundtrip): not a compositor, or a hung one"
        case .system(let error):
            return "\(error)"
        }
    }
}

/// Where libwayland's wl_display_connect(NULL) looks, for an error that names it:
/// WAYLAND_DISPLAY (default wayland-0), relative to XDG_RUNTIME_DIR unless absolute.
public enum WaylandSocket {
    public static func path(environment: (String) -> String?) -> String {
        let name = environment("WAYLAND_DISPLAY").flatMap { $0.isEmpty ? nil : $0 } ?? "wayland-0"
        if name.hasPrefix("/") { return name }
        guard let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else {
            return "\(name) (XDG_RUNTIME_DIR is not set)"
        }
        return runtime.hasSuffix("/") ? runtime + name : runtime + "/" + name
    }
}
