import GridlockCore

/// Every section and key the loader knows, as data: adding a key is adding one entry here
/// (and its row in docs/configuration.md, which `ConfigDocsTests` insists on). The order of
/// sections and keys is the order of the "known: ..." lists in messages.
package enum ConfigSchema {
    package static let sections = [display, touch, grid, theme, feedback, lockout, security, action, session]

    /// `[pattern NAME]`: the only section that takes a name, and whose sections add up
    /// instead of overriding each other.
    package static let pattern = ConfigSection<PatternDraft>("pattern", [
        ConfigKey("hash", .argon2Hash, \.hash, default: .unset("required"),
                  "The argon2id hash of the pattern, from `gridlock hash` or enrolment."),
        ConfigKey("exec", .commandLine, \.exec, default: .unset("none"), "The program to run on a match."),
        ConfigKey("duress", .boolean, \.duress, default: .value("false"), "Marks a pattern to draw under coercion."),
        ConfigKey("duress-exec", .commandLine, \.duressExec, default: .unset("none"),
                  "The silent alarm a duress pattern runs as well."),
        ConfigKey("grid", ValueType(allowed: "ROWSxCOLUMNS (3x3)", parse: ConfigValues.gridShape), \.grid,
                  default: .unset("not recorded"), "The grid the pattern was enrolled on; its hash matches only there."),
        ConfigKey("valid", ValueType(allowed: "DAYS HH:MM-HH:MM; ...", parse: ConfigValues.weeklyWindows), \.windows,
                  default: .unset("any time"), "Weekly windows in local time when the pattern may open."),
        ConfigKey("valid-from", ValueType(allowed: "YYYY-MM-DD[THH:MM[:SS]]", parse: ConfigValues.validFrom), \.validFrom,
                  default: .unset("no start"), "The first local time the pattern may open."),
        ConfigKey("valid-until", ValueType(allowed: "YYYY-MM-DD[THH:MM[:SS]]", parse: ConfigValues.validUntil), \.validUntil,
                  default: .unset("no end"), "The last local time the pattern may open (a date: to its end)."),
        ConfigKey("uses", .integer(1...1_000_000), \.uses, default: .unset("unlimited"),
                  "Accepted unlocks in all; then it no longer matches."),
    ])

    /// `[on EVENT]`: a program run when something happens (`HookEvent`). A later file's
    /// section for the same event overrides its keys, as plain sections do.
    package static let hook = ConfigSection<HookDraft>("on", [
        ConfigKey("exec", .commandLine, \.exec, default: .unset("required"), "The program to run."),
        ConfigKey("after", .integer(1...1_000_000), \.after, default: .unset("1"),
                  "[on failure] only: run from this many consecutive failures on."),
        ConfigKey("timeout", .secondsOrNever(0...86_400), \.timeout, default: .value("10"),
                  "How long it may run before it is stopped."),
    ])

    package static var sectionNames: [String] { sections.map(\.name) + [pattern.name, hook.name] }

    package static func section(named name: String) -> ConfigSection<ConfigDraft>? { sections.first { $0.name == name } }

    package static let display = ConfigSection<ConfigDraft>("display", [
        ConfigKey("backend", .oneOf(DisplayBackend.self), \.config.display.backend, default: .value("drm"),
                  "drm shows on a DRM/KMS display; png writes one PNG per frame into output-dir."),
        ConfigKey("device", ValueType(allowed: "auto, an absolute path (/dev/dri/card1)", parse: ConfigValues.displayDevice)
                    .naming(.displayCard) { if case .path(let path) = $0 { [path] } else { [] } },
                  \.config.display.device, default: .value("auto"), "The DRM card."),
        ConfigKey("connector", ValueType(allowed: "auto, a connector name (HDMI-A-1, DSI-1)", parse: ConfigValues.connector),
                  \.config.display.connector, default: .value("auto"), "The output on that card."),
        ConfigKey("mode", ValueType(allowed: "preferred, current, WxH, WxH@HZ", parse: ConfigValues.displayMode),
                  \.config.display.mode, default: .value("preferred"), "The display mode to set."),
        ConfigKey("rotation", ValueType(allowed: "0, 90, 180, 270", parse: ConfigValues.rotation),
                  \.config.display.rotation, default: .value("0"), "How far picture and touch are turned clockwise."),
        ConfigKey("size", ValueType(allowed: "WxH, each 1 to 16384", parse: ConfigValues.pixelSize),
                  \.config.display.size, default: .value("800x480"), "The frame size of the png backend."),
        ConfigKey("output-dir", .folder, \.config.display.outputDirectory, default: .unset("none"),
                  "Where the png backend writes its frames."),
        ConfigKey("blank-after", .secondsOrNever(0...86_400), \.config.display.blankAfter, default: .value("0"),
                  "Idle time before the screen blanks."),
    ])

    package static let touch = ConfigSection<ConfigDraft>("touch", [
        ConfigKey("backend", .oneOf(TouchBackend.self), \.config.touch.backend, default: .value("evdev"),
                  "evdev reads a kernel input device; replay plays an evemu recording."),
        ConfigKey("device", ValueType(allowed: "auto, a path, name:SUBSTRING", parseWithSource: ConfigValues.touchDevice)
                    .naming(.touchDevice) { if case .path(let path) = $0 { [path] } else { [] } },
                  \.config.touch.device, default: .value("auto"), "The touch device, or the recording."),
        ConfigKey("calibration", ValueType(allowed: "six numbers a b c d e f", parse: ConfigValues.calibration),
                  \.config.touch.calibration, default: .unset("none"), "A LIBINPUT_CALIBRATION_MATRIX for the touch coordinates."),
        ConfigKey("grab", .boolean, \.config.touch.grab, default: .value("true"), "Takes the device exclusively (EVIOCGRAB)."),
        ConfigKey("stuck-touch-ms", .milliseconds(100...600_000), \.config.touch.stuckTouch, default: .value("5000"),
                  "A contact held still this long is treated as stuck."),
    ])

    /// The nodes of the largest grid.
    private static let mostNodes = GridShape.allowedDimensions.upperBound * GridShape.allowedDimensions.upperBound

    package static let grid = ConfigSection<ConfigDraft>("grid", [
        ConfigKey("rows", .integer(GridShape.allowedDimensions), \.rows, default: .value("3"), "Nodes per column."),
        ConfigKey("columns", .integer(GridShape.allowedDimensions), \.columns, default: .value("3"), "Nodes per row."),
        ConfigKey("size", .decimal(GridLayout.allowedSizeFraction), \.config.grid.sizeFraction, default: .value("0.8"),
                  "The side of the grid as a fraction of the shorter screen side."),
        ConfigKey("hit-radius", .decimal(GridLayout.allowedHitRadiusFraction), \.config.grid.hitRadiusFraction,
                  default: .value("0.6"), "The touch radius of a node as a fraction of half a cell."),
        // The bound that matters, rows×columns, is known only after the last file (`finish()`).
        ConfigKey("min-nodes", .integer(1...mostNodes).described(as: "1 to rows×columns"), \.config.grid.minNodes,
                  default: .value("4"), "The fewest nodes a pattern may have."),
        ConfigKey("show-path", .boolean, \.config.grid.showPath, default: .value("true"), "Draws the path while it is drawn."),
    ])

    package static let theme = ConfigSection<ConfigDraft>("theme", themeLook + themeImages)

    private static let themeLook: [ConfigKey<ConfigDraft>] = [
        ConfigKey("background", .colour, \.config.theme.background, default: .value("#101418"), "Behind everything."),
        ConfigKey("node", .colour, \.config.theme.node, default: .value("#5A6270"), "Nodes not touched yet."),
        ConfigKey("selected", .colour, \.config.theme.selected, default: .value("#2E9BFF"), "Nodes and path while drawing."),
        ConfigKey("error", .colour, \.config.theme.error, default: .value("#F0454B"), "A wrong pattern, and its messages."),
        ConfigKey("success", .colour.withRefusalNote(" (the success message is success-text=)"), \.config.theme.success,
                  default: .value("#3CC873"), "A right pattern, and its messages."),
        ConfigKey("text", .colour, \.config.theme.text, default: .value("#DDE3EA"), "Other messages, and the calibration cross."),
        ConfigKey("font", .font, \.config.theme.font, default: .value("DejaVu Sans"),
                  "The family (as fc-list names it) or the font file the messages are set in; characters it lacks come from another installed font."),
        ConfigKey("prompt", .message(.none), \.config.theme.prompt, default: .value("Draw your unlock pattern"),
                  "Asks for a pattern."),
        ConfigKey("wrong", .message(.wrong), \.config.theme.wrong, default: .value("Wrong pattern, try again"),
                  "After a wrong pattern; {failures} so far, {remaining} before the next lockout."),
        ConfigKey("verifying", .message(.none), \.config.theme.verifying, default: .value("Checking…"),
                  "While the hash is checked."),
        ConfigKey("too-short", .message(.tooShort), \.config.theme.tooShort, default: .value("Connect at least {minimum} dots"),
                  "After a stroke shorter than min-nodes; {minimum} is min-nodes."),
        ConfigKey("locked-out", .message(.lockedOut), \.config.theme.lockedOut,
                  default: .value("Too many attempts. Try again in {seconds} s"), "During a lockout; {seconds} counts down the seconds left."),
        ConfigKey("cannot-record", .message(.none), \.config.theme.cannotRecord,
                  default: .value("Out of service: attempts cannot be recorded"),
                  "When a failure cannot be written to the state file: the attempt is not checked."),
        ConfigKey("service-unavailable", .message(.none), \.config.theme.serviceUnavailable,
                  default: .value("Cannot check patterns: the gridlock service is not running"),
                  "On a lock face in a user session (gridlock-lock) that cannot reach gridlockd: nothing is checked, the session stays locked."),
        ConfigKey("busy", .message(.none), \.config.theme.busy, default: .value("Busy, try again"),
                  "On a lock face, when gridlockd did not check the stroke (another check or a finger on the panel came first); not counted."),
        ConfigKey("success-text", .message(.none), \.config.theme.successText, default: .value("Unlocked"),
                  "After a right pattern."),
        ConfigKey("enroll-draw", .message(.none), \.config.theme.enrollDraw,
                  default: .value("Draw a new unlock pattern"), "Enrolment asks for the new pattern."),
        ConfigKey("enroll-confirm", .message(.none), \.config.theme.enrollConfirm,
                  default: .value("Draw the pattern again to confirm"), "Enrolment asks for it a second time."),
        ConfigKey("enroll-mismatch", .message(.none), \.config.theme.enrollMismatch,
                  default: .value("Patterns don't match, start over"), "The two drawings differed."),
        ConfigKey("enroll-saved", .message(.none), \.config.theme.enrollSaved, default: .value("Pattern saved"),
                  "Enrolment is done."),
        ConfigKey("calibrate", .message(.calibrate), \.config.theme.calibrate,
                  default: .value("Touch the centre of the cross ({step} of {count})"), "Shown by gridlock calibrate; {step} of {count}."),
    ]

    /// Images and sizes of the theme: each PNG file is checked where it is written (read,
    /// its chunks sound, at most 16384 pixels a side), and the images in effect together
    /// by the verdict (their pixels within one budget, each decoded), so check-config and
    /// gridlockd refuse the same ones.
    private static let themeImages: [ConfigKey<ConfigDraft>] = [
        ConfigKey("node-image", .pngImage, \.config.theme.nodeImage, default: .unset("none"),
                  "Drawn instead of the ring of a node not touched yet."),
        ConfigKey("selected-image", .pngImage, \.config.theme.selectedImage, default: .unset("none"),
                  "Drawn instead of the ring of a touched node."),
        ConfigKey("error-image", .pngImage, \.config.theme.errorImage, default: .unset("none"),
                  "Drawn instead of the ring of a node of a wrong pattern."),
        ConfigKey("success-image", .pngImage, \.config.theme.successImage, default: .unset("none"),
                  "Drawn instead of the ring of a node of a right pattern."),
        ConfigKey("node-size", .decimal(SceneGeometry.allowedNodeSize), \.config.theme.nodeSize, default: .value("0.24"),
                  "The drawn diameter of a node, ring or image, as a fraction of a cell."),
        ConfigKey("background-image", .pngImage, \.config.theme.backgroundImage, default: .unset("none"),
                  "Drawn behind everything, placed by background-fit."),
        ConfigKey("background-fit", .oneOf(BackgroundFit.self), \.config.theme.backgroundFit, default: .value("fill"),
                  "How the background image meets the screen's size."),
        ConfigKey("line-colour", .colour, \.config.theme.lineColor, default: .unset("the state's colour"),
                  "The path's colour in every state."),
        ConfigKey("line-width", .decimal(SceneGeometry.allowedLineWidth), \.config.theme.lineWidth, default: .value("0.06"),
                  "The path's width as a fraction of a cell."),
    ]

    package static let feedback = ConfigSection<ConfigDraft>("feedback", [
        ConfigKey("error-ms", .milliseconds(0...60_000), \.config.feedback.errorDuration, default: .value("1000"),
                  "How long a wrong pattern stays red."),
        ConfigKey("success-ms", .milliseconds(0...60_000), \.config.feedback.successDuration, default: .value("1500"),
                  "How long the success look stays."),
        ConfigKey("predict", .boolean, \.config.feedback.predictsTip, default: .value("on"),
                  "Draws the line's tip where the finger will be when the frame is shown."),
    ] + beeperKeys)

    /// The buzzer and its sounds (`[feedback]` too: what the lock says, in sound rather than colour).
    package static let beeperKeys: [ConfigKey<ConfigDraft>] = [
        ConfigKey("beeper", ValueType(allowed: "auto, off, a path", parseWithSource: ConfigValues.beeper)
                    .naming(.beeper) { if case .path(let path) = $0 { [path] } else { [] } },
                  \.config.feedback.beeper, default: .value("auto"),
                  "The buzzer: auto takes the first input device with EV_SND (SND_TONE, else SND_BELL)."),
        ConfigKey("tick", .sound, \.config.feedback.sounds.tick, default: .value(describe(FeedbackSounds.standard.tick)),
                  "Played when the finger selects a node."),
        ConfigKey("wrong", .sound, \.config.feedback.sounds.wrong, default: .value(describe(FeedbackSounds.standard.wrong)),
                  "Played when a pattern is refused."),
        ConfigKey("success", .sound, \.config.feedback.sounds.success,
                  default: .value(describe(FeedbackSounds.standard.success)), "Played when a pattern is accepted."),
        ConfigKey("lockout", .sound, \.config.feedback.sounds.lockout,
                  default: .value(describe(FeedbackSounds.standard.lockout)), "Played when a lockout starts."),
    ]

    private static func describe(_ steps: [ToneStep]) -> String {
        steps.isEmpty ? "off" : steps.map(\.description).joined(separator: ",")
    }

    package static let lockout = ConfigSection<ConfigDraft>("lockout", [
        ConfigKey("schedule", ValueType(allowed: "android, none, d1,d2,...", parse: ConfigValues.schedule),
                  \.config.lockout.schedule, default: .value("android"),
                  "The delays after consecutive failures."),
        ConfigKey("state-file", .path.naming(.stateFile) { [$0] }, \.config.lockout.stateFile, default: .value("/var/lib/gridlock/attempts"),
                  "Where consecutive failures and the uses of patterns survive a restart."),
    ])

    /// libsodium's bounds for argon2id: at least 1 pass and 8 KiB, counts that fit 32 bits.
    package static let security = ConfigSection<ConfigDraft>("security", [
        ConfigKey("argon2-ops", .integer(1...4_294_967_295), \.config.security.argon2Ops,
                  default: .unset("libsodium's interactive value"), "argon2id passes for new hashes."),
        ConfigKey("argon2-mem", .integer(8...4_294_967_295, unit: "KiB"), \.config.security.argon2MemKiB,
                  default: .unset("libsodium's interactive value"), "argon2id memory for new hashes."),
        ConfigKey("trust-unsynchronised-clock", .boolean, \.config.security.trustUnsynchronisedClock, default: .value("false"),
                  "Lets patterns with a schedule open while the clock is not synchronised."),
    ])

    package static let action = ConfigSection<ConfigDraft>("action", [
        ConfigKey("timeout", .secondsOrNever(0...86_400), \.config.action.timeout, default: .value("10"),
                  "How long an action may run before it is stopped."),
        ConfigKey("mode", .oneOf(ActionMode.self), \.config.action.mode, default: .value("pulse"),
                  "pulse runs the action and relocks; handover gives it screen and touch until it exits."),
    ])
}

