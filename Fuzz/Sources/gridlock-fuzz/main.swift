import CLibFuzzer
import Glibc
import GridlockFuzzing

// One binary holds every target (one instrumented link instead of seven). The first argument
// names the target; the rest goes to libFuzzer:
//
//     gridlock-fuzz TARGET [libFuzzer options] [corpus folders or input files]
//     gridlock-fuzz --list                          each target: name, tab, summary
//     gridlock-fuzz --write-seeds FIXTURES OUT      the seeds of every target, into OUT/TARGET/
//
// `-max_len` defaults to the target's `maximumLength`. An input that breaks one of the
// target's properties aborts with the finding on stderr, so libFuzzer saves it like a crash.
//
// SwiftPM links an executable's own entry point as `main`, so libFuzzer's `main` is not
// used: this one calls `LLVMFuzzerRunDriver`, libFuzzer's entry for programs with a main.

nonisolated(unsafe) private var target: FuzzTarget!

private func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = write(2, bytes, bytes.count)
}

private func fail(_ message: String) -> Never {
    printError("gridlock-fuzz: \(message)")
    exit(64)
}

/// Seeds go to OUT/TARGET/NAME; an existing file of that name is replaced.
private func writeSeeds(fixtures: String, into folder: String) {
    mkdir(folder, 0o755)
    for target in FuzzTargets.all {
        let directory = "\(folder)/\(target.name)"
        guard mkdir(directory, 0o755) == 0 || errno == EEXIST else { fail("cannot make \(directory)") }
        let seeds = target.seeds(fixtures)
        guard !seeds.isEmpty else { fail("no seeds for \(target.name) from \(fixtures)") }
        for seed in seeds {
            let path = "\(directory)/\(seed.name)"
            guard let file = fopen(path, "wb") else { fail("cannot write \(path)") }
            let written = fwrite(seed.bytes, 1, seed.bytes.count, file)
            guard fclose(file) == 0, written == seed.bytes.count else { fail("cannot write \(path)") }
        }
        print("\(target.name): \(seeds.count) seeds")
    }
}

var arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "--list":
    for target in FuzzTargets.all { print("\(target.name)\t\(target.summary)") }
    exit(0)
case "--write-seeds" where arguments.count == 4:
    writeSeeds(fixtures: arguments[2], into: arguments[3])
    exit(0)
case let name? where FuzzTargets.named(name) != nil:
    target = FuzzTargets.named(name)
default:
    fail("usage: gridlock-fuzz TARGET [libFuzzer options] [corpus...] | --list | --write-seeds FIXTURES OUT\n"
         + "targets: \(FuzzTargets.all.map(\.name).joined(separator: " "))")
}
arguments.remove(at: 1)
if !arguments.contains(where: { $0.hasPrefix("-max_len=") }) {
    arguments.insert("-max_len=\(target.maximumLength)", at: 1)
}

var argc = CInt(arguments.count)
// libFuzzer keeps pointers into this array for the whole run: it is never freed.
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = .allocate(capacity: arguments.count + 1)
for (index, argument) in arguments.enumerated() { argv![index] = strdup(argument) }
argv![arguments.count] = nil
atexit { FuzzScratch.removeAll() }

exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    do {
        try target.run(bytes)
    } catch {
        printError("gridlock-fuzz \(target.name): FINDING: \(error)")
        abort()
    }
    return 0
})
