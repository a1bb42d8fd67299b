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

    /// SIGHUP: a reset request or a state file changed behind the lock is taken up at once;
    /// the configuration is judged and its look prepared off the loop (`ConfigReloader`),
    /// the running one serving meanwhile. A config that fails to load changes nothing; a
    /// good one takes effect once ready (look, grid, timings, lockout schedule, patterns,
    /// actions). [display] and [touch] changes need a restart, as does `[feedback]
    /// beeper=`: the devices stay open across a reload.
    func reload() {
        reloadAttempts()
        reloader.request(
            preparation: { [unowned self] in screen.lookPreparation },
            started: { [unowned self] in systemd.reloading(at: loop.now()) },
            done: { [unowned self] result in
                defer { systemd.reloaded() }
                switch result {
                case .success(let prepared): takeUp(prepared)
                case .failure(.refused(let diagnostics)):
                    for diagnostic in diagnostics { Journal.log(.error, "reload: \(diagnostic)") }
                    Journal.log(.error, "reload failed; keeping the running configuration")
                case .failure(.look(let problem)):
                    Journal.log(.error, "reload: \(problem); keeping the running configuration")
                }
                onReloaded?()
            })
    }

    /// A judged configuration and its prepared look, taken up in one step on the loop.
    private func takeUp(_ prepared: ConfigReloader.Prepared) {
        let loaded = prepared.loaded
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
        let frame = screen.size
        do {
            try service.reconfigure(layout: new.gridLayout(frame: frame), settings: new.lockSettings, look: prepared.look, at: now)
        } catch {
            Journal.log(.error, "reload: \(error); keeping the running configuration")
            return
        }
        config = new
        checks.configurationChanged(to: new)
        gate.update(new)
        if options.role.guardsADoor { alarms.hooks.update(new.hooks) }
        supervisor.mode = new.action.mode
        sounds?.setSounds(new.feedback.sounds)
        screen.predictsTip = options.role.predictsTip(new)
        Journal.log(.notice, "configuration reloaded from \(loaded.files.joined(separator: ", "))")
    }

    /// SIGHUP for the state file: a `gridlock reset-lockout` request waiting beside it is
    /// applied to the running state (the journal says who asked for what); otherwise the
    /// running count is authoritative, and a file gone, put back older or written by someone
    /// else is written again (`StateFile.reconcile`).
    func reloadAttempts() {
        guard let stateFile = service.stateFile, let path = stateFile.path else { return }
        switch ResetRequest.take(beside: path) {
        case .none:
            stateFile.reconcile(running: service.machine.attempts)
        case .unreadable(let reason):
            Journal.log(.warning, "reset request \(ResetRequest.path(beside: path)) is unreadable (\(reason)); removed, nothing reset")
            stateFile.reconcile(running: service.machine.attempts)
        case .request(let request):
            apply(request, to: stateFile, path: path)
        }
    }

    func apply(_ request: ResetRequest, to stateFile: StateFile, path: String) {
        guard Self.apply(request, to: stateFile, path: path) else { return }
        if service.machine.attempts != .clean { service.clearFailures(at: now) }
    }

    /// The request written into `stateFile` and said in the journal; false when it could
    /// not be written (nothing is reset then).
    static func apply(_ request: ResetRequest, to stateFile: StateFile, path: String) -> Bool {
        // Whatever came of it, the request is done with once this returns.
        defer { ResetRequest.remove(beside: path) }
        do {
            let (afresh, unknown) = try stateFile.apply(request)
            Journal.log(
                .notice,
                "failure count in \(path) cleared by gridlock reset-lockout (\(request.requester), pid \(request.pid))"
                    + (afresh.isEmpty ? "" : "; uses of \(afresh.joined(separator: ", ")) started afresh")
                    + (unknown.isEmpty ? "" : "; \(unknown.joined(separator: ", ")) not configured, left alone"),
                JournalFields(messageID: JournalCatalog.attempt, fields: ["GRIDLOCK_EVENT": "reset", "GRIDLOCK_REQUESTER": request.requester]))
            return true
        } catch {
            Journal.log(.critical, "cannot apply the reset of \(request.requester): \(error); nothing reset")
            return false
        }
    }

    /// At start: a reset left while no gridlockd took it (it stopped, or had not started).
    static func applyPendingReset(to stateFile: StateFile) {
        guard let path = stateFile.path else { return }
        switch ResetRequest.take(beside: path) {
        case .none: break
        case .unreadable(let reason):
            Journal.log(.warning, "reset request \(ResetRequest.path(beside: path)) is unreadable (\(reason)); removed, nothing reset")
        case .request(let request):
            _ = apply(request, to: stateFile, path: path)
        }
    }
}
