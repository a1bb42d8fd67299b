import Testing
@testable import GridlockDaemon

/// gridlockd runs gridlockd-single with the options it was given: both read them here.
@Suite struct DaemonCommandLineTests {
    @Test("the config path and the benchmark roles are read; an unknown option is a usage error (64)")
    func readsTheOptionsBothProgramsTake() {
        guard case .run(let path, let role) = DaemonCommandLine.read([], command: "gridlockd", usage: "") else {
            Issue.record("no options: a run")
            return
        }
        #expect(path == ConfigVerdict.defaultPath && role == .lock)
        guard case .run(let named, let stroke) = DaemonCommandLine.read(
            ["--config", "/tmp/g.conf", "--bench-stroke"], command: "gridlockd-single", usage: "") else {
            Issue.record("--config and --bench-stroke: a run")
            return
        }
        #expect(named == "/tmp/g.conf" && stroke == .benchStroke)
        guard case .exit(let status) = DaemonCommandLine.read(["--frobnicate"], command: "gridlockd", usage: "") else {
            Issue.record("an unknown option: no run")
            return
        }
        #expect(status == 64)
    }
}
