import GridlockCore

/// Every section and key the loader knows, as data: adding a key is adding one entry here
/// (and its row in docs/configuration.md, which `ConfigDocsTests` insists on). The order of
/// sections and keys is the order of the "known: ..." lists in messages.
enum ConfigSchema {
    static let sections = [display, touch, grid, theme, feedback, lockout, security, action]

    /// `[pattern NAME]`: the only section that takes a name, and whose sections add up
    /// instead of overriding each other.
    static let pattern = ConfigSection<PatternDraft>("pattern", [
        ConfigKey("hash", .argon2Hash, \.hash, default: .unset("required"),
                  "The argon2id hash of the pattern, from `gridlock hash` or enrolment."),
        ConfigKey("exec", .commandLine, \.exec, default: .unset("none"), "The program to run on a match."),
        ConfigKey("duress", .boolean, \.duress, default: .value("false"), "Marks a pattern to draw under coercion."),
        ConfigKey("duress-exec", .commandLine, \.duressExec, default: .unset("none"),
                  "The silent alarm a duress pattern runs as well."),
        ConfigKey("grid", ValueType(allowed: "ROWSxCOLUMNS (3x3)", parse: ConfigValues.gridShape), \.grid,
                  default: .unset("not recorded"), "The grid the pattern was enrolled on; its hash matches only there."),
    ])

    static var sectionNames: [String] { sections.map(\.name) + [pattern.name] }

    static func section(named name: String) -> ConfigSection<ConfigDraft>? { sections.first { $0.name == name } }

