import GridlockCore

/// What a successful pattern runs: its `exec=`, and for a duress pattern also its
/// `duress-exec=`, which runs silently (nothing on screen differs from a normal unlock).
public struct UnlockActionPlan: Hashable, Sendable {
    public var patternName: String
    public var exec: [String]?
    public var duressExec: [String]?
    public var isDuress: Bool
    public var timeout: Duration?
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
