import GridlockConfiguration
import GridlockRendering
import LinuxSys

/// SIGHUP's face file, judged and its look (font, images) prepared off the loop
/// (`runInBackground`), as gridlockd reloads its own: the look on screen serves, strokes
/// included, until the new one is ready, then it is taken up on the loop in one step. One
/// reload at a time; a signal during one asks for one more after it.
final class FaceFileReloader {
    /// A face file judged good, with its look ready to install.
    struct Prepared: Sendable {
        let path: String?
        let settings: ThemeSettings
        let look: PreparedTheme?
    }

    /// Why the running look stays: every problem at its FILE:LINE, or the look's.
    struct Refusal: Error, Sendable {
        let path: String?
        let problems: [String]
    }

    private let loop: EventLoop
    /// The `--config` option as given (nil: /etc/gridlock/face.conf if it exists then).
    private let named: String?
    private var running = false
    private var again = false
    /// The work done off the loop (a test hands its own).
    var prepare: @Sendable (String?, ThemePreparation?) -> Result<Prepared, Refusal> = { named, current in
        FaceFileReloader.prepare(named: named, after: current)
    }

    init(loop: EventLoop, named: String?) {
        self.loop = loop
        self.named = named
    }

    /// Starts a reload, or asks for one more after the one running. `current` is read on
    /// the loop now; `done` gets the result on the loop.
    func request(current: @escaping () -> ThemePreparation?, done: @escaping (Result<Prepared, Refusal>) -> Void) {
        guard !running else {
            again = true
            return
        }
        running = true
        let (named, preparation, prepare) = (self.named, current(), self.prepare)
        let finish: (Result<Prepared, Refusal>) -> Void = { [unowned self] result in
            running = false
            done(result)
            if again {
                again = false
                request(current: current, done: done)
            }
        }
        do {
            try loop.runInBackground({ prepare(named, preparation) }, then: finish)
        } catch {
            // No thread to spare: judged on the loop.
            finish(prepare(named, preparation))
        }
    }

    /// The verdict `gridlock-panel --check-config` gives, and the look made from the one
    /// on screen; nothing here touches the loop or the journal.
    static func prepare(named: String?, after current: ThemePreparation?) -> Result<Prepared, Refusal> {
        let (path, verdict) = ThemeFile.judge(named: named, look: DecodingLookInspection())
        let settings: ThemeSettings
        switch verdict {
        case .success(let judged): settings = judged
        case .failure(let error): return .failure(Refusal(path: path, problems: error.diagnostics.map(\.description)))
        }
        guard let current else { return .success(Prepared(path: path, settings: settings, look: nil)) }
        do {
            return .success(Prepared(path: path, settings: settings, look: try SceneRenderer.prepare(settings.theme, after: current)))
        } catch {
            return .failure(Refusal(path: path, problems: ["\(error)"]))
        }
    }
}
