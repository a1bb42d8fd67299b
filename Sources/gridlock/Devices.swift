import GridlockInput

let devicesCommand = Command(
    name: "devices",
    summary: "list input devices, their axes and ranges, and the one device=auto would choose",
    usage: """
        Usage: gridlock devices [--directory DIR]

        Lists every /dev/input/event* node: name, by-path/by-id links, bus and IDs,
        whether udev's rule calls it a touchscreen (and why not), properties, absolute
        axes with their ranges, buttons. The device [touch] device=auto would choose is
        marked. Nodes that cannot be opened are listed with the reason: run as root or
        in group `input` to see them all.

          --directory DIR   look in DIR instead of /dev/input
        """
) { arguments in
    let directory = try arguments.option("--directory") ?? InputDeviceDirectory.defaultPath
    try arguments.finish()
    print(InputDeviceReport.text(directory: directory), terminator: "")
    return 0
}
