import Testing
@testable import GridlockDaemon

/// gridlockd and `gridlock bench` must find gridlockd-single both in a build folder and where the package installs it.
@Suite struct SingleProcessPathTests {
    @Test("an installed gridlock or gridlockd looks in libexec/gridlock after its own folder") func anInstalledProgramLooksInLibexecAfterItsOwn() {
        #expect(SingleProcessPath.candidates(besides: "/usr/bin/gridlock") == ["/usr/bin/gridlockd-single", "/usr/libexec/gridlock/gridlockd-single"])
        #expect(SingleProcessPath.candidates(besides: "/usr/local/bin/gridlock") == ["/usr/local/bin/gridlockd-single", "/usr/local/libexec/gridlock/gridlockd-single"])
        #expect(SingleProcessPath.candidates(besides: "/usr/sbin/gridlockd") == ["/usr/sbin/gridlockd-single", "/usr/libexec/gridlock/gridlockd-single"])
    }

    @Test("a gridlock in a build folder looks beside itself only") func aGridlockInABuildFolderLooksBesideItselfOnly() {
        #expect(SingleProcessPath.candidates(besides: "/src/gridlock/.build/release/gridlock") == ["/src/gridlock/.build/release/gridlockd-single"])
    }
}
