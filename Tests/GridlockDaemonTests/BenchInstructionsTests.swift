import GridlockCore
import Testing
@testable import GridlockBench
@testable import GridlockDaemon

/// `gridlock bench --instructions`: callgrind's totals read from its output file, and the source
/// a request gets from what the machine has.
@Suite struct BenchInstructionsTests {
    /// The head and tail of `valgrind --tool=callgrind --callgrind-out-file=F gridlock bench
    /// --damage-frames 0` (valgrind 3.19), the cost lines between left out.
    static let plainOutput = """
        # callgrind format
        version: 1
        creator: callgrind-3.19.0
        pid: 12675
        cmd:  /work/wt/instr/.build/debug/gridlock bench --damage-frames 0
        part: 1


        desc: I1 cache: 
        desc: D1 cache: 
        desc: LL cache: 

        desc: Timerange: Basic block 0 - 7786027
        desc: Trigger: Program termination

        positions: line
        events: Ir
        summary: 43428950


        ob=(21) /usr/lib/x86_64-linux-gnu/libXext.so.6.4.0
        fl=(246) ???
        fn=(17672) 0x00000000000045e0
        0 5

        totals: 43428950

        """

    /// The same with `--cache-sim=yes`: nine events, and a summary that differs from the totals
    /// in the last digits (as valgrind 3.19 wrote it).
    static let cacheSimOutput = """
        # callgrind format
        version: 1
        creator: callgrind-3.19.0
        pid: 13011
        cmd:  /work/wt/instr/.build/debug/gridlock bench --damage-frames 0
        part: 1


        desc: I1 cache: 32768 B, 64 B, 8-way associative
        desc: D1 cache: 49152 B, 64 B, 12-way associative
        desc: LL cache: 536870912 B, 64 B, 2-way associative

        desc: Timerange: Basic block 0 - 7785935
        desc: Trigger: Program termination

        positions: line
        events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
        summary: 43428775 10366530 7147410 212517 192840 420809 10219 45124 145452


        ob=(21) /usr/lib/x86_64-linux-gnu/libXext.so.6.4.0
        fl=(246) ???
        fn=(17672) 0x00000000000045e0
        0 5 1 0 1 0 0 1 0 0

        totals: 43428773 10366530 7147410 212516 192840 420809 10218 45124 145452

        """

    @Test("the Ir total of a callgrind output file is its totals line")
    func irTotalIsTheTotalsLine() throws {
        #expect(try CallgrindOutput.instructions(in: Self.plainOutput) == 43_428_950)
    }

    @Test("with more events than Ir, the Ir column of the totals line is read, not the summary's")
    func irColumnOfTheTotalsLine() throws {
        #expect(try CallgrindOutput.instructions(in: Self.cacheSimOutput) == 43_428_773)
        let irSecond = Self.plainOutput.replacingFirst("events: Ir", with: "events: Dr Ir")
            .replacingFirst("totals: 43428950", with: "totals: 7 43428950")
        #expect(try CallgrindOutput.instructions(in: irSecond) == 43_428_950)
    }

    @Test("a file cut before its totals line falls back to the header's summary line")
    func summaryWithoutTotals() throws {
        let cut = Self.plainOutput.replacingFirst("totals: 43428950", with: "")
        #expect(try CallgrindOutput.instructions(in: cut) == 43_428_950)
    }

