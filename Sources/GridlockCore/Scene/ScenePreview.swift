/// Scenes for one state of the screen, without running the machine: for
/// `gridlock render` (docs, theme checks) and the benchmark.
public enum PreviewState: String, CaseIterable, Sendable {
    case ready, drawing, verifying, error, success
    case tooShort = "too-short"
    case lockedOut = "locked-out"
}

extension Scene {
    /// What the screen shows in `state` with `nodes` drawn, as the machine would show it
    /// (including `showPath: false`, which hides the nodes while drawing and on failure).
    public static func preview(
        _ state: PreviewState, nodes: [Int], layout: GridLayout, settings: LockSettings, lockoutSeconds: Int = 30,
        failures: Int = 1
    ) -> Scene {
        var scene = Scene(layout: layout)
        let look: NodeLook
        switch state {
        case .ready: return scene
        case .drawing, .verifying: look = .selected
        case .error, .tooShort: look = .error
        case .success: look = .success
        case .lockedOut:
            scene.message = .lockedOut(seconds: lockoutSeconds)
            return scene
        }
        switch state {
        case .verifying: scene.message = .verifying
        case .error:
            scene.message = .wrong(failures: failures, remaining: settings.schedule.failuresBeforeLockout(after: failures))
        case .tooShort: scene.message = .tooShort(minimum: settings.minimumNodes)
        case .success: scene.message = .success
        default: break
        }
        guard settings.showPath || state == .success else { return scene }
        for node in nodes { scene.nodes[node] = look }
        scene.path = nodes.map(layout.center(of:))
        scene.pathLook = look
        if state == .drawing, let last = nodes.last {
            // The finger a little past the last node, as in the middle of a stroke.
            let c = layout.center(of: last)
            scene.finger = Point(x: c.x + 0.35 * layout.cellWidth, y: c.y + 0.2 * layout.cellHeight)
        }
        return scene
    }
}
