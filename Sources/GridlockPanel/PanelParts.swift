import GridlockConfiguration
import GridlockCore
import GridlockDevices
import GridlockDisplay
import GridlockEvdev
import GridlockFace
import GridlockInput
import GridlockRendering
import LinuxSys

/// What a `PanelFace` is made of. `PanelParts(settings:)` builds them from the face's file
/// as `gridlock-panel` runs (the loop first, then the display, the renderer, the
/// touchscreen and the beeper, each added to `group` as it starts, so a failed start stops
/// what had started); a test builds them from fakes.
public struct PanelParts {
    public var loop: EventLoop
    public var screen: LockScreen
    public var touch: TouchSource
    public var beeper: BeeperSource?
    public var face: FaceSettings
    public var grid: FaceGrid
    public var sounds: FeedbackSounds
    /// `[display] blank-after=`; nil: never dark.
    public var blankAfter: Duration?
    /// The face file's settings these parts were made from (a reload compares with them).
    public var settings: ThemeSettings
    /// Every part that started, to be stopped in reverse.
    public let group: PartGroup

    public init(
        loop: EventLoop, screen: LockScreen, touch: TouchSource, beeper: BeeperSource? = nil, settings: ThemeSettings,
        group: PartGroup? = nil
    ) {
        self.loop = loop
        self.screen = screen
        self.touch = touch
        self.beeper = beeper
        face = Self.faceSettings(settings)
        face.panelRotation = screen.rotation
        grid = FaceGrid(sizeFraction: settings.grid.sizeFraction, hitRadiusFraction: settings.grid.hitRadiusFraction)
        sounds = settings.feedback.sounds
        blankAfter = settings.display.blankAfter
        self.settings = settings
        if let group {
            self.group = group
        } else {
            self.group = PartGroup()
            self.group.add(display: screen.output)
            self.group.add(touch: touch)
        }
    }

    /// The devices the face file names, on a new loop that serves SIGTERM, SIGINT and
    /// SIGHUP (the face file again). `benchStroke` (`gridlock bench`): no display, frames
    /// drawn and dropped, and the touchscreen the file describes (`[touch] backend=replay`)
    /// read from standard input as binary input events, as `gridlockd --bench-stroke` does.
    public init(settings: ThemeSettings, benchStroke: Bool = false) throws(PanelDeviceError) {
        let loop: EventLoop
        do {
            loop = try EventLoop(signals: [.terminate, .interrupt, .hangUp])
        } catch {
            throw .system(error)
        }
        let group = PartGroup()
        let output = try PanelDevices.output(for: settings.display, headless: benchStroke, clock: { [loop] in loop.now() })
        group.add(display: output)
        let renderer = try group.step { () throws(PanelDeviceError) in
            do throws(RenderError) {
                return try SceneRenderer(size: output.size, theme: settings.theme)
            } catch {
                throw .display("\(error)")
            }
        }
        let touch = try group.step { () throws(PanelDeviceError) in
            try PanelDevices.touchSource(
                for: settings.touch, frame: output.size, rotation: output.rotation, start: loop.now(),
                eventsFrom: benchStroke ? .standardInput : nil)
        }
        group.add(touch: touch)
        let screen = LockScreen(renderer: renderer, output: output, clock: { [loop] in loop.time })
        screen.predictsTip = settings.feedback.predictsTip
        self.init(
            loop: loop, screen: screen, touch: touch, beeper: PanelDevices.beeper(for: settings.feedback.beeper, now: loop.now()),
            settings: settings, group: group)
    }

    /// The looks' durations and the path's visibility from the face file; the grid's shape
    /// and `min-nodes` are gridlockd's, told by its `status`.
    static func faceSettings(_ settings: ThemeSettings) -> FaceSettings {
        var face = FaceSettings()
        face.showPath = settings.grid.showPath
        face.errorDuration = settings.feedback.errorDuration
        face.successDuration = settings.feedback.successDuration
        face.stuckTouchTimeout = settings.touch.stuckTouch > .zero ? settings.touch.stuckTouch : nil
        face.holdsPanel = true
        return face
    }
}
