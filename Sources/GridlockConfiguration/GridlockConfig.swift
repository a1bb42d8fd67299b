import GridlockCore
import GridlockInput

/// The whole validated configuration. Every field starts at the documented default, so a
/// nearly empty file gives a working kiosk (DRM display, evdev touch, 3x3 grid).
public struct GridlockConfig: Hashable, Sendable {
    public var display = DisplayConfig()
    public var touch = TouchConfig()
    public var grid = GridConfig()
    public var theme = Theme()
    public var feedback = FeedbackConfig()
    public var lockout = LockoutConfig()
    public var security = SecurityConfig()
    public var action = ActionConfig()
    public var session = SessionConfig()
    /// In the order the files define them (main file first, then drop-ins by name).
    public var patterns: [PatternEntry] = []
    /// `[on EVENT]` sections.
    public var hooks: [HookEvent: HookConfig] = [:]

    public init() {}

    /// The most `[pattern]` sections a configuration may have. Every attempt checks every
    /// hash (36 ms each at the default cost on the development machine, several times that
    /// on an ARM board), so a panel is unusable long before this; and with at most this many,
    /// the state file, one line per pattern, always fits within what its reader accepts.
    public static let maximumPatterns = 500
}

/// A size in whole pixels (`800x480`).
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

// MARK: - [display]

public enum DisplayBackend: String, Hashable, Sendable, CaseIterable {
    case drm
    /// One PNG per presented frame: tests, demos, headless machines.
    case png
    /// Nothing is shown: a lock face in the session is the only face (needs `[session]`).
    case off = "none"
}

public enum DisplayDevice: Hashable, Sendable {
    /// The first card with a connected connector.
    case auto
    case path(String)
}

public enum ConnectorSelector: Hashable, Sendable {
    /// The first connected connector.
    case auto
    /// A name as `drm_info`/`modetest` print it, e.g. `HDMI-A-1`.
    case named(String)
}

public enum DisplayMode: Hashable, Sendable {
    /// The connector's preferred mode.
    case preferred
    /// Whatever the CRTC shows now, so taking over the screen does not cause a modeset.
    case current
    /// A listed mode of this size; with a refresh rate only a mode with that rate (Hz, rounded as DRM does).
    case size(PixelSize, refreshHz: Int?)
}

public struct DisplayConfig: Hashable, Sendable {
    public var backend: DisplayBackend = .drm
    public var device: DisplayDevice = .auto
    public var connector: ConnectorSelector = .auto
    public var mode: DisplayMode = .preferred
    public var rotation: Rotation = .none
    /// The frame size of the png backend (drm takes the size from the mode).
    public var size = PixelSize(width: 800, height: 480)
    /// Where the png backend writes frames; required for it, absolute after loading.
    public var outputDirectory: String? = nil
    /// Idle time before the screen blanks; nil never blanks.
    public var blankAfter: Duration? = nil

    public init() {}

    /// `size` as the output's physical frame, before rotation.
    public var physicalSize: Size { Size(width: Double(size.width), height: Double(size.height)) }

    /// The frame the scene is laid out and drawn in: `size` turned by `rotation`. The png
    /// and headless outputs, replay and `gridlock render` all take it from here (drm takes
    /// its frame from the mode instead).
    public var logicalFrame: Size { rotation.logicalSize(physical: physicalSize) }
}

// MARK: - [touch]

public enum TouchBackend: String, Hashable, Sendable, CaseIterable {
    case evdev
    /// Plays an evemu recording instead of reading a device.
    case replay
    /// No touch device is opened: strokes come from the session socket only (needs `[session]`).
    case off = "none"
}

public enum TouchDevice: Hashable, Sendable {
    /// The first direct-touch device found.
    case auto
    /// A device node, or for the replay backend an evemu recording; absolute after loading.
    case path(String)
    /// The first touch device whose name contains this text (`name:Goodix`).
    case nameContaining(String)
}

public struct TouchConfig: Hashable, Sendable {
    public var backend: TouchBackend = .evdev
    public var device: TouchDevice = .auto
    /// LIBINPUT_CALIBRATION_MATRIX semantics, checked when the config is read; nil means the
    /// device's udev property, or identity without one.
    public var calibration: CalibrationMatrix? = nil
    /// EVIOCGRAB, so no other reader (a console, a session behind the lock) sees the strokes.
    public var grab = true
    /// A contact held this long without movement is taken as stuck and cancels the stroke.
    public var stuckTouch: Duration = .milliseconds(5000)

    public init() {}
}

// MARK: - [grid]

public struct GridConfig: Hashable, Sendable {
    public var shape: GridShape = .standard
    /// Side of the grid's square as a fraction of the shorter screen side (`GridLayout.sizeFraction`).
    public var sizeFraction = 0.8
    /// `GridLayout.hitRadiusFraction`.
    public var hitRadiusFraction = 0.6
    public var minNodes = 4
    public var showPath = true

