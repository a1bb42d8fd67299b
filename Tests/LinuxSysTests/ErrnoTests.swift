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
            _ = try FileDescriptor.open("/nonexistent/gridlock", O_RDONLY)
        }
    }

    @Test func openedDescriptorIsCloseOnExec() throws {
        let fd = try FileDescriptor.open("/dev/null", O_RDONLY)
        defer { fd.close() }
        #expect(fcntl(fd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }
}
