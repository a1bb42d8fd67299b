import GridlockArguments
import GridlockConfiguration
import GridlockCore
import GridlockFace
import GridlockRendering
import GridlockThemeFiles
import GridlockWayland
import LinuxSys

let usage = """
    Usage: gridlock-lock [--theme FILE] [--socket PATH]
           gridlock-lock --now

    Locks this Wayland session (ext-session-lock-v1: sway, labwc) with gridlock's pattern
    grid, one lock surface per output. Each finished stroke is sent to gridlockd, which
    checks it, counts failures, locks out and runs the pattern's action; the session is
    unlocked only when gridlockd accepts. If this program stops or crashes, the session
    stays locked. Run it as the session's user, from the compositor's autostart or the
    user unit gridlock-lock.service.

    Options:
      --theme FILE   the look ([theme], [grid], [display]) and [session] socket= and
                     relock-after=, a file the session user may read that holds no secret
                     (default /etc/gridlock/face.conf if it exists, else built-in defaults)
      --socket PATH  gridlockd's session socket (default: the theme file's [session]
                     socket=, else /run/gridlock/session.sock)
      --now          lock the session again now: tells this user's running gridlock-lock
                     (the same as SIGUSR1)
      --help         show this help

    It believes only a gridlockd that runs as root (the socket's peer credentials): a
    socket served by any other user is refused, and the session stays locked.

    Exit status: 0 stopped by SIGTERM/SIGINT (the session stays as it was), at any moment,
    also while connecting, 64 usage, 69 no compositor, none that finished its first
    roundtrip within 5 s, or one without ext-session-lock-v1, 70 another lock client
    holds the session, 75 the compositor went away, 78 a broken theme file.
    """

let processStarted = Stopwatch()

func main() -> Int32 {
    var arguments = Arguments(Array(CommandLine.arguments.dropFirst()), command: "gridlock-lock")
    if arguments.flag("--help") || arguments.flag("-h") {
        print(usage)
        return 0
    }
    let themePath: String?
    let socketOption: String?
    let now: Bool
    do {
        themePath = try arguments.option("--theme")
        socketOption = try arguments.option("--socket")
        now = arguments.flag("--now")
        try arguments.finish()
    } catch {
        Journal.log(.error, error.description)
        return 64
    }
    if now { return lockNow() }

    let settings: ThemeSettings
    let (judgedPath, verdict) = ThemeFile.judge(named: themePath, look: DecodingLookInspection())
    switch verdict {
    case .success(let judged):
        settings = judged
    case .failure(let error):
        for diagnostic in error.diagnostics { Journal.log(.error, diagnostic.description) }
        Journal.log(.error, "refusing to start: fix the theme file \(judgedPath ?? ThemeFile.defaultPath)")
        return 78
    }
    var face = FaceSettings()
    face.showPath = settings.grid.showPath
    let grid = FaceGrid(sizeFraction: settings.grid.sizeFraction, hitRadiusFraction: settings.grid.hitRadiusFraction)
    do {
        guard let (loop, connection) = try WaylandLockFace.connect() else { return 0 }
        let lock = try WaylandLockFace(
            loop: loop, connection: connection, settings: face, grid: grid, theme: settings.theme, socket: socketOption ?? settings.session.socket,
            relockAfter: settings.session.relockAfter, started: processStarted)
        switch try lock.run() {
        case .stopped: return 0
        case .lockRefused: return 70
        case .compositorLost(let why):
            Journal.log(.error, why)
            return 75
        }
    } catch let error as WaylandError {
        Journal.log(.error, error.description)
        if case .missingProtocols = error { return 69 }
        if case .noCompositor = error { return 69 }
        if case .noAnswer = error { return 69 }
        return 75
    } catch {
        Journal.log(.error, "\(error)")
        return 70
    }
}

/// `--now`: SIGUSR1 to this user's running faces.
func lockNow() -> Int32 {
    let faces = ProcessTable.processes(named: "gridlock-lock", user: UserDatabase.currentUserID)
    guard !faces.isEmpty else {
        Journal.log(.error, "no gridlock-lock of this user runs: start it (gridlock-lock, or systemctl --user start gridlock-lock)")
        return 69
    }
    return faces.allSatisfy { Signal.user1.send(to: $0) } ? 0 : 70
}

exitProcess(main())
