import Glibc
import LinuxSys
import Testing

@Suite struct ErrnoTests {
    @Test("description has text and symbolic name") func descriptionHasTextAndSymbolicName() {
        #expect(Errno(rawValue: EACCES).description == "Permission denied (EACCES)")
        #expect(Errno(rawValue: ENOENT).description == "No such file or directory (ENOENT)")
        #expect(Errno(rawValue: EROFS).name == "EROFS")
    }

    @Test("unnamed errno still prints its number") func unnamedErrnoStillPrintsItsNumber() {
        #expect(Errno(rawValue: EDOM).description.hasSuffix("(errno \(EDOM))"))
    }

    @Test("system call error names operation and path") func systemCallErrorNamesOperationAndPath() {
        let error = SystemCallError(operation: "open", path: "/dev/input/event3", errno: .permissionDenied)
        #expect(error.description == "open /dev/input/event3: Permission denied (EACCES)")
        #expect(SystemCallError(operation: "epoll_wait", errno: .invalidArgument).description
            == "epoll_wait: Invalid argument (EINVAL)")
    }

    @Test("failed open carries path and errno") func failedOpenCarriesPathAndErrno() {
        #expect(throws: SystemCallError(operation: "open", path: "/nonexistent/gridlock", errno: .noSuchFile)) {
            _ = try FileDescriptor.open("/nonexistent/gridlock", .readOnly)
        }
    }

    @Test("opened descriptor is close-on-exec") func openedDescriptorIsCloseOnExec() throws {
        let fd = try FileDescriptor.open("/dev/null", .readOnly)
        defer { fd.close() }
        #expect(fcntl(fd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test("errno left behind by a call is reported and none is nil") func errnoLeftBehindByACallIsReportedAndNoneIsNil() {
        let failed = Errno.leftBehind { access("/nonexistent/gridlock", R_OK) }
        #expect(failed.result == -1)
        #expect(failed.errno == .noSuchFile)
        #expect(Errno.leftBehind { 7 }.errno == nil)
    }

    @Test("readability check says why not") func readabilityCheckSaysWhyNot() {
        #expect(PathLookup.checkReadable("/dev/null") == nil)
        #expect(PathLookup.checkReadable("/nonexistent/gridlock") == .noSuchFile)
    }

    @Test("operation not supported has its name") func operationNotSupportedHasItsName() {
        #expect(Errno.notSupported.name == "EOPNOTSUPP")
    }
}
