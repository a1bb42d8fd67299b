import CLinux
import Glibc
import GridlockCore

/// A child started with `posix_spawn`, never through a shell, in its own process group
/// so a timeout can stop everything it started. Owns the read end of its output pipe.
///
/// Not thread-safe: it belongs to the loop thread. The caller must reap it (`tryWait`
/// until non-nil) or it stays a zombie; dropping it only closes the output pipe.
public final class SpawnedProcess {
    public let pid: pid_t
    /// stdout and stderr, merged, non-blocking. At EOF (every writer, grandchildren
    /// included, has gone) it stays readable: remove it from the poller then.
    public let outputFD: FileDescriptor
    public private(set) var outputEnded = false
    public private(set) var exitStatus: ExitStatus?
    /// Readable once the process has exited (a pidfd), so loops wait for the exit itself
    /// rather than for SIGCHLD, which any thread not blocking it may swallow.
    /// nil on kernels before 5.3; callers then rely on SIGCHLD.
    public let exitFD: FileDescriptor?

    /// Signals whose handlers a child must start with at default, whatever the daemon
    /// did with them (it blocks these for its signalfd and may ignore SIGPIPE).
    public static let defaultedSignals: [Signal] = [.terminate, .interrupt, .hangUp, .child, .pipe, .quit, .user1, .user2]

    private init(pid: pid_t, outputFD: FileDescriptor) {
        self.pid = pid
        self.outputFD = outputFD
        // Opened right after the spawn: the child cannot have been reaped yet, so the pid is still ours.
        let fd = gridlock_pidfd_open(pid)
        exitFD = fd >= 0 ? FileDescriptor(rawValue: fd) : nil
    }

    deinit {
        outputFD.close()
        exitFD?.close()
    }

    /// `argv[0]` is the program's path; no PATH search happens (the daemon's own PATH
    /// would be the wrong one to search). `environment` is the child's whole
    /// environment as `NAME=value` strings.
    ///
    /// glibc runs the exec inside posix_spawn and returns its error, so a missing or
    /// non-executable program is reported here, naming `argv[0]`.
    ///
    /// `input` becomes the child's standard input (the caller still owns and closes its own
    /// copy); nil: /dev/null.
    public static func spawn(
        argv: [String], environment: [String], input: FileDescriptor? = nil
    ) throws(SystemCallError) -> SpawnedProcess {
        guard let program = argv.first else {
            throw SystemCallError(operation: "posix_spawn (empty argv)", errno: .invalidArgument)
        }
        // A NUL would silently truncate the argument on its way into C.
        if (argv + environment).contains(where: { $0.utf8.contains(0) }) {
            throw SystemCallError(operation: "posix_spawn (NUL byte in argument)", path: program, errno: .invalidArgument)
        }

        let output = try FileDescriptor.pipe()
        defer { output.write.close() }

        let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
        let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)
        posix_spawn_file_actions_init(actions)
        posix_spawnattr_init(attributes)
        defer {
            posix_spawn_file_actions_destroy(actions)
            posix_spawnattr_destroy(attributes)
            actions.deallocate()
            attributes.deallocate()
        }

