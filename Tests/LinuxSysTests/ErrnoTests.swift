import Glibc
import LinuxSys
import Testing

@Suite struct ErrnoTests {
    @Test func descriptionHasTextAndSymbolicName() {
        #expect(Errno(rawValue: EACCES).description == "Permission denied (EACCES)")
        #expect(Errno(rawValue: ENOENT).description == "No such file or directory (ENOENT)")
        #expect(Errno(rawValue: EROFS).name == "EROFS")
    }

    @Test func unnamedErrnoStillPrintsItsNumber() {
        #expect(Errno(rawValue: EDOM).description.hasSuffix("(errno \(EDOM))"))
    }

    @Test func systemCallErrorNamesOperationAndPath() {
        let error = SystemCallError(operation: "open", path: "/dev/input/event3", errno: .permissionDenied)
        #expect(error.description == "open /dev/input/event3: Permission denied (EACCES)")
        #expect(SystemCallError(operation: "epoll_wait", errno: .invalidArgument).description
            == "epoll_wait: Invalid argument (EINVAL)")
    }

    @Test func failedOpenCarriesPathAndErrno() {
        #expect(throws: SystemCallError(operation: "open", path: "/nonexistent/gridlock", errno: .noSuchFile)) {
            _ = try FileDescriptor.open("/nonexistent/gridlock", .readOnly)
        }
    }

    @Test func openedDescriptorIsCloseOnExec() throws {
        let fd = try FileDescriptor.open("/dev/null", .readOnly)
        defer { fd.close() }
        #expect(fcntl(fd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func errnoLeftBehindByACallIsReportedAndNoneIsNil() {
        let failed = Errno.leftBehind { access("/nonexistent/gridlock", R_OK) }
        #expect(failed.result == -1)
        #expect(failed.errno == .noSuchFile)
        #expect(Errno.leftBehind { 7 }.errno == nil)
    }

    @Test func readabilityCheckSaysWhyNot() {
        #expect(PathLookup.checkReadable("/dev/null") == nil)
        #expect(PathLookup.checkReadable("/nonexistent/gridlock") == .noSuchFile)
    }

    @Test func operationNotSupportedHasItsName() {
        #expect(Errno.notSupported.name == "EOPNOTSUPP")
    }
}
