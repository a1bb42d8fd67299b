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
/// says, with hotplug through the same `/dev/input` watch the touch source uses.
///
/// A missing buzzer is no error: sounds are off, said once, until one appears. A buzzer
/// that goes away (its node deleted, or a write failing with ENODEV) is said once, and
/// sounds are off until a node with EV_SND comes back. Its descriptor is never watched:
/// the device's own events (it echoes the tones written to it) are of no interest.
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
    private let hotplug: InputDirectoryWatch
    private var writer: (any ToneWriter)?
    private var rescanAt: Instant?
    private var lastProblem: String?
    /// After a loss was said, the rescans that find nothing say nothing more.
    private var quietUntilFound = false

    public init(
        settings: Settings, now: Instant, environment: any BeeperEnvironment = LibevdevEnvironment(),
        log: @escaping (LogPriority, String) -> Void = BeeperSource.journal
    ) throws(SystemCallError) {
        self.settings = settings
        self.environment = environment
        self.log = log
        hotplug = try InputDirectoryWatch(directory: settings.directory, log: log)
        openChosen()
    }

    /// The open buzzer's node, nil while sounds are off.
    public var devicePath: String? { writer?.path }

    public var descriptors: [FileDescriptor] { [hotplug.fileDescriptor] }
    public var nextDeadline: Instant? { rescanAt }

    public func handleReadable(_ descriptor: FileDescriptor, now: Instant) {
        guard descriptor == hotplug.fileDescriptor, hotplug.readChanges() else { return }
        if let writer, case .failure(let error) = environment.describe(writer.path).device, error.errno == .noSuchFile {
            lost("\(writer.path) is gone", now: now)
        }
        if writer == nil { scheduleRescan(now: now) }
    }

    public func handleDeadline(now: Instant) {
        guard let due = rescanAt, due <= now else { return }
        rescanAt = nil
        if writer == nil { openChosen() }
    }

    /// Sets the tone now. Without a buzzer it does nothing; EAGAIN drops this one tone.
    public func sound(hertz: Int, now: Instant) {
        guard let writer else { return }
        do {
            try writer.sound(hertz: hertz)
        } catch where error.errno == .wouldBlock {
            return
        } catch {
            lost("\(error)", now: now)
        }
    }

    /// Lets the device go (the daemon stops; its player has silenced it first).
    public func close() {
        writer?.close()
        writer = nil
    }

    private func lost(_ why: String, now: Instant) {
        writer?.close()
        writer = nil
        report(.warning, "beeper lost: \(why); sounds are off until a beeper (an input device with EV_SND) appears")
        quietUntilFound = true
        // Another one may already be there (auto): look once, then wait for hotplug.
        scheduleRescan(now: now)
    }

    private func openChosen() {
        guard let (path, kind) = choose() else { return }
        do {
            writer = try environment.openBeeper(path, kind: kind)
        } catch {
            report(.warning, "\(error); sounds are off until it can be opened")
            return
        }
        // A tone left sounding by a predecessor killed mid-step (the driver holds a tone
        // until told otherwise) ends now.
        try? writer?.sound(hertz: 0)
        lastProblem = nil
        quietUntilFound = false
        let name = environment.describe(path).description?.name ?? "?"
        log(.info, "beeper: \(path) \"\(name)\" (\(kind.rawValue)\(kind == .bell ? ": one pitch only" : ""))")
    }

    private func choose() -> (String, BeeperKind)? {
        let scanned: [ScannedDevice]
        switch settings.selector {
        case .path(let configured):
            let resolved: String
            do {
                resolved = try environment.resolve(configured)
            } catch {
                report(.warning, "beeper \(configured) (beeper=) is not there: \(error.errno); sounds are off until it appears")
                return nil
            }
            scanned = [environment.describe(resolved)]
            if let chosen = settings.selector.choose(among: scanned) { return chosen }
            report(.warning, "beeper \(configured) (beeper=) has no EV_SND (SND_TONE or SND_BELL); sounds are off")
            return nil
        case .auto:
            do {
                scanned = try environment.scan(settings.directory)
            } catch {
                report(.warning, "cannot list \(settings.directory): \(error); sounds are off")
                return nil
            }
            if let chosen = settings.selector.choose(among: scanned) { return chosen }
            report(.info, "no beeper: no input device in \(settings.directory) has EV_SND (SND_TONE or SND_BELL); sounds are off until one appears")
            return nil
        }
    }

    private func scheduleRescan(now: Instant) {
        let due = now + EvdevTouchSource.settle
        rescanAt = min(rescanAt ?? due, due)
    }

    private func report(_ priority: LogPriority, _ problem: String) {
        guard problem != lastProblem, !quietUntilFound else { return }
        lastProblem = problem
        log(priority, problem)
    }

    public static func journal(_ priority: LogPriority, _ message: String) {
        Journal.log(priority, message, JournalFields(fields: ["GRIDLOCK_EVENT": "beeper"]))
    }
}