        // dup2 clears close-on-exec on the copies; the pipes' own ends are
        // close-on-exec, so the child ends up holding exactly fds 0, 1 and 2.
        var result = if let input {
            posix_spawn_file_actions_adddup2(actions, input.rawValue, 0)
        } else {
            posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if result == 0 { result = posix_spawn_file_actions_adddup2(actions, output.write.rawValue, 1) }
        if result == 0 { result = posix_spawn_file_actions_adddup2(actions, output.write.rawValue, 2) }

        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultedSignals { sigaddset(&defaults, signal.rawValue) }
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if result == 0 { result = posix_spawnattr_setflags(attributes, Int16(flags)) }
        if result == 0 { result = posix_spawnattr_setpgroup(attributes, 0) }
        if result == 0 { result = posix_spawnattr_setsigmask(attributes, &emptyMask) }
        if result == 0 { result = posix_spawnattr_setsigdefault(attributes, &defaults) }
        if result != 0 {
            output.read.close()
            throw SystemCallError(operation: "posix_spawn setup", path: program, errno: Errno(rawValue: result))
        }

        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in cArgv { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid: pid_t = 0
        result = posix_spawn(&pid, program, actions, attributes, cArgv, cEnvironment)
        if result != 0 {
            output.read.close()
            throw SystemCallError(operation: "posix_spawn", path: program, errno: Errno(rawValue: result))
        }
        return SpawnedProcess(pid: pid, outputFD: output.read)
    }

    /// One read of at most `maximumBytes`: what the pipe holds, up to that; empty when it
    /// holds nothing now, or at EOF (then `outputEnded` is set). Never more than one
    /// read, so a program that writes faster than its output is read cannot keep the
    /// caller's loop from turning: the pipe stays readable and the loop comes back.
    public func readOutput(maximumBytes: Int) throws(SystemCallError) -> [UInt8] {
        precondition(maximumBytes > 0)
        if outputEnded { return [] }
        var chunk = [UInt8](repeating: 0, count: maximumBytes)
        let count = chunk.withUnsafeMutableBytes { raw in
            retryingOnInterrupt { read(outputFD.rawValue, raw.baseAddress, raw.count) }
        }
        if count > 0 {
            chunk.removeSubrange(count...)
            return chunk
        }
        if count == 0 {
            outputEnded = true
            return []
        }
        let error = Errno.current
        if error == .wouldBlock { return [] }
        throw SystemCallError(operation: "read output of", path: "pid \(pid)", errno: error)
    }

    /// The bytes the output pipe holds right now (FIONREAD); 0 at EOF.
    public var outputWaiting: Int {
        if outputEnded { return 0 }
        return max(0, Int(gridlock_bytes_waiting(outputFD.rawValue)))
    }

    /// Sends `signal` to the child's whole process group, reaching what it started
    /// too. A group that no longer exists is not an error.
    ///
    /// The group id stays reserved while any member lives, so this cannot hit an
    /// unrelated process while the group has members; once all have been reaped the
    /// number could in principle be reused, so callers stop signalling after that.
    public func signalGroup(_ signal: Signal) throws(SystemCallError) {
        if signal.send(to: -pid) { return }
        let error = Errno.current
        if error == .noSuchProcess { return }
        throw SystemCallError(operation: "kill(\(signal)) process group", path: "\(pid)", errno: error)
    }

    /// Whether anything still lives in the child's process group: after the child itself
    /// ended, what it left running in the background. While this is true the group id
    /// stays reserved, so signalling it right after asking is safe.
    public var groupHasMembers: Bool {
        Signal(rawValue: 0).send(to: -pid) || Errno.current == .notPermitted
    }

    /// Linux's default pipe size: what a child that ended can have left unread.
    public static let pipeCapacity = 65536

    /// What a reaped child used, as wait4 reports it (what `/usr/bin/time` prints).
    public struct ResourceUsage: Sendable, Equatable {
        /// Its peak resident set size.
        public var maximumResidentKiB: Int
        /// User plus system CPU time.
        public var cpuNanoseconds: Int64
    }

    /// For one-shot tools (`gridlock bench`), not for loops: blocks until the child
    /// exits, reaps it, then returns its status, resource usage and its output. The
    /// output must fit the pipe (64 KiB) or the child blocks writing and this waits forever.
    public func waitForExit() throws(SystemCallError) -> (status: ExitStatus, usage: ResourceUsage, output: [UInt8]) {
        var status: Int32 = 0
        var usage = rusage()
        _ = try systemCall("wait4", path: "pid \(pid)") { retryingOnInterrupt { wait4(pid, &status, 0, &usage) } }
        // Without WUNTRACED wait4 reports only an exit or a killing signal.
        guard let exit = ExitStatus(waitStatus: status) else {
            throw SystemCallError(operation: "wait4 (status \(status))", path: "pid \(pid)", errno: .invalidArgument)
        }
        exitStatus = exit
        // Whatever a process it left behind writes later is not waited for.
        var output: [UInt8] = []
        while output.count < Self.pipeCapacity {
            let slice = try readOutput(maximumBytes: Self.pipeCapacity - output.count)
            if slice.isEmpty { break }
            output += slice
        }
        func nanoseconds(_ time: timeval) -> Int64 { Nanoseconds.from(seconds: Int64(time.tv_sec), fraction: Int64(time.tv_usec), perSecond: 1_000_000) }
        return (
            exit,
            ResourceUsage(maximumResidentKiB: usage.ru_maxrss, cpuNanoseconds: Nanoseconds.sum(nanoseconds(usage.ru_utime), nanoseconds(usage.ru_stime))),
            output
        )
    }

    /// Reaps the child if it has ended; nil while it runs. Idempotent after reaping.
    public func tryWait() throws(SystemCallError) -> ExitStatus? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        let result = try systemCall("waitpid", path: "pid \(pid)") { waitpid(pid, &status, WNOHANG) }
        if result == 0 { return nil }
        exitStatus = ExitStatus(waitStatus: status)
        return exitStatus
    }
}
