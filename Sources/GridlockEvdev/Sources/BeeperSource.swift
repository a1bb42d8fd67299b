import GridlockCore
import GridlockInput
import LinuxSys

/// An open buzzer as the beeper source holds it: `EvdevBeeper`, a recorder in tests.
public protocol ToneWriter: AnyObject {
    var path: String { get }
    /// Sets the tone (0: silence); never blocks.
    func sound(hertz: Int) throws(BeeperError)
    func close()
}

extension EvdevBeeper: ToneWriter {}

/// The I/O a `BeeperSource` does to find and open a buzzer, so its choice, loss and
/// hotplug run in tests without a kernel device. The touch source's environment
/// (`LibevdevEnvironment`) serves both.
public protocol BeeperEnvironment {
    func scan(_ directory: String) throws(SystemCallError) -> [ScannedDevice]
    func describe(_ path: String) -> ScannedDevice
    func resolve(_ path: String) throws(SystemCallError) -> String
    func openBeeper(_ path: String, kind: BeeperKind) throws(BeeperError) -> any ToneWriter
}

extension LibevdevEnvironment: BeeperEnvironment {
    public func openBeeper(_ path: String, kind: BeeperKind) throws(BeeperError) -> any ToneWriter {
        try EvdevBeeper(path: path, kind: kind)
    }
}

/// `[feedback] beeper=`: the buzzer the lock screen's sounds go to, chosen as the config
/// says, with hotplug through the same `/dev/input` life cycle as the touch source
/// (`InputNodeLifecycle`).
///
/// A missing buzzer is no error: sounds are off, said once, until one appears. A buzzer
/// that goes away (its node deleted, or a write failing with ENODEV) is said once, and
/// sounds are off until a node with EV_SND comes back. Its descriptor is never watched:
/// the device's own events (it echoes the tones written to it) are of no interest. On the
/// loop its directory watch and its rescan deadline are both named "beeper hotplug".
public final class BeeperSource {
    public struct Settings: Sendable {
        public var selector: BeeperSelector
        public var directory: String

        public init(selector: BeeperSelector, directory: String = InputDeviceDirectory.defaultPath) {
            self.selector = selector
            self.directory = directory
        }
    }

    private let settings: Settings
    private let environment: any BeeperEnvironment
    private let log: (LogPriority, String) -> Void
    private var lifecycle: InputNodeLifecycle<any ToneWriter>!

    public init(
        settings: Settings, now: Instant, environment: any BeeperEnvironment = LibevdevEnvironment(),
        log: @escaping (LogPriority, String) -> Void = BeeperSource.journal
    ) throws(SystemCallError) {
        self.settings = settings
        self.environment = environment
        self.log = log
        lifecycle = try InputNodeLifecycle(
            directory: settings.directory, cause: "beeper hotplug", quietAfterLoss: true, log: log,
            hooks: .init(
                open: { [unowned self] _ in openChosen() },
                close: { $0.close() },
                gone: { [environment] writer in
                    guard case .failure(let error) = environment.describe(writer.path).device, error.errno == .noSuchFile else { return nil }
                    return Self.lost("\(writer.path) is gone")
                }))
        lifecycle.start(now: now)
    }

    /// Registers the hotplug watch and rescan deadline on the loop.
    public func attach(to loop: EventLoop) { lifecycle.attach(to: loop) }

    /// The open buzzer's node, nil while sounds are off.
    public var devicePath: String? { lifecycle.node?.path }

    /// When the next look for a buzzer is due, nil while only waiting on inotify.
    var rescanDue: Instant? { lifecycle.rescanDue }

    /// Sets the tone now. Without a buzzer it does nothing; EAGAIN drops this one tone.
    public func sound(hertz: Int, now: Instant) {
        guard let writer = lifecycle.node else { return }
        do {
            try writer.sound(hertz: hertz)
        } catch where error.errno == .wouldBlock {
            return
        } catch {
            lifecycle.lose(.warning, Self.lost("\(error)"), now: now)
        }
    }

    /// Leaves the loop and lets the device go (the daemon stops; its player has silenced it first).
    public func close() { lifecycle.detach() }

    private static func lost(_ why: String) -> String {
        "beeper lost: \(why); sounds are off until a beeper (an input device with EV_SND) appears"
    }

    private func openChosen() -> (any ToneWriter)? {
        guard let (path, kind) = choose() else { return nil }
        let writer: any ToneWriter
        do {
            writer = try environment.openBeeper(path, kind: kind)
        } catch {
            lifecycle.report(.warning, "\(error); sounds are off until it can be opened")
            return nil
        }
        // A tone left sounding by a predecessor killed mid-step (the driver holds a tone
        // until told otherwise) ends now.
        try? writer.sound(hertz: 0)
        let name = environment.describe(path).description?.name ?? "?"
        log(.info, "beeper: \(path) \"\(name)\" (\(kind.rawValue)\(kind == .bell ? ": one pitch only" : ""))")
        return writer
    }

    private func choose() -> (String, BeeperKind)? {
        let scanned: [ScannedDevice]
        switch settings.selector {
        case .path(let configured):
            let resolved: String
            do {
                resolved = try environment.resolve(configured)
            } catch {
                lifecycle.report(.warning, "beeper \(configured) (beeper=) is not there: \(error.errno); sounds are off until it appears")
                return nil
            }
            scanned = [environment.describe(resolved)]
            if let chosen = settings.selector.choose(among: scanned) { return chosen }
            lifecycle.report(.warning, "beeper \(configured) (beeper=) has no EV_SND (SND_TONE or SND_BELL); sounds are off")
            return nil
        case .auto:
            do {
                scanned = try environment.scan(settings.directory)
            } catch {
                lifecycle.report(.warning, "cannot list \(settings.directory): \(error); sounds are off")
                return nil
            }
            if let chosen = settings.selector.choose(among: scanned) { return chosen }
            lifecycle.report(.info, "no beeper: no input device in \(settings.directory) has EV_SND (SND_TONE or SND_BELL); sounds are off until one appears")
            return nil
        }
    }

    public static func journal(_ priority: LogPriority, _ message: String) {
        Journal.log(priority, message, JournalFields(fields: ["GRIDLOCK_EVENT": "beeper"]))
    }
}
