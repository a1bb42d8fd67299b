import GridlockCore
import Testing
@testable import GridlockBench
@testable import GridlockDaemon

/// `gridlock bench --damage-frames N` must draw the frames of the measured damage-only pass.
@Suite struct BenchRunnerTests {
    @Test("damage frames cover the area of the measured pass and none cover nothing") func damageFramesCoverTheAreaOfTheMeasuredPassAndNoneCoverNothing() throws {
        let size = BenchScene.sizes[0]
        let measured = try BenchRunner.measure(size: size)
        let all = try BenchRunner.drawDamageFrames(size: size, count: BenchScene.moves)
        let perFrame = all / Double(BenchScene.moves) / (size.width * size.height)
        #expect(abs(perFrame - measured.damagedFraction) < 1e-12)
        #expect(try BenchRunner.drawDamageFrames(size: size, count: 0) == 0)
        let some = try BenchRunner.drawDamageFrames(size: size, count: 60)
        #expect(some > 0 && some < all)
    }
}

/// The in-process counter of `gridlock bench --instructions perf` must run around the frames and nothing else.
@Suite struct BenchRunnerCountingTests {
    @Test("the damage frames are drawn inside the hook, which runs once, after the warm-up")
    func damageFramesAreDrawnInsideTheHook() throws {
        let size = BenchScene.sizes[0]
        var calls = 0
        let skipped = try BenchRunner.drawDamageFrames(size: size, count: 60) { _ in calls += 1 }
        #expect(calls == 1)
        #expect(skipped == 0)
        let drawn = try BenchRunner.drawDamageFrames(size: size, count: 60) { drawFrames in drawFrames() }
        let uncounted = try BenchRunner.drawDamageFrames(size: size, count: 60)
        #expect(drawn == uncounted)
        #expect(drawn > 0)
    }
}
