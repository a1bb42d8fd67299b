import GridlockCore
import GridlockDaemon

extension FuzzTargets {
    /// The attempt state file (`AttemptFileFormat`): strict, so anything it accepts must be
    /// exactly what the writer makes of the decoded state, and the state must be one the
    /// writer can write (a count it would refuse could never be saved again).
    static let attemptFile = FuzzTarget(
        name: "attempt-file",
        summary: "the attempt state file's parser; what it accepts is byte for byte what the writer writes for it",
        maximumLength: 512,
        run: { bytes throws(FuzzFinding) in
            guard let state = FuzzSeams.decodeAttemptFile(bytes) else { return }
            try require(
                (0...AttemptState.maximumFailures).contains(state.failures),
                "decoded a failure count the writer refuses: \(state.failures)")
            let written = FuzzSeams.encodeAttemptFile(state)
            try require(written == bytes, "accepted a file the writer would write differently: \(quoted(bytes))")
        },
        seeds: { _ in
            [
                AttemptState.clean, AttemptState(failures: 5, lockoutPending: true),
                AttemptState(failures: 139, lockoutPending: false),
                AttemptState(failures: AttemptState.maximumFailures, lockoutPending: true),
            ].map { FuzzSeed("failures-\($0.failures)-lockout-\($0.lockoutPending)", FuzzSeams.encodeAttemptFile($0)) }
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
