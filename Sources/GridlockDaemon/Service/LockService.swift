import GridlockCore
import LinuxSys

/// The thin shell around `LockMachine`: feeds it events and carries out its effects:
/// shows its scenes (`LockPresenter`), persists attempts, and hands the slow work
/// (verification, actions, answers to faces) to the loop through `LockShell`.
public final class LockService {
    public private(set) var machine: LockMachine
    /// What the panel shows; the service hands it the machine's scenes.
    public let screen: any LockPresenter
    /// Carries out the slow effects; set by the owner once it exists (it owns the service).
    public weak var shell: LockShell? {
        didSet { screen.tipDeadlineChanged = { [weak self] in self?.shell?.setTipDeadline($0) } }
    }
    /// Where failures are persisted; nil keeps them in memory (previews, enrollment, benchmarks).
    public let stateFile: StateFile?

    /// `stateFile` nil keeps the count in memory only (previews, benchmarks).
    public init(machine: LockMachine, screen: any LockPresenter, stateFile: StateFile?) {
        self.machine = machine
        self.screen = screen
        self.stateFile = stateFile
    }

    public func start(at now: Instant) {
        perform(machine.start(at: now), at: now)
    }

    public func handle(_ event: LockEvent, at now: Instant) {
        if case .touch(let touch) = event { screen.feed(touch, at: now) }
        perform(machine.handle(event, at: now), at: now)
    }

    /// The failure count was reset by an administrator.
    public func clearFailures(at now: Instant) {
        perform(machine.clearFailures(at: now), at: now)
    }

    /// A reloaded config, its look prepared ahead (`LookPreparation`): a stroke being drawn
    /// survives it unless the grid moved.
    public func reconfigure(layout: GridLayout, settings: LockSettings, look: (any PreparedLook)?, at now: Instant) throws(PresentationError) {
        try screen.install(look)
        perform(machine.reconfigure(layout: layout, settings: settings, at: now, reason: .gridChanged), at: now)
    }

    /// A display of another size: a new canvas, the grid laid out anew, everything redrawn.
    public func resize(to size: Size, settings: LockSettings, layout: GridLayout, at now: Instant) throws(PresentationError) {
        try screen.resize(to: size)
        perform(machine.reconfigure(layout: layout, settings: settings, at: now), at: now)
    }

    /// Draws the current scene again in full (after the display came back).
    public func redraw(at now: Instant) {
        screen.redraw(machine.scene(now: now))
    }

    private func perform(_ effects: [LockEffect], at now: Instant) {
        for case .render(let scene) in effects { screen.show(scene) }
        // The new picture first: an action that takes the display over (handover) must find
        // the success frame already presented, not the "Checking…" one.
        if effects.contains(where: { if case .runAction = $0 { true } else { false } }) { screen.flush() }
        var unrecorded = false
        for effect in effects {
            switch effect {
            case .render: break
            case .persist(let state): unrecorded = !persist(state) || unrecorded
            case .verify where unrecorded: break
            case .verify(let pattern): shell?.beginVerification(of: pattern)
            case .runAction(let name): shell?.beginAction(for: name)
            case .armTimer(let deadline): shell?.setDeadline(deadline)
            case .disarmTimer: shell?.setDeadline(nil)
            case .report(let report): shell?.report(report, at: now)
            case .enrolled: break  // enrollment's caller reads the pattern from the machine's phase
            case .answer(let check, let verdict): shell?.answer(check, verdict)
            }
        }
        if unrecorded { handle(.persistFailed, at: now) }
    }

    /// Fail closed: a write that fails is logged loudly, the count is kept in memory, and
    /// the machine is told (`.persistFailed`), so an attempt whose failure a restart would
    /// forget is never checked. False when the state could not be written.
    private func persist(_ state: AttemptState) -> Bool {
        guard let stateFile else { return true }
        do {
            try stateFile.save(attempts: state)
            return true
        } catch {
            Journal.log(.critical, "cannot record failed attempts in \(error.path): \(error); attempts are not checked until it can")
            return false
        }
    }
}
