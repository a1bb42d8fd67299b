import GridlockArguments
import GridlockDaemon
import GridlockDaemonPanel
import GridlockInput
import LinuxSys

let calibrateCommand = Command(
    name: "calibrate",
    summary: "calibrate the touch panel: tap five crosses, store the fitted matrix",
    usage: """
        Usage: gridlock calibrate [--config FILE] [--timeout SECONDS] [--dry-run]

        Shows five crosses in turn on the configured display (the corners inset by 10 %
        and the centre, as tslib's ts_calibrate does) and reads one tap on each from the
        configured touch device, uncalibrated. Fits the affine map by least squares,
        refuses a degenerate or implausible fit with the reason, prints the six numbers
        (LIBINPUT_CALIBRATION_MATRIX semantics, applied before [display] rotation) and the
        residual error in pixels, and writes them to FILE.d/40-calibration.conf as
        [touch] calibration= (a [touch] change takes effect when gridlockd restarts).
        Stop gridlockd first: it holds the panel. The configuration must pass gridlock
        check-config, owners and modes included, as gridlockd's must (exit status 78).

          --timeout S   give up when a cross is not tapped within S seconds
                        (1 to 3600, default 60)
          --dry-run     print the result, write nothing
        """
) { arguments in
    let configPath = try arguments.option("--config") ?? ConfigVerdict.defaultPath
    let timeout = try arguments.integer("--timeout", in: 1...3600) ?? 60
    let dryRun = arguments.flag("--dry-run")
    try arguments.finish()
    let config = try ConfigVerdict.load(path: configPath).config
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
        throw CommandError("calibration refused: \(error)\nNothing written; run it again and tap the centre of each cross.")
    case .fitted(let fit, let rotation):
        printEscaped("calibration=\(fit.configValue)")
        printEscaped("residual error: \(fixedDecimal(fit.rmsErrorPixels, decimals: 2)) px RMS, \(fixedDecimal(fit.maxErrorPixels, decimals: 2)) px worst (display rotation \(rotation.degrees))")
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
