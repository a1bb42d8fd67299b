import Testing
@testable import GridlockBench
@testable import GridlockDaemon

/// `gridlock bench` must find gridlockd-single both in a build folder and where the package installs it.
@Suite struct BenchDaemonPathTests {
    @Test("an installed gridlock looks in libexec/gridlock after its own folder") func anInstalledGridlockLooksInLibexecAfterItsOwn() {
        #expect(BenchDaemonPath.candidates(besides: "/usr/bin/gridlock") == ["/usr/bin/gridlockd-single", "/usr/libexec/gridlock/gridlockd-single"])
        #expect(BenchDaemonPath.candidates(besides: "/usr/local/bin/gridlock") == ["/usr/local/bin/gridlockd-single", "/usr/local/libexec/gridlock/gridlockd-single"])
    }

    @Test("a gridlock in a build folder looks beside itself only") func aGridlockInABuildFolderLooksBesideItselfOnly() {
        #expect(BenchDaemonPath.candidates(besides: "/src/gridlock/.build/release/gridlock") == ["/src/gridlock/.build/release/gridlockd-single"])
    }
}
