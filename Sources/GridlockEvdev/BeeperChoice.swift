import GridlockInput
/// What an input device can sound: any pitch (SND_TONE), or only its own (SND_BELL).
public enum BeeperKind: String, Hashable, Sendable {
    case tone = "SND_TONE"
    case bell = "SND_BELL"
}

extension DeviceDescription {
    /// How this device beeps, if it has a buzzer (EV_SND): pcspkr, pwm-beeper and
    /// gpio-beeper have SND_TONE; some keyboards only SND_BELL.
    public var beeperKind: BeeperKind? {
        let sounds = codes[InputCodes.EV_SND] ?? []
        if sounds.contains(InputCodes.SND_TONE) { return .tone }
        if sounds.contains(InputCodes.SND_BELL) { return .bell }
        return nil
    }
}

/// `[feedback] beeper=`: which device sounds. Pure: the scanning is `InputDeviceDirectory`'s.
public enum BeeperSelector: Hashable, Sendable {
    /// The first device with SND_TONE, else the first with SND_BELL.
    case auto
    /// This node (links resolved by the caller); it must have EV_SND.
    case path(String)

    /// The chosen node among `scanned` (event number order) and how it sounds; nil when
    /// none fits. For `.path`, `scanned` holds the one node it names.
    public func choose(among scanned: [ScannedDevice]) -> (path: String, kind: BeeperKind)? {
        let beepers = scanned.compactMap { node in node.description?.beeperKind.map { (path: node.path, kind: $0) } }
        switch self {
        case .auto:
            return beepers.first { $0.kind == .tone } ?? beepers.first
        case .path:
            return beepers.first
        }
    }
}
