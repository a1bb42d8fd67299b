import GridlockConfiguration
import GridlockArguments
import GridlockDaemon
import GridlockDaemonPanel
import GridlockInput
import GridlockEvdev

let devicesCommand = Command(
    name: "devices",
    summary: "list touch devices, beepers and displays, and what device=auto would choose",
    usage: """
        Usage: gridlock devices [--config FILE] [--input-directory DIR]

        Input: every /dev/input/event* node: name, by-path/by-id links, bus and IDs,
        whether udev's rule calls it a touchscreen (and why not), properties, absolute
        axes with their ranges, buttons. The device [touch] device=auto would choose is
        marked, and the beeper [feedback] beeper=auto would sound (EV_SND) named. Nodes that cannot be opened are listed with the reason: run as root or
        in group `input` to see them all.

        Display: every /dev/dri/card*: driver, KMS and dumb-buffer support, connectors
        with status, modes and panel orientation, and the card, connector, mode and CRTC
        that [display] (from --config, else the defaults) would choose.

          --config FILE            use this config's [display] choices (default: defaults)
          --input-directory DIR    look in DIR instead of /dev/input
        """
) { arguments in
    let directory = try arguments.option("--input-directory") ?? InputDeviceDirectory.defaultPath
    let configPath = try arguments.option("--config")
    try arguments.finish()
    let config = try configPath.map { try ConfigVerdict.loadSkippingFileSafety(path: $0).config } ?? GridlockConfig()
    printEscaped("Touch input (\(directory))")
    printEscaped(InputDeviceReport.text(directory: directory), terminator: "")
    printEscaped("")
    printEscaped("Displays (/dev/dri)")
    printEscaped(config.displayDeviceReport(), terminator: "")
    return 0
}
