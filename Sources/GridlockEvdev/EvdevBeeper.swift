import GridlockInput
import CEvdev
import LinuxSys

/// Why a beeper could not be opened or sounded; always names the device.
public enum BeeperError: Error, Hashable, Sendable, CustomStringConvertible {
    case open(path: String, Errno)
    case write(path: String, Errno)

    public var errno: Errno {
        switch self {
        case .open(_, let errno), .write(_, let errno): errno
        }
    }

    /// ENODEV (or EIO) after an unplug: the node is dead, only a new one will sound.
    public var deviceGone: Bool { errno == .noSuchDevice || errno == .ioError }

    public var description: String {
        switch self {
        case .open(let path, let errno): "cannot open beeper \(path) for writing: \(errno)"
        case .write(let path, let errno): "cannot sound beeper \(path): \(errno)"
        }
    }
}

/// A buzzer behind an evdev node (EV_SND), sounded by writing input events to it: the
/// kernel hands SND_TONE's pitch (SND_BELL's on/off) to the driver, which holds the tone
/// until it is told 0. Opened write-only and non-blocking: the daemon's loop never waits
/// on it, and nobody else's reads are disturbed (no grab).
public final class EvdevBeeper {
    public let path: String
    public let kind: BeeperKind
    private var descriptor: FileDescriptor?

    public init(path: String, kind: BeeperKind) throws(BeeperError) {
        do {
            descriptor = try FileDescriptor.open(path, [.writeOnly, .nonBlocking])
        } catch {
            throw .open(path: path, error.errno)
        }
        self.path = path
        self.kind = kind
    }

    deinit { close() }

    /// Sets the tone (0: silence). A bell-only device sounds its own pitch for any tone.
    public func sound(hertz: Int) throws(BeeperError) {
        guard let descriptor else { throw .write(path: path, .noSuchDevice) }
        var event = input_event()
        event.type = InputCodes.EV_SND
        switch kind {
        case .tone:
            event.code = InputCodes.SND_TONE
            event.value = Int32(clamping: hertz)
        case .bell:
            event.code = InputCodes.SND_BELL
            event.value = hertz > 0 ? 1 : 0
        }
        // The driver sounds the tone at once, but readers of the node (a recorder, a test)
        // see the event only with the SYN_REPORT that closes its frame.
        var sync = input_event()
        sync.type = InputCodes.EV_SYN
        sync.code = InputCodes.SYN_REPORT
        let bytes = withUnsafeBytes(of: &event) { Array($0) } + withUnsafeBytes(of: &sync) { Array($0) }
        do {
            try descriptor.writeAll(bytes)
        } catch {
            throw .write(path: path, error.errno)
        }
    }

    public func close() {
        descriptor?.close()
        descriptor = nil
    }
}
