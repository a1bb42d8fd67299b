import GridlockCore
import LinuxSys

/// The daemon's signals: TERM/INT stop, HUP reloads, CHLD reaps actions, hooks and what
/// they left orphaned, USR1 logs how often and why the loop woke.
extension Daemon {
    /// What `DaemonParts` blocks and routes through the loop.
    public static let handledSignals: [Signal] = [.terminate, .interrupt, .hangUp, .child, .pipe, .user1]

    func handle(_ signal: Signal) {
        switch signal {
        case .terminate, .interrupt:
            Journal.log(.info, "received \(signal), stopping")
            stopping = true
        case .hangUp:
            reload()
        case .child:
            supervisor.childExited()
            alarms.hooks.childExited()
            // After them: what they reap is theirs.
            strays?.childExited()
        case .user1:
            Journal.log(.info, "event loop: \(loop.wakeUps)")
        default:
            break
        }
    }

    /// SIGHUP: a config that fails to load changes nothing; a good one takes effect at once
    /// (look, grid, timings, lockout schedule, patterns, actions). [display] and [touch]
    /// changes need a restart, as does `[feedback] beeper=`: the devices stay open across a reload.
    func reload() {
        systemd.reloading()
        defer { systemd.reloaded() }
        reloadAttempts()
        let loaded: LoadedConfig
        do {
            loaded = try ConfigVerdict.load(path: options.configPath)
        } catch {
            for diagnostic in error.diagnostics { Journal.log(.error, "reload: \(diagnostic)") }
            Journal.log(.error, "reload failed; keeping the running configuration")
            return
        }
        for warning in loaded.warnings { Journal.log(.warning, "reload: \(warning)") }
        let new = loaded.config
        if new.display != config.display || new.touch != config.touch {
            Journal.log(.warning, "reload: changes to [display] and [touch] take effect after a restart (systemctl restart gridlockd)")
        }
        if new.session.enabled != config.session.enabled || new.session.socket != config.session.socket {
            Journal.log(.warning, "reload: [session] and its socket= take effect after a restart; allow-users= and allow-group= now")
        }
        if new.feedback.beeper != config.feedback.beeper {
            Journal.log(.warning, "reload: [feedback] beeper= takes effect after a restart")
        }
        let frame = service.output.size
        do {
            try service.reconfigure(layout: new.gridLayout(frame: frame), settings: new.lockSettings, theme: new.theme, at: now)
        } catch {
            Journal.log(.error, "reload: \(error); keeping the running configuration")
            return
        }
        config = new
        checks.configurationChanged(to: new)
        gate.update(new)
        if options.role.guardsADoor { alarms.hooks.update(new.hooks) }
        supervisor.mode = new.action.mode
        feedback.setSounds(new.feedback.sounds)
        service.predictsTip = options.role.predictsTip(new)
        Journal.log(.notice, "configuration reloaded from \(loaded.files.joined(separator: ", "))")
    }

    /// `gridlock reset-lockout` writes a clean state file of a later generation and sends
    /// SIGHUP. Only that is taken from the file: the running count is otherwise
    /// authoritative, and a file gone or put back older is written again (`StateFile.reconcile`).
    func reloadAttempts() {
        guard let stateFile = service.stateFile, stateFile.reconcile(running: service.machine.attempts) else { return }
        Journal.log(.notice, "failure count cleared: \(config.lockout.stateFile) was reset")
        if service.machine.attempts != .clean { service.clearFailures(at: now) }
    }
}
