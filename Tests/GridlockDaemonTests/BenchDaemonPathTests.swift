import Testing
@testable import GridlockBench
@testable import GridlockDaemon

/// `gridlock bench` must find gridlockd both in a build folder and where the package installs it.
@Suite struct BenchDaemonPathTests {
    @Test("an installed gridlock looks in the sbin folder after its own") func anInstalledGridlockLooksInTheSbinFolderAfterItsOwn() {
        #expect(BenchDaemonPath.candidates(besides: "/usr/bin/gridlock") == ["/usr/bin/gridlockd", "/usr/sbin/gridlockd"])
        #expect(BenchDaemonPath.candidates(besides: "/usr/local/bin/gridlock") == ["/usr/local/bin/gridlockd", "/usr/local/sbin/gridlockd"])
    }

    @Test("a gridlock in a build folder looks beside itself only") func aGridlockInABuildFolderLooksBesideItselfOnly() {
        #expect(BenchDaemonPath.candidates(besides: "/src/gridlock/.build/release/gridlock") == ["/src/gridlock/.build/release/gridlockd"])
    }
}
