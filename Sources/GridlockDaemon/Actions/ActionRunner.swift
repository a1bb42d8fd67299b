import GridlockCore
import LinuxSys

/// Starts unlock actions, one at a time, without a shell and with a minimal
/// environment: the child learns which pattern matched by name, never the pattern.
public final class ActionRunner {
    /// Fixed rather than inherited: the daemon's environment is not the action's business.
    public static let searchPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

    public let killGrace: Duration
    public private(set) var current: RunningAction?

    public init(killGrace: Duration = RunningAction.defaultKillGrace) {
        self.killGrace = killGrace
    }

    public static func environment(patternName: String) -> [String] {
        ["GRIDLOCK_PATTERN=\(patternName)", "PATH=\(searchPath)"]
    }

    /// `argv[0]` must be a path (no PATH search). `now` is CLOCK_MONOTONIC, the
    /// clock of the loop's deadlines. `outputBudget` limits the lines its output gives.
    public func start(
        patternName: String, argv: [String], timeout: Duration, now: Instant,
        outputBudget: OutputLineSplitter.Budget = .unlimited
    ) throws(ActionRunnerError) -> RunningAction {
        if let current, current.exitStatus == nil {
            throw .alreadyRunning(patternName: current.patternName, pid: current.pid)
        }
        guard !patternName.isEmpty, !patternName.utf8.contains(0) else {
            throw .invalidPatternName(patternName)
        }
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess.spawn(argv: argv, environment: Self.environment(patternName: patternName))
        } catch {
            throw .spawnFailed(patternName: patternName, error)
        }
        let action = RunningAction(
            patternName: patternName, process: process, deadline: now + timeout, killGrace: killGrace,
            outputBudget: outputBudget)
        current = action
        return action
    }
}

public enum ActionRunnerError: Error, Hashable, Sendable, CustomStringConvertible {
    case alreadyRunning(patternName: String, pid: Int32)
    case invalidPatternName(String)
    case spawnFailed(patternName: String, SystemCallError)

    public var description: String {
        switch self {
        case .alreadyRunning(let name, let pid):
            "an action is already running (pattern \"\(name)\", pid \(pid)); only one runs at a time"
        case .invalidPatternName(let name):
            "pattern name \(name.debugDescription) cannot be passed in GRIDLOCK_PATTERN"
        case .spawnFailed(let name, let error):
            "the action for pattern \"\(name)\" could not start: \(error)"
        }
    }
}
