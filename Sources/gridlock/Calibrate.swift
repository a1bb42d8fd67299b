import GridlockArguments
import GridlockConfiguration
import GridlockCore
import GridlockDaemon
import GridlockDaemonPanel
import GridlockInput
import GridlockRendering
import LinuxSys

let calibrateCommand = Command(
    name: "calibrate",
    summary: "calibrate the touch panel: tap five crosses, store the fitted matrix",
    usage: """
        Usage: gridlock calibrate [--config FILE] [--face-config FILE] [--timeout SECONDS] [--dry-run]

        Shows five crosses in turn on the panel (the corners inset by 10 % and the centre,
        as tslib's ts_calibrate does) and reads one tap on each from its touchscreen,
        uncalibrated. Fits the affine map by least squares, refuses a degenerate or
        implausible fit with the reason, and prints the six numbers
        (LIBINPUT_CALIBRATION_MATRIX semantics, applied before [display] rotation) and the
        residual error in pixels. The configuration must pass gridlock check-config, owners
        and modes included, as gridlockd's must (exit status 78).

        Where the crosses show and the matrix goes:
          - gridlockd drives the panel itself ([display] backend=drm, [touch] backend=evdev):
            this command shows the crosses on the configured display and writes
            FILE.d/40-calibration.conf ([touch] calibration=). Stop gridlockd first: it
            holds the panel; a [touch] change takes effect when it starts again.
          - The panel's face runs apart ([display] and [touch] backend=none, [session] on):
            gridlockd lends the panel to gridlock-panel, which shows the crosses with its
            touchscreen's calibration set aside and sends the taps back through gridlockd
            (exit status 75 when no face holds the panel or it is busy). The fit is set as
            [touch] calibration= in the face's file (--face-config), every other line kept;
            restart gridlock-panel to use it.

          --face-config FILE  the face's file (default /etc/gridlock/face.conf)
          --timeout S   give up when a cross is not tapped within S seconds
                        (1 to 3600, default 60)
          --dry-run     print the result, write nothing
        """
) { arguments in
    let configPath = try arguments.option("--config") ?? ConfigVerdict.defaultPath
    let facePath = try arguments.option("--face-config") ?? ThemeFile.defaultPath
    let timeout = try arguments.integer("--timeout", in: 1...3600) ?? 60
    let dryRun = arguments.flag("--dry-run")
    try arguments.finish()
    let config = try ConfigVerdict.load(path: configPath).config
    if config.display.backend == .off, config.touch.backend == .off, config.session.enabled {
        return try calibrateThroughFace(socket: config.session.socket, facePath: facePath, timeout: timeout, dryRun: dryRun)
    }
    let running = ProcessTable.processes(named: "gridlockd")
    if config.touch.backend == .evdev || config.display.backend == .drm, !running.isEmpty {
        throw CommandError("gridlockd (pid \(running.map(String.init).joined(separator: ", "))) holds the panel; stop it first (systemctl stop gridlockd)")
    }
    let session = try CalibrationSession(config: config)
    switch session.run(timeout: .seconds(timeout)) {
    case .interrupted:
        throw CommandError("interrupted; nothing written")
    case .timedOut:
        throw CommandError("no tap within \(timeout) s; nothing written")
    case .refused(let error):
        throw CommandError(calibrationRefusal(error))
    case .fitted(let fit, let rotation):
        printFit(fit, rotation: rotation)
        guard !dryRun else { return 0 }
        let path = "\(configPath).d/40-calibration.conf"
        let text = "# Written by gridlock calibrate (residual \(fixedDecimal(fit.rmsErrorPixels, decimals: 2)) px RMS).\n[touch]\ncalibration=\(fit.configValue)\n"
        try Directory.create("\(configPath).d")
        try AtomicFile.write(Array(text.utf8), to: path, mode: 0o644)
        Journal.log(.notice, "gridlock calibrate: wrote \(path) (residual \(fixedDecimal(fit.rmsErrorPixels, decimals: 2)) px RMS)")
        printEscaped("wrote \(path); restart gridlockd to use it (systemctl restart gridlockd)")
        return 0
    }
}

/// The crosses on the panel's face, lent by gridlockd; the fit set in the face's file.
private func calibrateThroughFace(socket: String, facePath: String, timeout: Int, dryRun: Bool) throws -> Int32 {
    // The face's file must pass its own verdict before anyone taps: the line set in it is
    // the only change, so what gridlock-panel reads afterwards passes too.
    let exists = PathLookup.exists(facePath)
    if exists, case .failure(let error) = ThemeFile.judge(named: facePath, look: DecodingLookInspection()).verdict {
        for diagnostic in error.diagnostics { printError(diagnostic.description) }
        throw PanelLoanClient.Failure(
            description: "fix the face's file \(facePath) first (gridlock-panel --check-config --config \(facePath)); nothing was calibrated",
            exitStatus: 78)
    }
    let crosses = CalibrationTaps.targets.count
    let purpose = PanelLoanClient.Purpose(
        request: .calibrate,
        asking: "asking gridlockd to lend the panel's face to this calibration: touch the centre of each of the \(crosses) crosses there",
        nothingDone: "nothing written", otherwise: "or calibrate with the face stopped and [display]/[touch] in gridlockd's configuration")
    let reply = try PanelLoanClient.borrow(purpose, socket: socket, timeout: .seconds(timeout * crosses))
    guard case .calibration(let taps) = reply else { throw CommandError("gridlockd answered with \(reply); nothing written") }
    let samples = zip(CalibrationTaps.targets, taps.touches).map { CalibrationFit.Sample(target: $0, touch: $1) }
    let fit: CalibrationFit
    do {
        fit = try CalibrationFit.fit(samples: samples, rotation: taps.rotation, frame: Size(width: Double(taps.width), height: Double(taps.height)))
    } catch {
        throw CommandError(calibrationRefusal(error))
    }
    printFit(fit, rotation: taps.rotation)
    guard !dryRun else { return 0 }
    let before = exists ? try AtomicFile.regularFileContents(of: facePath, limit: 1 << 20) : []
    let after = FaceFileCalibration.setting(fit.configValue, in: String(decoding: before, as: UTF8.self))
    let mode = exists ? (try FileStatus(path: facePath)).mode & 0o7777 : 0o644
    try AtomicFile.write(Array(after.utf8), to: facePath, mode: mode)
    Journal.log(.notice, "gridlock calibrate: set [touch] calibration= in \(facePath) (residual \(fixedDecimal(fit.rmsErrorPixels, decimals: 2)) px RMS, through the panel's face)")
    printEscaped("set [touch] calibration= in \(facePath); restart gridlock-panel to use it (systemctl restart gridlock-panel)")
    return 0
}

private func printFit(_ fit: CalibrationFit, rotation: Rotation) {
    printEscaped("calibration=\(fit.configValue)")
    printEscaped("residual error: \(fixedDecimal(fit.rmsErrorPixels, decimals: 2)) px RMS, \(fixedDecimal(fit.maxErrorPixels, decimals: 2)) px worst (display rotation \(rotation.degrees))")
}

private func calibrationRefusal(_ error: CalibrationFitError) -> String {
    "calibration refused: \(error)\nNothing written; run it again and tap the centre of each cross."
}
