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

        /// What the lock machine is asked to do with a drawn pattern.
        var machineMode: LockMachine.Mode {
            if case .enroll = self { .enroll } else { .unlock }
        }

        /// The lock itself, with everything around a door: hooks, tamper, the clock's trust.
        var guardsADoor: Bool { self == .lock }

        /// Failures, lockouts and uses read from and written to the state file.
        var countsAttempts: Bool { self == .lock }

        /// Benchmarks measure the drawing, not the panel: no display, no beeper.
        var isBenchmark: Bool { self == .benchStartup || self == .benchStroke }

        var giveUpAfter: Duration? {
            if case .enroll(let after) = self { after } else { nil }
        }

        /// How the journal names the run's start and end.
        var journalName: String {
            if case .enroll = self { "enrollment" } else { "gridlockd" }
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
