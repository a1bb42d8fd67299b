// Test helper for the crash-safety test of the attempt state file: adds one failure at a
// time through AttemptStore, exactly as the daemon does before each verification, and
// prints "persisted N" after each save returned. The test kills it with SIGKILL at random
// moments and checks the file never goes backwards and always parses.
import Glibc
import GridlockCore
import GridlockDaemon

let arguments = CommandLine.arguments
guard arguments.count == 3, let writes = Int(arguments[2]) else {
    print("usage: gridlock-test-attempt-writer STATE-FILE WRITES")
    exit(64)
}
let path = arguments[1]
var state: AttemptState
switch AttemptStore.load(from: path) {
case .missing: state = .clean
case .loaded(let loaded): state = loaded
case .corrupt(let reason):
    print("corrupt \(reason)")
    exit(2)
case .unreadable(let error):
    print("unreadable \(error)")
    exit(2)
}
for _ in 0..<writes {
    state.failures += 1
    do {
        try AttemptStore.save(state, to: path)
    } catch {
        print("error \(error)")
        exit(1)
    }
    // One write(2) per line, unbuffered: a line seen by the test was printed after the save.
    let line = Array("persisted \(state.failures)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}
