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
      --bench-stroke  for `gridlock bench`: no display (frames drawn and dropped), the
                      touchscreen the face file describes read from standard input as
                      binary input events once gridlockd answers; prints the CPU time
                      from then to the stroke's verdict and the frames drawn, and exits
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
    let benchStroke: Bool
    do {
        facePath = try arguments.option("--config")
        socketOption = try arguments.option("--socket")
        checkOnly = arguments.flag("--check-config")
        benchStroke = arguments.flag("--bench-stroke")
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
    let parts: PanelParts
    do throws(PanelDeviceError) {
        parts = try PanelParts(settings: settings, benchStroke: benchStroke)
        face = PanelFace(
            parts: parts, socket: socketOption ?? settings.session.socket, faceFile: facePath,
            touchOnceAnswered: benchStroke)
    } catch {
        Journal.log(.error, "cannot start: \(error)")
        return 1
    }
    if benchStroke { return measureStroke(face, parts) }
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

/// `--bench-stroke`: the CPU time of one stroke through the face, from gridlockd's first
/// answer (when the touchscreen is attached) to the stroke's verdict, as `gridlockd
/// --bench-stroke` measures from its first frame to its stroke's end.
func measureStroke(_ face: PanelFace, _ parts: PanelParts) -> Int32 {
    var start: (cpu: Int64, frames: Int)?
    var verdict = false
    var gaveUp = false
    face.onReport = { report in
        switch report {
        case .serviceAvailable where start == nil:
            start = (ProcessStatus.cpuTimeNanoseconds(), face.framesPresented)
        case .accepted, .rejected, .lockedOut, .notChecked, .tooShort, .strokeCancelled:
            verdict = start != nil
        default:
            break
        }
    }
    // A face that never hears gridlockd, or a stroke that never ends, is a failed run.
    let giveUp = parts.loop.deadline("bench give-up")
    giveUp.due = parts.loop.now() + .seconds(30)
    giveUp.onFire { _ in gaveUp = true }
    do throws(SystemCallError) {
        try face.run(until: { (verdict && parts.touch.isExhausted) || gaveUp })
    } catch {
        Journal.log(.critical, "event loop: \(error)")
        return 1
    }
    guard let start, verdict else {
        Journal.log(.error, start == nil ? "gridlockd never answered within 30 s" : "the stroke had no verdict within 30 s")
        return 1
    }
    print("stroke-cpu-ns \(ProcessStatus.cpuTimeNanoseconds() - start.cpu)")
    print("stroke-frames \(face.framesPresented - start.frames)")
    return 0
}

exitProcess(main())
