import GridlockConfiguration
import GridlockCore
import LinuxSys

extension Daemon {
    /// What this run of the daemon's wiring is for. The four programs that run it differ in
    /// a handful of capabilities, decided here once; everything else is the same code, so
    /// what `gridlock enroll` and `gridlock bench` exercise is what gridlockd runs.
    public enum Role: Equatable, Sendable {
        /// gridlockd: the lock screen, counting attempts, with hooks, sounds and the state file.
        case lock
        /// `gridlock enroll` on the panel: set a gesture, drawn twice. Nothing is counted and
        /// no hook runs; the run ends with the confirmed pattern, or after `giveUpAfter`.
        case enroll(giveUpAfter: Duration?)
        /// `gridlock bench`'s start-up: render but present nowhere, end after the first frame.
        case benchStartup
        /// `gridlock bench`'s CPU per stroke: as `benchStartup`, then on until the replayed
        /// recording has been played to its end.
        case benchStroke
        /// `gridlock replay`: the lock on a recording, in the recording's time (the loop plays
        /// it, `EventLoop.playRecordedTime`), hooks and actions run for real. Ends once the
        /// recording is played, every timer has run out and nothing it started still runs;
        /// a hook with `timeout=0` may run `untimedHookLimit` at the most.
        case replay(untimedHookLimit: Duration)

        /// What the lock machine is asked to do with a drawn pattern.
        package var machineMode: LockMachine.Mode {
            if case .enroll = self { .enroll } else { .unlock }
        }

        /// The lock itself, with everything around a door: hooks, tamper, the clock's trust.
        package var guardsADoor: Bool {
            switch self {
            case .lock, .replay: true
            case .enroll, .benchStartup, .benchStroke: false
            }
        }

        /// Its display and touch are not the config's but a recording and frames (`gridlock replay`).
        package var playsARecording: Bool {
            if case .replay = self { true } else { false }
        }

        /// Ends by itself once the recording it plays is done (and, replaying, all it started).
        package var endsWithTheRecording: Bool {
            switch self {
            case .benchStroke, .replay: true
            case .lock, .enroll, .benchStartup: false
            }
        }

        /// Failures, lockouts and uses read from and written to the state file.
        package var countsAttempts: Bool { self == .lock }

        /// Benchmarks measure the drawing, not the panel: no display, no beeper.
        package var isBenchmark: Bool { self == .benchStartup || self == .benchStroke }

        /// Whether the tip of the line is predicted (`[feedback] predict=`): on the panel a
        /// person draws on, not in a replay's frames nor a benchmark's, which stay those of
        /// the recording alone.
        package func predictsTip(_ config: GridlockConfig) -> Bool {
            config.feedback.predictsTip && (self == .lock || machineMode == .enroll)
        }

        package var giveUpAfter: Duration? {
            if case .enroll(let after) = self { after } else { nil }
        }

        /// How the journal names the run's start and end.
        package var journalName: String {
            switch self {
            case .enroll: "enrollment"
            case .replay: "replay"
            case .lock, .benchStartup, .benchStroke: "gridlockd"
            }
        }
    }

    /// Figures a benchmark role measures; the executable that asked prints them.
    public enum Measurement: Equatable, Sendable {
        /// The first frame was presented at `at` (CLOCK_MONOTONIC); memory right after it.
        case firstFrame(at: Instant, memory: ProcessStatus.Memory?)
        /// The replayed stroke, from the first frame to its end: CPU time and frames drawn.
        case stroke(cpu: Duration, frames: Int)
    }
}
