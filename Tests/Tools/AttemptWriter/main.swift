// Test helper for the crash-safety test of the state file: opens it as gridlockd starts
// (StateFile.open: witness checked, file and witness written), adds one failure at a time
// through StateFile, exactly as the daemon does before each verification, and prints
// "persisted N" after each save returned; with a third argument `uses`, it records one use
// of a limited pattern at a time through StateFile, as the daemon does before the pattern's
// action runs, and prints "used N". The test kills it with SIGKILL at random moments and
// checks the file never goes backwards and always parses.
import Glibc
import GridlockConfiguration
import GridlockCore
import GridlockDaemon

let arguments = CommandLine.arguments
guard arguments.count == 3 || (arguments.count == 4 && arguments[3] == "uses"), let writes = Int(arguments[2]) else {
    print("usage: gridlock-test-attempt-writer STATE-FILE WRITES [uses]")
    exit(64)
}
let path = arguments[1]
let visitorHash = "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"
var visitor = PatternEntry(name: "visitor", hash: visitorHash, source: SourceLocation(file: "writer", line: 1))
visitor.limits = PatternLimits(uses: 1_000_000)
let file = StateFile.open(path, schedule: .android, patterns: [visitor])
if let damage = file.damage {
    print("corrupt: the state file \(damage)")
    exit(2)
}
/// One write(2) per line, unbuffered: a line seen by the test was printed after the save.
func say(_ text: String) {
    let line = Array("\(text)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

for _ in 0..<writes {
    do {
        if arguments.count == 4 {
            try file.saveUse(of: "visitor", hash: visitorHash, at: 1_764_547_200)
            say("used \(file.saved.uses(of: "visitor", hash: visitorHash) ?? -1)")
        } else {
            var attempts = file.saved.attempts
            attempts.failures += 1
            try file.save(attempts: attempts)
            say("persisted \(attempts.failures)")
        }
    } catch {
        print("error \(error)")
        exit(1)
    }
}
