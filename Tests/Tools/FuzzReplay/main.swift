// Test helper for the fuzz regression test: runs one saved input through one fuzz target
// (the code the fuzzer runs, Fuzz/Targets) in a process of its own, so that an input that
// still traps kills this process and fails its own test, not the whole test run. A finding
// that is not a trap is printed; the exit status is 0 either way.
import Glibc
import GridlockFuzzing
import LinuxSys

let arguments = CommandLine.arguments
guard arguments.count == 3, let target = FuzzTargets.named(arguments[1]) else {
    print("usage: gridlock-test-fuzz-replay TARGET INPUT-FILE (TARGET one of: \(FuzzTargets.all.map(\.name).joined(separator: " ")))")
    exit(64)
}
let bytes: [UInt8]
do {
    bytes = try AtomicFile.contents(of: arguments[2])
} catch {
    print("gridlock-test-fuzz-replay: \(error)")
    exit(66)
}
do {
    try target.run(bytes)
} catch {
    print(error)
}
FuzzScratch.removeAll()
