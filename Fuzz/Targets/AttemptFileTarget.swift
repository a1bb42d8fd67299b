import GridlockCore
import GridlockDaemon

extension FuzzTargets {
    /// The attempt state file (`AttemptFileFormat`): strict, so anything of the current
    /// version it accepts must be exactly what the writer makes of the decoded state; and
    /// whatever it accepts, of any version, the writer must write as a file that its reader
    /// reads back as the same state, within the size limit (a state it could not write
    /// back would be lost at the next save).
    static let attemptFile = FuzzTarget(
        name: "attempt-file",
        summary: "the attempt state file's parser; what it accepts the writer writes back as the same state, byte for byte in its own version",
        maximumLength: 512,
        run: { bytes throws(FuzzFinding) in
            guard let state = FuzzSeams.decodeAttemptFile(bytes) else { return }
            let limits = FuzzSeams.attemptFileLimits
            try require(
                (0...AttemptState.maximumFailures).contains(state.attempts.failures),
                "decoded a failure count the writer refuses: \(state.attempts.failures)")
            let written = FuzzSeams.encodeAttemptFile(state)
            try require(written.count <= limits.size, "the writer wrote \(written.count) bytes, more than its reader takes")
            guard state.patterns.count <= limits.patterns else { return }
            try require(FuzzSeams.decodeAttemptFile(written) == state, "the writer's file reads back as another state: \(quoted(written))")
            // A count beyond nine digits is read as the most there can be: the one state with
            // two spellings, on purpose.
            let saturated = state.attempts.failures == AttemptState.maximumFailures
            if !saturated, bytes.starts(with: Array("gridlock-attempts \(limits.version)\n".utf8)) {
                try require(written == bytes, "accepted a file the writer would write differently: \(quoted(bytes))")
            }
        },
        seeds: { _ in
            var seeds = [
                AttemptState.clean, AttemptState(failures: 5, lockoutPending: true),
                AttemptState(failures: 139, lockoutPending: false),
                AttemptState(failures: AttemptState.maximumFailures, lockoutPending: true),
            ].map { FuzzSeed("failures-\($0.failures)-lockout-\($0.lockoutPending)", FuzzSeams.encodeAttemptFile(SavedState(attempts: $0))) }
            var uses = SavedState(attempts: AttemptState(failures: 2), usesLost: true, generation: 41)
            uses.patterns["door"] = PatternUse(count: 3, hashTag: 0x0102_0304, lastAccepted: 1_764_547_200)
            uses.patterns["visitor"] = PatternUse(count: nil, hashTag: 0xdead_beef, lastAccepted: nil)
            seeds.append(FuzzSeed("uses-known-and-unknown", FuzzSeams.encodeAttemptFile(uses)))
            return seeds
        })
}

/// Bytes for a finding's message: printable ASCII as is, the rest as `\xNN`.
func quoted(_ bytes: some Sequence<UInt8>) -> String {
    var out = "\""
    for byte in bytes {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "\""): out += "\\" + String(UnicodeScalar(byte))
        case 0x20..<0x7f: out += String(UnicodeScalar(byte))
        default: out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
    }
    return out + "\""
}
