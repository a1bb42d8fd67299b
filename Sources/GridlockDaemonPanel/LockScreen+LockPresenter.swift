import GridlockCore
import GridlockDaemon
import GridlockDisplay
import GridlockRendering

/// The panel drawn by this process: the daemon's scenes rendered and presented on the
/// output as the config says.
extension LockScreen: LockPresenter {
    public var lookPreparation: (any LookPreparation)? { renderer.map { RendererLookPreparation(current: $0.preparation) } }

    public func install(_ look: (any PreparedLook)?) throws(PresentationError) {
        let theme: PreparedTheme?
        if let look {
            // Only this screen's own preparation makes one (`lookPreparation`).
            guard let prepared = look as? PreparedTheme else { throw PresentationError("a look prepared for another kind of screen") }
            theme = prepared
        } else {
            theme = nil
        }
        do {
            try installTheme(theme)
        } catch {
            throw PresentationError("\(error)")
        }
    }

    public func resize(to size: Size) throws(PresentationError) {
        do {
            try resizeCanvas(to: size)
        } catch {
            throw PresentationError("\(error)")
        }
    }
}

/// A reload's look made off the loop from the one on screen (`SceneRenderer.prepare`).
struct RendererLookPreparation: LookPreparation {
    let current: ThemePreparation

    func prepare(_ theme: Theme) throws(PresentationError) -> any PreparedLook {
        do {
            return try SceneRenderer.prepare(theme, after: current)
        } catch {
            throw PresentationError("\(error)")
        }
    }
}

extension PreparedTheme: PreparedLook {}

extension LockScreen {
    /// The daemon's screen on `output`: `config`'s theme rendered at the output's size,
    /// frames coalesced to the newest of each round. Nothing is drawn for a verifier
    /// alone (`[display] backend=none`, not a benchmark): it shows on `UnseenScreen`.
    static func maker(output: DisplayOutput) -> DaemonParts.ScreenMaker {
        { config, role, clock throws(DaemonError) in
            guard config.display.backend != .off || role.isBenchmark else {
                return UnseenScreen(size: output.size, rotation: output.rotation)
            }
            let renderer: SceneRenderer
            do {
                renderer = try SceneRenderer(size: output.size, theme: config.theme)
            } catch {
                throw .display("\(error)")
            }
            return LockScreen(renderer: renderer, output: output, clock: clock)
        }
    }
}