    public init() {}
}

// MARK: - [feedback] [lockout] [security] [action]

public struct FeedbackConfig: Hashable, Sendable {
    /// How long a wrong pattern stays red, input ignored.
    public var errorDuration: Duration = .milliseconds(1000)
    /// How long the success look stays before the action's outcome decides what follows.
    public var successDuration: Duration = .milliseconds(1500)
    /// Which buzzer sounds the cues (`beeper=`).
    public var beeper: BeeperChoice = .auto
    /// What each cue plays (`tick=`, `wrong=`, `success=`, `lockout=`).
    public var sounds: FeedbackSounds = .standard
    /// Whether the tip of the line being drawn is predicted to the display time (`predict=`):
    /// only the drawn tip; node hits and the pattern come from the real samples.
    public var predictsTip = true

    public init() {}
}

public enum BeeperChoice: Hashable, Sendable {
    /// The first input device with SND_TONE, else with SND_BELL; none: silent.
    case auto
    case off
    /// An evdev node (or a link to one), absolute after loading.
    case path(String)
}

public struct LockoutConfig: Hashable, Sendable {
    public var schedule: LockoutSchedule = .android
    /// Absolute after loading.
    public var stateFile = "/var/lib/gridlock/attempts"

    public init() {}
}

/// Overrides of the argon2id cost for hashes made from now on (enrolment, `gridlock hash`);
/// nil keeps libsodium's interactive defaults. Existing hashes carry their own cost.
public struct SecurityConfig: Hashable, Sendable {
    public var argon2Ops: Int? = nil
    public var argon2MemKiB: Int? = nil
    /// Patterns with a schedule open even while the kernel says the clock is not synchronised.
    public var trustUnsynchronisedClock = false

    public init() {}
}

public enum ActionMode: String, Hashable, Sendable, CaseIterable {
    /// Show success, run the action, relock when it ends or times out.
    case pulse
    /// Give display and touch to the action (e.g. a session) and take them back when it exits.
    case handover
}

public struct ActionConfig: Hashable, Sendable {
    /// After this the action's process group gets SIGTERM, then SIGKILL; nil (`timeout=0`) never.
    public var timeout: Duration? = .seconds(10)
    public var mode: ActionMode = .pulse

    public init() {}
}

// MARK: - [pattern NAME]

public struct PatternEntry: Hashable, Sendable {
    public var name: String
    /// An argon2id PHC string (`$argon2id$v=19$m=...`).
    public var hash: String
    /// The argv to run on a match; nil runs nothing (the success look only).
    public var exec: [String]?
    /// Marks a pattern to draw under coercion (a silent alarm); how the daemon treats it is decided there.
    public var duress: Bool
    /// The alarm's argv; only allowed with `duress`.
    public var duressExec: [String]?
    /// The `[pattern NAME]` header, for messages about this pattern.
    public var source: SourceLocation
    /// The grid it was enrolled on (`grid=3x3`), where given: its hash matches only there.
    public var grid: GridShape? = nil
    /// `valid=`, `valid-from=`, `valid-until=`, `uses=`.
    public var limits = PatternLimits.none

    public init(
        name: String, hash: String, exec: [String]? = nil, duress: Bool = false,
        duressExec: [String]? = nil, source: SourceLocation
    ) {
        self.name = name
        self.hash = hash
        self.exec = exec
        self.duress = duress
        self.duressExec = duressExec
        self.source = source
    }
}

// MARK: - [on EVENT]

/// What a hook (`[on EVENT]`) can be run for.
public enum HookEvent: String, Hashable, Sendable, CaseIterable {
    /// A wrong pattern was counted.
    case failure
    /// A lockout starts.
    case lockout
    /// A pattern was accepted (its own action has started).
    case unlock
    /// A duress pattern was accepted (besides its own duress-exec).
    case duress
    /// The touch device or the display went away while the lock showed, or a contact stuck.
    case tamper
    /// The lock screen is up.
    case start
    /// gridlockd is stopping.
    case stop
}

public struct HookConfig: Hashable, Sendable {
    public var argv: [String]
    /// `[on failure] after=N`: only from the Nth consecutive failure.
    public var after: Int
    /// nil (`timeout=0`): no limit.
    public var timeout: Duration?
    /// The `[on EVENT]` header that set `exec=`, for messages.
    public var source: SourceLocation

    public init(argv: [String], after: Int = 1, timeout: Duration? = .seconds(10), source: SourceLocation) {
        self.argv = argv
        self.after = after
        self.timeout = timeout
        self.source = source
    }
}