    @Test("a file that is not callgrind's, has no Ir, no totals or an unreadable total says which")
    func unreadableFilesSayWhy() {
        #expect(throws: CallgrindOutputError.noEventsLine) { try CallgrindOutput.instructions(in: "hello\n") }
        #expect(throws: CallgrindOutputError.noInstructionEvent(events: ["Dr", "Dw"])) {
            try CallgrindOutput.instructions(in: Self.plainOutput.replacingFirst("events: Ir", with: "events: Dr Dw"))
        }
        #expect(throws: CallgrindOutputError.noTotalsLine) {
            try CallgrindOutput.instructions(
                in: Self.plainOutput.replacingFirst("totals: 43428950", with: "").replacingFirst("summary: 43428950", with: ""))
        }
        #expect(throws: CallgrindOutputError.unreadableTotals(line: "totals: 4342x950")) {
            try CallgrindOutput.instructions(in: Self.plainOutput.replacingFirst("totals: 43428950", with: "totals: 4342x950"))
        }
    }

    struct CounterFailure: Error, CustomStringConvertible {
        var description: String { "perf_event_open: No such file or directory (ENOENT)" }
    }

    /// What `select` asked the machine for, in order.
    final class Probe {
        var asked: [String] = []
        let counter: Result<Int, CounterFailure>
        let valgrind: String?

        init(counter: Result<Int, CounterFailure>, valgrind: String?) {
            self.counter = counter
            self.valgrind = valgrind
        }

        func select(_ request: BenchInstructions.Request) -> BenchInstructions.Selection<Int> {
            BenchInstructions.select(
                request, openCounter: { asked.append("counter"); return counter },
                findValgrind: { asked.append("valgrind"); return valgrind })
        }
    }

    @Test("auto takes the hardware counter when it opens, and never looks for valgrind")
    func autoPrefersTheCounter() {
        let probe = Probe(counter: .success(7), valgrind: "/usr/bin/valgrind")
        guard case .perf(let counter) = probe.select(.auto) else {
            Issue.record("not perf")
            return
        }
        #expect(counter == 7)
        #expect(probe.asked == ["counter"])
    }

    @Test("auto falls back to callgrind when the counter fails, keeping why")
    func autoFallsBackToCallgrind() {
        let probe = Probe(counter: .failure(CounterFailure()), valgrind: "/usr/bin/valgrind")
        guard case .callgrind(let valgrind, let perfFailure) = probe.select(.auto) else {
            Issue.record("not callgrind")
            return
        }
        #expect(valgrind == "/usr/bin/valgrind")
        #expect(perfFailure == "perf_event_open: No such file or directory (ENOENT)")
        #expect(probe.asked == ["counter", "valgrind"])
    }

    @Test("auto with neither says why for both")
    func autoWithNeither() {
        let probe = Probe(counter: .failure(CounterFailure()), valgrind: nil)
        guard case .unavailable(let reason, let perfFailure) = probe.select(.auto) else {
            Issue.record("not unavailable")
            return
        }
        #expect(reason == "no instruction counter: perf_event_open: No such file or directory (ENOENT); and valgrind is not on PATH (Debian: apt install valgrind)")
        #expect(perfFailure != nil)
    }

    @Test("perf asked for by name is unavailable when the counter fails, and valgrind is not looked for")
    func perfByNameNeverFallsBack() {
        let probe = Probe(counter: .failure(CounterFailure()), valgrind: "/usr/bin/valgrind")
        guard case .unavailable(let reason, _) = probe.select(.perf) else {
            Issue.record("not unavailable")
            return
        }
        #expect(reason == "perf_event_open: No such file or directory (ENOENT)")
        #expect(probe.asked == ["counter"])
    }

    @Test("callgrind asked for by name never opens the counter, and is unavailable without valgrind")
    func callgrindByNameNeverOpensTheCounter() {
        let found = Probe(counter: .success(7), valgrind: "/opt/valgrind/bin/valgrind")
        guard case .callgrind(let valgrind, nil) = found.select(.callgrind) else {
            Issue.record("not callgrind without a perf failure")
            return
        }
        #expect(valgrind == "/opt/valgrind/bin/valgrind")
        #expect(found.asked == ["valgrind"])

        let missing = Probe(counter: .success(7), valgrind: nil)
        guard case .unavailable(let reason, nil) = missing.select(.callgrind) else {
            Issue.record("not unavailable")
            return
        }
        #expect(reason == "valgrind is not on PATH (Debian: apt install valgrind)")
        #expect(missing.asked == ["valgrind"])
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        replacing(target, with: replacement, maxReplacements: 1)
    }
}
