import GridlockConfiguration
import GridlockCore
import LinuxSys

/// SIGHUP's configuration, judged and its look prepared off the loop (`runInBackground`):
/// the verdict's reads, its waits for files that are still changing and the decoding of a
/// theme's images take no time from the finger. The configuration in force serves until
/// the new one is ready, strokes and checks included; then it is taken up on the loop, in
/// one step. One reload at a time: a signal that comes while one runs asks for one more
/// after it, which reads the files as they are then (a storm of signals costs two).
final class ConfigReloader {
    /// A reload that finished off the loop, ready to be taken up on it.
    struct Prepared: Sendable {
        let loaded: LoadedConfig
        /// Nil when nothing is drawn (no look to prepare).
        let look: (any PreparedLook)?
    }

    enum Failure: Error, Sendable {
        /// The configuration is refused: every problem at its FILE:LINE.
        case refused([ConfigDiagnostic])
        /// Its look cannot be drawn (a font or an image).
        case look(String)
    }

    private let loop: EventLoop
    private let path: String
    private var running = false
    private var again = false
    /// Started, and not yet taken up (or refused).
    var isRunning: Bool { running }
    /// The work done off the loop (tests hold it, or hand a configuration of their own).
    var prepare: @Sendable (String, (any LookPreparation)?) -> Result<Prepared, Failure> = { path, current in
        ConfigReloader.prepare(path: path, after: current)
    }

    init(loop: EventLoop, path: String) {
        self.loop = loop
        self.path = path
    }

    /// Starts a reload, or asks for one more after the one running. `preparation` is read
    /// now, on the loop; `done` gets the result on the loop, and may start another.
    func request(
        preparation: @escaping () -> (any LookPreparation)?, started: @escaping () -> Void,
        done: @escaping (Result<Prepared, Failure>) -> Void
    ) {
        guard !running else {
            again = true
            return
        }
        running = true
        started()
        let path = self.path
        let current = preparation()
        let prepare = self.prepare
        do {
            try loop.runInBackground({ prepare(path, current) }) { [unowned self] result in
                running = false
                done(result)
                if again {
                    again = false
                    request(preparation: preparation, started: started, done: done)
                }
            }
        } catch {
            // No thread to spare: judged here, on the loop, as before there were threads.
            running = false
            done(prepare(path, current))
        }
    }

    /// The verdict and the look, on whatever thread runs it: nothing here touches the loop,
    /// the lock or the journal.
    /// `current` nil: nothing is drawn, so no look is prepared.
    static func prepare(path: String, after current: (any LookPreparation)?) -> Result<Prepared, Failure> {
        let loaded: LoadedConfig
        do {
            loaded = try ConfigVerdict.load(path: path)
        } catch {
            return .failure(.refused(error.diagnostics))
        }
        guard let current else { return .success(Prepared(loaded: loaded, look: nil)) }
        do {
            return .success(Prepared(loaded: loaded, look: try current.prepare(loaded.config.theme)))
        } catch {
            return .failure(.look("\(error)"))
        }
    }
}
