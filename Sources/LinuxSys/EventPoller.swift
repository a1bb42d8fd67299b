import CLinux
import Glibc

/// One epoll instance: the daemon's single wait point. Not thread-safe; it belongs to
/// the loop thread (other threads wake it through an `EventFD`).
public final class EventPoller {
    public struct Ready: Hashable, Sendable {
        public var token: Int
        public var readable: Bool
        public var writable: Bool
        /// The peer closed (a pipe's writers are gone, a device was unplugged). Reported
        /// even when not asked for, so a descriptor at EOF must be removed or closed,
        /// or every wait returns at once.
        public var hangUp: Bool
        public var error: Bool
    }

    private let epoll: FileDescriptor
    private let capacity: Int32
    private let events: UnsafeMutablePointer<epoll_event>
    /// Kept between waits so that, once the caller has dropped the previous result,
    /// `removeAll(keepingCapacity:)` reuses its storage instead of allocating.
    private var ready: [Ready] = []

    public init(capacity: Int32 = 32) throws(SystemCallError) {
        precondition(capacity > 0)
        let fd = try systemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        epoll = FileDescriptor(rawValue: fd)
        self.capacity = capacity
        events = .allocate(capacity: Int(capacity))
        ready.reserveCapacity(Int(capacity))
    }

    deinit {
        events.deallocate()
        epoll.close()
    }

    public var fileDescriptor: FileDescriptor { epoll }

    public func add(
        _ fd: FileDescriptor, token: Int, readable: Bool = true, writable: Bool = false
    ) throws(SystemCallError) {
        try control(EPOLL_CTL_ADD, "epoll_ctl(ADD)", fd, token: token, readable: readable, writable: writable)
    }

    public func modify(
        _ fd: FileDescriptor, token: Int, readable: Bool = true, writable: Bool = false
    ) throws(SystemCallError) {
        try control(EPOLL_CTL_MOD, "epoll_ctl(MOD)", fd, token: token, readable: readable, writable: writable)
    }

    public func remove(_ fd: FileDescriptor) throws(SystemCallError) {
        _ = try systemCall("epoll_ctl(DEL)", path: "fd \(fd.rawValue)") {
            epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd.rawValue, nil)
        }
    }

    /// Waits until at least one descriptor is ready or the timeout passes (nil waits
    /// forever). A signal interrupting the wait returns an empty list rather than an
    /// error: the loop simply goes round again and reads its signalfd.
    public func wait(timeoutMilliseconds: Int32?) throws(SystemCallError) -> [Ready] {
        ready.removeAll(keepingCapacity: true)
        let count = epoll_wait(epoll.rawValue, events, capacity, timeoutMilliseconds ?? -1)
        if count < 0 {
            let error = Errno.current
            if error == .interrupted { return ready }
            throw SystemCallError(operation: "epoll_wait", errno: error)
        }
        for index in 0..<Int(count) {
            let event = events[index]
            let mask = event.events
            ready.append(Ready(
                token: Int(truncatingIfNeeded: event.data.u64),
                readable: mask & EPOLLIN.rawValue != 0,
                writable: mask & EPOLLOUT.rawValue != 0,
                hangUp: mask & (EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0,
                error: mask & EPOLLERR.rawValue != 0
            ))
        }
        return ready
    }

    private func control(
        _ operation: Int32, _ name: String, _ fd: FileDescriptor, token: Int, readable: Bool, writable: Bool
    ) throws(SystemCallError) {
        var event = epoll_event()
        event.events = (readable ? EPOLLIN.rawValue : 0) | (writable ? EPOLLOUT.rawValue : 0)
        event.data.u64 = UInt64(truncatingIfNeeded: token)
        _ = try systemCall(name, path: "fd \(fd.rawValue)") {
            epoll_ctl(epoll.rawValue, operation, fd.rawValue, &event)
        }
    }
}