    static let display = ConfigSection<ConfigDraft>("display", [
        ConfigKey("backend", .oneOf(DisplayBackend.self), \.config.display.backend, default: .value("drm"),
                  "drm shows on a DRM/KMS display; png writes one PNG per frame into output-dir."),
        ConfigKey("device", ValueType(allowed: "auto, an absolute path (/dev/dri/card1)", parse: ConfigValues.displayDevice),
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

    static let touch = ConfigSection<ConfigDraft>("touch", [
        ConfigKey("backend", .oneOf(TouchBackend.self), \.config.touch.backend, default: .value("evdev"),
                  "evdev reads a kernel input device; replay plays an evemu recording."),
        ConfigKey("device", ValueType(allowed: "auto, a path, name:SUBSTRING", parseWithSource: ConfigValues.touchDevice),
                  \.config.touch.device, default: .value("auto"), "The touch device, or the recording."),
        ConfigKey("calibration", ValueType(allowed: "six numbers a b c d e f", parse: ConfigValues.calibration),
                  \.config.touch.calibration, default: .unset("none"), "A LIBINPUT_CALIBRATION_MATRIX for the touch coordinates."),
        ConfigKey("grab", .boolean, \.config.touch.grab, default: .value("true"), "Takes the device exclusively (EVIOCGRAB)."),
        ConfigKey("stuck-touch-ms", .milliseconds(100...600_000), \.config.touch.stuckTouch, default: .value("5000"),
                  "A contact held still this long is treated as stuck."),
    ])

    /// The nodes of the largest grid.
    private static let mostNodes = GridShape.allowedDimensions.upperBound * GridShape.allowedDimensions.upperBound

    static let grid = ConfigSection<ConfigDraft>("grid", [
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

    static let theme = ConfigSection<ConfigDraft>("theme", [
        ConfigKey("background", .colour, \.config.theme.background, default: .value("#101418"), "Behind everything."),
        ConfigKey("node", .colour, \.config.theme.node, default: .value("#5A6270"), "Nodes not touched yet."),
        ConfigKey("selected", .colour, \.config.theme.selected, default: .value("#2E9BFF"), "Nodes and path while drawing."),
        ConfigKey("error", .colour, \.config.theme.error, default: .value("#F0454B"), "A wrong pattern, and its messages."),
        ConfigKey("success", .colour.withRefusalNote(" (the success message is success-text=)"), \.config.theme.success,
                  default: .value("#3CC873"), "A right pattern, and its messages."),
        ConfigKey("text", .colour, \.config.theme.text, default: .value("#DDE3EA"), "Other messages, and the calibration cross."),
        ConfigKey("font", .font, \.config.theme.font, default: .value("DejaVu Sans"),
                  "The family (as fc-list names it) or the font file the messages are set in; characters it lacks come from another installed font."),
        ConfigKey("prompt", .message(placeholders: 0), \.config.theme.prompt, default: .value("Draw your unlock pattern"),
                  "Asks for a pattern."),
        ConfigKey("wrong", .message(placeholders: 0), \.config.theme.wrong, default: .value("Wrong pattern, try again"),
                  "After a wrong pattern."),
        ConfigKey("verifying", .message(placeholders: 0), \.config.theme.verifying, default: .value("Checking…"),
                  "While the hash is checked."),
        ConfigKey("too-short", .message(placeholders: 1), \.config.theme.tooShort, default: .value("Connect at least %d dots"),
                  "After a stroke shorter than min-nodes; %d is min-nodes."),
        ConfigKey("locked-out", .message(placeholders: 1), \.config.theme.lockedOut,
                  default: .value("Too many attempts. Try again in %d s"), "During a lockout; %d is the seconds left."),
        ConfigKey("cannot-record", .message(placeholders: 0), \.config.theme.cannotRecord,
                  default: .value("Out of service: attempts cannot be recorded"),
                  "When a failure cannot be written to the state file: the attempt is not checked."),
        ConfigKey("success-text", .message(placeholders: 0), \.config.theme.successText, default: .value("Unlocked"),
                  "After a right pattern."),
        ConfigKey("enroll-draw", .message(placeholders: 0), \.config.theme.enrollDraw,
                  default: .value("Draw a new unlock pattern"), "Enrolment asks for the new pattern."),
        ConfigKey("enroll-confirm", .message(placeholders: 0), \.config.theme.enrollConfirm,
                  default: .value("Draw the pattern again to confirm"), "Enrolment asks for it a second time."),
        ConfigKey("enroll-mismatch", .message(placeholders: 0), \.config.theme.enrollMismatch,
                  default: .value("Patterns don't match, start over"), "The two drawings differed."),
        ConfigKey("enroll-saved", .message(placeholders: 0), \.config.theme.enrollSaved, default: .value("Pattern saved"),
                  "Enrolment is done."),
        ConfigKey("calibrate", .message(placeholders: 1), \.config.theme.calibrate,
                  default: .value("Touch the centre of the cross (%d of 5)"), "Shown by gridlock calibrate; %d is the step."),
    ])

    static let feedback = ConfigSection<ConfigDraft>("feedback", [
        ConfigKey("error-ms", .milliseconds(0...60_000), \.config.feedback.errorDuration, default: .value("1000"),
                  "How long a wrong pattern stays red."),
        ConfigKey("success-ms", .milliseconds(0...60_000), \.config.feedback.successDuration, default: .value("1500"),
                  "How long the success look stays."),
    ])

    static let lockout = ConfigSection<ConfigDraft>("lockout", [
        ConfigKey("schedule", ValueType(allowed: "android, none, d1,d2,...", parse: ConfigValues.schedule),
                  \.config.lockout.schedule, default: .value("android"),
                  "The delays after consecutive failures."),
        ConfigKey("state-file", .path, \.config.lockout.stateFile, default: .value("/var/lib/gridlock/attempts"),
                  "Where consecutive failures survive a restart."),
    ])

    /// libsodium's bounds for argon2id: at least 1 pass and 8 KiB, counts that fit 32 bits.
    static let security = ConfigSection<ConfigDraft>("security", [
        ConfigKey("argon2-ops", .integer(1...4_294_967_295), \.config.security.argon2Ops,
                  default: .unset("libsodium's interactive value"), "argon2id passes for new hashes."),
        ConfigKey("argon2-mem", .integer(8...4_294_967_295, unit: "KiB"), \.config.security.argon2MemKiB,
                  default: .unset("libsodium's interactive value"), "argon2id memory for new hashes."),
    ])

    static let action = ConfigSection<ConfigDraft>("action", [
        ConfigKey("timeout", .secondsOrNever(0...86_400), \.config.action.timeout, default: .value("10"),
                  "How long an action may run before it is stopped."),
        ConfigKey("mode", .oneOf(ActionMode.self), \.config.action.mode, default: .value("pulse"),
                  "pulse runs the action and relocks; handover gives it screen and touch until it exits."),
    ])
}

/// What the plain sections are written into while files are read.
struct ConfigDraft: Hashable {
    var config = GridlockConfig()
    /// Apart until `finish()`: a `GridShape` exists only as a valid pair, and a drop-in may set
    /// one of the two.
    var rows = GridShape.standard.rows
    var columns = GridShape.standard.columns
}

/// What one `[pattern NAME]` section is written into before it is checked as a whole.
struct PatternDraft: Hashable {
    var hash: String? = nil
    var exec: [String]? = nil
    var duress = false
    var duressExec: [String]? = nil
    var grid: GridShape? = nil
}
