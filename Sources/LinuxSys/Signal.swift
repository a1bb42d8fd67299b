import Glibc

/// A signal number with a name, so code outside this module needs neither Glibc's
/// constants nor a table of names of its own.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let hangUp = Signal(rawValue: SIGHUP)
    public static let interrupt = Signal(rawValue: SIGINT)
    public static let quit = Signal(rawValue: SIGQUIT)
    public static let kill = Signal(rawValue: SIGKILL)
    public static let user1 = Signal(rawValue: SIGUSR1)
    public static let user2 = Signal(rawValue: SIGUSR2)
    public static let pipe = Signal(rawValue: SIGPIPE)
    public static let terminate = Signal(rawValue: SIGTERM)
    public static let child = Signal(rawValue: SIGCHLD)

    /// Journals are read by people: `SIGTERM`, not 15.
    public var description: String {
        switch rawValue {
        case SIGHUP: "SIGHUP"
        case SIGINT: "SIGINT"
        case SIGQUIT: "SIGQUIT"
        case SIGILL: "SIGILL"
        case SIGABRT: "SIGABRT"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGUSR1: "SIGUSR1"
        case SIGSEGV: "SIGSEGV"
        case SIGUSR2: "SIGUSR2"
        case SIGPIPE: "SIGPIPE"
        case SIGALRM: "SIGALRM"
        case SIGTERM: "SIGTERM"
        case SIGCHLD: "SIGCHLD"
        default: "signal \(rawValue)"
        }
    }

    /// From now on this signal does nothing to this process (SIG_IGN); a child spawned
    /// later starts with it at default again (`SpawnedProcess.defaultedSignals`).
    public func ignore() { _ = Glibc.signal(rawValue, SIG_IGN) }

    /// Sends this signal to `pid` (a negative pid names a process group); false when
    /// the target is gone or not ours to signal.
    @discardableResult
    public func send(to pid: Int32) -> Bool { Glibc.kill(pid, rawValue) == 0 }
}
