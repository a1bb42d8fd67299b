import GridlockConfiguration
import GridlockCore

/// What a successful pattern runs: its `exec=`, and for a duress pattern also its
/// `duress-exec=`, which runs silently (nothing on screen differs from a normal unlock).
public struct UnlockActionPlan: Hashable, Sendable {
    public var patternName: String
    public var exec: [String]?
    public var duressExec: [String]?
    public var isDuress: Bool
    /// `[action] timeout=`; nil (timeout=0) means no limit.
    public var timeout: Duration?

    /// What the runner enforces: the timeout, or a year standing in for "no limit".
    public var enforcedTimeout: Duration { timeout ?? .seconds(86_400 * 365) }
}

extension GridlockConfig {
    public func actionPlan(for patternName: String) -> UnlockActionPlan {
        let entry = patterns.first { $0.name == patternName }
        return UnlockActionPlan(
            patternName: patternName,
            exec: entry?.exec,
            duressExec: entry?.duress == true ? entry?.duressExec : nil,
            isDuress: entry?.duress ?? false,
            timeout: action.timeout
        )
    }
}
