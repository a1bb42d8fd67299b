import GridlockArguments
import GridlockConfiguration
import GridlockCore
import GridlockDevices
import GridlockPanel
import GridlockRendering
import LinuxSys

let usage = """
    Usage: gridlock-panel [--config FILE] [--socket PATH]
           gridlock-panel --check-config [--config FILE]

    The panel's face: draws gridlock's pattern grid straight on the panel's display
    (DRM/KMS) and reads the finger from its touchscreen (evdev), as an unprivileged user
    with no capabilities. Each finished stroke is sent to gridlockd over its session
    socket; gridlockd checks it, counts failures, locks out and opens the door. This
    program holds no hash and decides nothing: if it stops or crashes, the door stays shut
    and systemd starts it again (gridlock-panel.service).

    Options:
      --config FILE   the face file: [display], [touch], [grid], [theme], [feedback] and
                      [session] socket=, a file that holds no secret (default
                      /etc/gridlock/face.conf if it exists, else built-in defaults)
      --socket PATH   gridlockd's session socket (default: the face file's [session]
                      socket=, else /run/gridlock/session.sock)
      --check-config  judge the face file as a start would (values, fonts, images) and
                      exit: 0 good, 78 not
      --help          show this help

    SIGHUP reads the face file again (systemctl reload gridlock-panel): a good one changes
    the look, the grid's size and hit radius, the looks' durations, the sounds and
    blank-after at once; a bad one changes nothing and each problem is logged at its
    FILE:LINE. The display, the touchscreen, the beeper and the socket take a restart.

    It believes only a gridlockd that runs as root (the socket's peer credentials): a
    socket served by any other user is refused, and the lock stays shut.

    Exit status: 0 stopped by SIGTERM/SIGINT, 1 no display or touchscreen could be set
    up, 64 usage, 78 a broken face file.
    """

let processStarted = Stopwatch()

func main() -> Int32 {
    var arguments = Arguments(Array(CommandLine.arguments.dropFirst()), command: "gridlock-panel")
    if arguments.flag("--help") || arguments.flag("-h") {
        print(usage)
        return 0
    }
    let facePath: String?
    let socketOption: String?
    let checkOnly: Bool
    do {
        facePath = try arguments.option("--config")
        socketOption = try arguments.option("--socket")
        checkOnly = arguments.flag("--check-config")
        try arguments.finish()
    } catch {
        Journal.log(.error, error.description)
        return 64
    }
    let settings: ThemeSettings
    let (judgedPath, verdict) = ThemeFile.judge(named: facePath, look: DecodingLookInspection())
    switch verdict {
    case .success(let judged):
        settings = judged
    case .failure(let error):
        for diagnostic in error.diagnostics { Journal.log(.error, diagnostic.description) }
        Journal.log(.error, "refusing to start: fix the face file \(judgedPath ?? ThemeFile.defaultPath)")
        return 78
    }
    if checkOnly {
        print("\(judgedPath ?? "the built-in face (no \(ThemeFile.defaultPath))"): good")
        return 0
    }
    let face: PanelFace
    do throws(PanelDeviceError) {
        face = PanelFace(
            parts: try PanelParts(settings: settings), socket: socketOption ?? settings.session.socket, faceFile: facePath)
    } catch {
        Journal.log(.error, "cannot start: \(error)")
        return 1
    }
    var firstFrameSaid = false
    face.onPresent = { _ in
        guard !firstFrameSaid else { return }
        firstFrameSaid = true
        Journal.log(.info, "first lock frame presented \(Int(processStarted.elapsedMilliseconds.rounded())) ms after start")
        try? SystemdNotifier.fromEnvironment().notify("READY=1")
    }
    face.onReloading = { started in
        let notifier = try? SystemdNotifier.fromEnvironment()
        if let started {
            try? notifier?.notify("RELOADING=1\nMONOTONIC_USEC=\(started.nanoseconds / 1000)")
        } else {
            try? notifier?.notify("READY=1")
        }
    }
    do throws(SystemCallError) {
        try face.run()
    } catch {
        Journal.log(.critical, "event loop: \(error)")
        return 1
    }
    Journal.log(.info, "gridlock-panel stopped")
    return 0
}

exitProcess(main())