extension ConfigSchema {
    /// `[session]`: lock faces in the user's session (docs/session-protocol.md).
    package static let session = ConfigSection<ConfigDraft>("session", [
        ConfigKey("socket", ValueType(allowed: "an absolute path", parse: ConfigValues.socketPath).naming(.socket) { [$0] },
                  \.config.session.socket,
                  default: .value("/run/gridlock/session.sock"), "Where lock faces connect; its folder, made if missing, must be root's, writable by no one else and no link."),
        ConfigKey("allow-users", ValueType(allowed: "user names or uids, comma-separated", parse: ConfigValues.userList),
                  \.config.session.allowedUsers, default: .unset("none"),
                  "Peers with one of these uids are served; a name with no user here lets no one in (a warning), until a reload finds it."),
        ConfigKey("allow-group", ValueType(allowed: "a group name or a gid", parse: ConfigValues.groupName).optional,
                  \.config.session.allowGroup, default: .unset("none"), "Peers of this primary group are served; the socket is 0660 root:GROUP."),
        ConfigKey("relock-after", .secondsOrNever(0...86_400), \.config.session.relockAfter, default: .value("0"),
                  "Read by the lock face (gridlock-lock, from its theme file): once unlocked, lock the session again after this many idle seconds; 0 never. gridlockd does not use it."),
    ])
}

/// What the plain sections are written into while files are read.
package struct ConfigDraft: Hashable {
    package var config = GridlockConfig()
    /// Apart until `finish()`: a `GridShape` exists only as a valid pair, and a drop-in may set
    /// one of the two.
    package var rows = GridShape.standard.rows
    package var columns = GridShape.standard.columns
}

/// What one `[pattern NAME]` section is written into before it is checked as a whole.
package struct PatternDraft: Hashable {
    package var hash: String? = nil
    package var exec: [String]? = nil
    package var duress = false
    package var duressExec: [String]? = nil
    package var grid: GridShape? = nil
    package var windows: [WeeklyWindow]? = nil
    package var validFrom: LocalDateTime? = nil
    package var validUntil: LocalDateTime? = nil
    package var uses: Int? = nil

    package init() {}
}

/// What the `[on EVENT]` sections of one event add up to before they are checked.
package struct HookDraft: Hashable {
    package var exec: [String]? = nil
    package var after: Int? = nil
    package var timeout: Duration? = .seconds(10)
}
